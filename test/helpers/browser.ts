import { existsSync } from 'node:fs';
import { Hono } from 'hono';
import { chromium, type Browser, type Page } from 'playwright-core';
import { webRoutes } from '../../src/server/web-routes.js';
import { listen } from './listen.js';
import { startTestService } from './service.js';

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

/**
 * The service's app, with the web routes mounted in front when `createApp` does not mount them
 * itself.
 */
export function withWebRoutes(app: Hono): (request: Request) => Response | Promise<Response> {
  if (app.routes.some((route) => route.path === '/widget.js')) return app.fetch;
  const web = webRoutes();
  return async (request) => {
    const response = await web.fetch(request);
    return response.status === 404 ? app.fetch(request) : response;
  };
}

/** A docs page that embeds the widget, with a hostile stylesheet and a passage to select. */
export function docsPageApp(apiUrl: string, key: string): Hono {
  const app = new Hono();
  app.get('/guides/custom-domains', (c) =>
    c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Custom domains · Acme docs</title><link rel="icon" href="data:,">
<style>
  body { font: 22px/1.7 Georgia, serif; max-width: 640px; margin: 40px auto; color: #222; }
  button { background: red !important; font-size: 40px !important; }
</style></head>
<body>
  <h1>Custom domains</h1>
  <p>Every web service gets an address on <code>acme.app</code>. Add your own domain to serve it under your brand.</p>
  <h2>HTTPS certificates</h2>
  <p id="selected">Once the record resolves, Acme Cloud requests a certificate and renews it before it expires.</p>
  <script src="${apiUrl}/widget.js" data-domain="docs" data-key="${key}" async></script>
</body></html>`),
  );
  return app;
}

/** Fills the visible question box and sends it with Enter. */
export async function ask(page: Page, question: string): Promise<void> {
  const input = page.getByLabel('Your question');
  await input.fill(question);
  await input.press('Enter');
}

/** Script errors and console errors (CSP violations, failed loads) seen on the page. */
export function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  return problems;
}

/**
 * The service with its web routes on a socket, a docs site on another origin whose pages carry
 * the widget (as on a real docs site, CORS included), and Chromium; `close` undoes all of it.
 */
export async function startWebSite() {
  const t = await startTestService({ startWorker: false });
  const api = await listen(withWebRoutes(t.service.app));
  const docsSite = await listen(docsPageApp(api.url, t.assistantKey).fetch);
  const browser = await launchChromium();
  return {
    t,
    api,
    docsSite,
    browser,
    close: async () => {
      await browser.close();
      await docsSite.close();
      await api.close();
      await t.cleanup();
    },
  };
}
