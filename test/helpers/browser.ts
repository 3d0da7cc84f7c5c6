import { existsSync } from 'node:fs';
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
