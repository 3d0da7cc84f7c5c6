import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, which `.ci/run` installs; playwright-core brings no browser of its own. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Whether browser tests can run here. */
export const hasChromium = existsSync(CHROMIUM_PATH);

/**
 * Headless Chromium with nothing running in the background (no updates, sync or first-run UI).
 * Playwright gives each launch a fresh temporary profile and removes it on close.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface LocalServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  close(): Promise<void>;
}

/** Serves a fetch handler (a Hono app's `fetch`) on a free loopback port. */
export function listen(fetch: (request: Request) => Response | Promise<Response>): Promise<LocalServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            // Keep-alive connections from the browser would hold close() open otherwise.
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ) as Server;
    server.once('error', reject);
  });
}
