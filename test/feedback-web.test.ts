import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, collectProblems, hasChromium, startWebSite } from './helpers/browser.js';
import type { LocalServer } from './helpers/listen.js';
import type { TestService } from './helpers/service.js';

const BROWSER_TEST_MS = 60_000;
const title = hasChromium
  ? 'rating and copying answers on the chat page and in the widget, in headless Chromium'
  : 'rating and copying answers in headless Chromium (skipped: no /usr/bin/chromium; `apt-get install chromium`)';

describe.skipIf(!hasChromium)(title, () => {
  let t: TestService;
  let api: LocalServer;
  let docsSite: LocalServer;
  let browser: Browser;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ t, api, docsSite, browser, close } = await startWebSite());
  }, BROWSER_TEST_MS);
  afterAll(() => close?.());

  const ratings = () =>
    t.service.store.database.db.selectFrom('feedback').selectAll().orderBy('id').execute();

  it(
    'sends a thumbs down with a comment, then a thumbs up replaces it',
    async () => {
      const page = await browser.newPage();
      const problems = collectProblems(page);
      await page.goto(`${api.url}/?domain=docs&key=${t.assistantKey}`);
      await ask(page, 'How do I add a custom domain?');
      const answer = page.locator('.dw-assistant[data-state="done"]').first();
      await answer.waitFor();
      const bar = answer.getByRole('group', { name: 'Was this answer helpful?' });

      const commentBox = bar.getByLabel('What was missing or wrong? (optional)');
      expect(await commentBox.isHidden()).toBe(true);
      await bar.getByRole('button', { name: 'Not helpful' }).click();
      await bar.getByLabel('What was missing or wrong? (optional)').waitFor();
      await bar.getByText('Thanks for your feedback.').waitFor();
      await bar.getByLabel('What was missing or wrong? (optional)').fill('It never says how long DNS takes.');
      await bar.getByRole('button', { name: 'Send' }).click();
      await bar.getByText('Thanks, your comment was sent.').waitFor();
      expect(await commentBox.isHidden()).toBe(true);
      expect(await ratings()).toMatchObject([
        { rating: 'down', comment: 'It never says how long DNS takes.' },
      ]);
      expect(await bar.getByRole('button', { name: 'Not helpful' }).getAttribute('aria-pressed')).toBe(
        'true',
      );

      await bar.getByRole('button', { name: 'Helpful', exact: true }).click();
      await expect.poll(async () => (await ratings()).map((row) => row.rating)).toEqual(['up']);
      expect(problems).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );

  it(
    'rates from the widget on a docs site of another origin (CORS)',
    async () => {
      const page = await browser.newPage();
      const problems = collectProblems(page);
      await page.goto(`${docsSite.url}/guides/custom-domains`);
      await page.locator('docwright-widget .dw-launcher').click();
      const panel = page.getByRole('dialog', { name: 'Ask the docs' });
      await panel.getByLabel('Your question').fill('How long does the HTTPS certificate take?');
      await panel.getByLabel('Your question').press('Enter');
      const answer = panel.locator('.dw-assistant[data-state="done"]');
      await answer.waitFor();
      await answer.getByRole('button', { name: 'Helpful', exact: true }).click();
      await answer.getByText('Thanks for your feedback.').waitFor();
      const rows = await ratings();
      expect(rows.at(-1)).toMatchObject({ rating: 'up', comment: null });
      expect(problems).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );

  it(
    'sends a thumbs down with a comment from the widget, and the comment box closes',
    async () => {
      const page = await browser.newPage();
      const problems = collectProblems(page);
      await page.goto(`${docsSite.url}/guides/custom-domains`);
      await page.locator('docwright-widget .dw-launcher').click();
      const panel = page.getByRole('dialog', { name: 'Ask the docs' });
      await panel.getByLabel('Your question').fill('Can I import our pages from Confluence?');
      await panel.getByLabel('Your question').press('Enter');
      const answer = panel.locator('.dw-assistant[data-state="done"]');
      await answer.waitFor();
      const bar = answer.getByRole('group', { name: 'Was this answer helpful?' });
      await bar.getByRole('button', { name: 'Not helpful' }).click();
      const commentBox = bar.getByLabel('What was missing or wrong? (optional)');
      await commentBox.fill('Nothing about Confluence.');
      await bar.getByRole('button', { name: 'Send' }).click();
      await bar.getByText('Thanks, your comment was sent.').waitFor();
      expect(await commentBox.isHidden()).toBe(true);
      expect((await ratings()).at(-1)).toMatchObject({
        rating: 'down',
        comment: 'Nothing about Confluence.',
      });
      // The rated answer is the one the widget showed: the report reads the reader's question with it.
      const report = await t.request('GET', '/v2/agent/docs/gaps', { key: t.adminKey });
      expect(report.status).toBe(200);
      const gaps = (report.body as { gaps: { examples: string[]; comments: string[] }[] }).gaps;
      expect(
        gaps.find((gap) => gap.examples.includes('Can I import our pages from Confluence?')),
      ).toMatchObject({
        comments: ['Nothing about Confluence.'],
      });
      expect(problems).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );

  /** A page whose clipboard writes are kept in `window.copied`, as a reader's paste would find them. */
  async function pageWithClipboard(): Promise<Page> {
    const page = await browser.newPage();
    // Runs in the page: its `window` and `navigator` are globalThis's there.
    await page.addInitScript(() => {
      const copied: string[] = [];
      const page = globalThis as unknown as { copied: string[]; navigator: object };
      page.copied = copied;
      Object.defineProperty(page.navigator, 'clipboard', {
        value: { writeText: (text: string) => (copied.push(text), Promise.resolve()) },
      });
    });
    return page;
  }
  const copied = (page: Page) => page.evaluate(() => (globalThis as unknown as { copied: string[] }).copied);

  it(
    'copies an answer as Markdown, its citations linked and its sources listed, and shows the MCP address',
    async () => {
      const page = await pageWithClipboard();
      const problems = collectProblems(page);
      await page.goto(`${api.url}/?domain=docs&key=${t.assistantKey}`);
      const header = page.locator('#mcp-address');
      expect(await header.locator('code').textContent()).toBe(`${api.url}/mcp/docs`);
      await header.getByRole('button', { name: 'Copy' }).click();
      await header.getByRole('button', { name: 'Copied' }).waitFor();
      await ask(page, 'How do I add a custom domain?');
      const answer = page.locator('.dw-assistant[data-state="done"]').first();
      await answer.waitFor();
      await answer.getByRole('button', { name: 'Copy as Markdown' }).click();
      await answer.getByRole('button', { name: 'Copied' }).waitFor();
      const [address, markdown] = await copied(page);
      expect(address).toBe(`${api.url}/mcp/docs`);
      expect(markdown).toMatch(/\[\[1\]\]\(\S+\)/);
      expect(markdown).toMatch(/\n\nSources:\n- \[[^\]]+\]\(\S+\)/);
      expect(problems).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );

  it(
    'copies the MCP address from the widget header on a docs site of another origin',
    async () => {
      const page = await pageWithClipboard();
      const problems = collectProblems(page);
      await page.goto(`${docsSite.url}/guides/custom-domains`);
      await page.locator('docwright-widget .dw-launcher').click();
      const panel = page.getByRole('dialog', { name: 'Ask the docs' });
      await panel.getByRole('button', { name: 'Copy the MCP address' }).click();
      await expect.poll(() => copied(page)).toEqual([`${api.url}/mcp/docs`]);
      expect(problems).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );
});
