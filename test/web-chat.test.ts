import type { Browser, Page, Request as BrowserRequest } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, collectProblems, hasChromium, startWebSite } from './helpers/browser.js';
import type { LocalServer } from './helpers/listen.js';
import type { TestService } from './helpers/service.js';
import { webRoutes } from '../src/server/web-routes.js';

const DOCS_SITE = 'https://docs.example.com';
const MESSAGE_PATH = '/discovery/v2/assistant/docs/message';
const BROWSER_TEST_MS = 60_000;

const title = hasChromium
  ? 'chat page and widget in headless Chromium'
  : 'chat page and widget in headless Chromium (skipped: no /usr/bin/chromium; `apt-get install chromium`)';

describe('web routes', () => {
  const web = webRoutes();

  it('serves the page with a strict CSP and no caching without a check', async () => {
    const response = await web.request('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    // No inline script or style: the CSP would refuse them.
    const html = await response.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=|\son\w+=/i);
  });

  it('serves scripts and styles to other origins, revalidated by ETag', async () => {
    const response = await web.request('/widget.js');
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toContain('max-age=');
    const etag = response.headers.get('etag')!;
    const again = await web.request('/widget.js', { headers: { 'if-none-match': `W/${etag}, "other"` } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    for (const [path, type] of [
      ['/chat-core.js', 'text/javascript'],
      ['/chat.css', 'text/css'],
      ['/favicon.svg', 'image/svg+xml'],
    ]) {
      expect((await web.request(path!)).headers.get('content-type')).toContain(type);
    }
  });
});

describe.skipIf(!hasChromium)(title, () => {
  let test: TestService;
  let api: LocalServer;
  let docsSite: LocalServer;
  let browser: Browser;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ t: test, api, docsSite, browser, close } = await startWebSite());
  }, BROWSER_TEST_MS);

  afterAll(() => close?.());

  it(
    'streams a cited answer on the chat page and continues the thread',
    async () => {
      const page = await browser.newPage({ viewport: { width: 1000, height: 820 } });
      const problems = collectProblems(page);
      const asked = assistantRequests(page);
      const firstResponse = page.waitForResponse((candidate) => candidate.url().endsWith(MESSAGE_PATH));

      const opened = await page.goto(`${api.url}/?domain=docs&key=${test.assistantKey}&docs=${DOCS_SITE}`);
      expect(opened?.headers()['content-security-policy']).toContain("connect-src 'self'");
      // The key is kept for the tab but leaves the address bar.
      await page.waitForURL(`${api.url}/`);

      await ask(page, 'How do I add a custom domain?');
      const first = page.locator('.dw-assistant').nth(0);
      await page.locator('.dw-assistant[data-state="done"]').first().waitFor();
      const headers = (await firstResponse).headers();
      expect(headers['content-type']).toContain('text/event-stream');
      const threadId = headers['x-thread-id'];
      expect(threadId).toMatch(/\S/);

      // Markdown became elements (the answer has a code block, a list and inline code), not text.
      await expect(first.locator('.dw-answer').textContent()).resolves.toContain('acme domains add');
      expect(await first.locator('.dw-answer pre code').count()).toBeGreaterThan(0);
      expect(await first.locator('.dw-answer li').count()).toBeGreaterThan(0);
      expect(await first.locator('.dw-answer').textContent()).not.toContain('**');
      const sourceLinks = await first
        .locator('.dw-sources a')
        .evaluateAll((links) => links.map((link) => link.href));
      expect(sourceLinks).toContain(`${DOCS_SITE}/guides/custom-domains#add-a-domain`);
      expect(await first.locator('.dw-cite a').count()).toBeGreaterThan(0);

      await ask(page, 'How long does the HTTPS certificate take?');
      const second = page.locator('.dw-assistant[data-state="done"]').nth(1);
      await second.waitFor();
      expect(await second.locator('.dw-answer').textContent()).toMatch(/certificate/i);
      expect(await second.locator('.dw-sources a').count()).toBeGreaterThan(0);

      // The follow-up carried the thread, and only its own question: the server has the history.
      expect(asked).toHaveLength(2);
      expect(asked[0]).toMatchObject({ fp: expect.any(String), retrievalPageSize: 5 });
      expect(asked[0]!.threadId).toBeUndefined();
      expect(asked[1]).toMatchObject({ threadId, fp: asked[0]!.fp });
      expect(asked[1]!.messages).toHaveLength(1);
      expect(asked[1]!.messages[0].parts[0].text).toBe('How long does the HTTPS certificate take?');

      await page.screenshot({ path: '/tmp/docwright-chat-page.png' });

      // A new conversation starts a new thread.
      await page.getByRole('button', { name: 'New conversation' }).click();
      expect(await page.locator('.dw-message').count()).toBe(0);
      await ask(page, 'What environment variables can I set?');
      await page.locator('.dw-assistant[data-state="done"]').first().waitFor();
      expect(asked[2]!.threadId).toBeUndefined();
      expect(problems).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );

  it(
    'renders answers as light Markdown, never as markup',
    async () => {
      const page = await browser.newPage();
      await page.goto(`${api.url}/`);
      const markdown = [
        '## Steps',
        'Run `acme <deploy>` **now**, see [the guide](/guides/setup) [1].',
        '- one *two*',
        '- <img src=x onerror=alert(1)>',
        '',
        '| Name | Value |',
        '| --- | --- |',
        '| `PORT` | a \\| b |',
        '',
        '[bad](javascript:alert(1)) [2]',
        '```js',
        '<script>alert(1)</script>',
        '```',
      ].join('\n');
      // A string, not a function: vitest rewrites `import()` in the test file's own code.
      const html = await page.evaluate(`(async () => {
        const { renderMarkdown, safeHref } = await import('/markdown.js');
        const box = document.createElement('div');
        box.append(renderMarkdown(${JSON.stringify(markdown)}, document, {
          resolveHref: (href) => safeHref(href, 'https://docs.example.com/base'),
          citation: (n) => (n === 1 ? { title: 'Setup', href: 'https://docs.example.com/base/guides/setup' } : null),
        }));
        return box.innerHTML;
      })()`);
      expect(html).toBe(
        [
          '<h4>Steps</h4>',
          '<p>Run <code>acme &lt;deploy&gt;</code> <strong>now</strong>, see ',
          '<a href="https://docs.example.com/base/guides/setup">the guide</a> ',
          '<sup class="dw-cite"><a href="https://docs.example.com/base/guides/setup" title="Setup" aria-label="Source 1: Setup">1</a></sup>.</p>',
          '<ul><li>one <em>two</em></li><li>&lt;img src=x onerror=alert(1)&gt;</li></ul>',
          '<div class="dw-table"><table><thead><tr><th>Name</th><th>Value</th></tr></thead>',
          '<tbody><tr><td><code>PORT</code></td><td>a | b</td></tr></tbody></table></div>',
          // The javascript: link loses its target; an unknown citation stays as written.
          '<p>bad) [2]</p>',
          '<pre><code data-language="js">&lt;script&gt;alert(1)&lt;/script&gt;</code></pre>',
        ].join(''),
      );
      await page.close();
    },
    BROWSER_TEST_MS,
  );

  it(
    'asks for the assistant when none is given, and says in words when the key is refused',
    async () => {
      const page = await browser.newPage();
      const problems = collectProblems(page);
      await page.goto(`${api.url}/`);
      await page.getByLabel('Domain').fill('docs');
      await page.getByLabel('Assistant key').fill('svc_dsc_not-a-real-key');
      await page.getByRole('button', { name: 'Start' }).click();
      await ask(page, 'How do I deploy?');
      const error = page.getByRole('alert');
      await error.waitFor();
      expect(await error.textContent()).toMatch(/^The assistant key was not accepted/);

      // A rate limit (mocked at the network: 10,000 real requests would be slow) says when to retry.
      await page.route(`**${MESSAGE_PATH}`, (route) =>
        route.fulfill({
          status: 429,
          headers: { 'retry-after': '30', 'content-type': 'application/json' },
          body: JSON.stringify({ error: 'Rate limit exceeded', code: 'rate_limited' }),
        }),
      );
      await ask(page, 'How do I deploy?');
      await expect(page.getByRole('alert').nth(1).textContent()).resolves.toBe(
        'Too many questions right now. Try again in 30 seconds.',
      );
      // The refused requests are the only console errors (Chromium logs failed fetches).
      expect(problems.filter((problem) => !/\b(401|429)\b/.test(problem))).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );

  it(
    'embeds the widget on a docs page on another origin, with the page path and the selection',
    async () => {
      const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
      const problems = collectProblems(page);
      const asked = assistantRequests(page);
      await page.goto(`${docsSite.url}/guides/custom-domains`);

      const launcher = page.locator('docwright-widget .dw-launcher');
      await launcher.waitFor();
      // The site's `button { … !important }` and inherited font size stop at the shadow root.
      const launcherStyle = await launcher.evaluate((button) => {
        const style = button.ownerDocument.defaultView.getComputedStyle(button);
        return { fontSize: style.fontSize, background: style.backgroundColor };
      });
      expect(launcherStyle).toEqual({ fontSize: '15px', background: 'rgb(79, 70, 229)' });

      await page.locator('#selected').selectText();
      await launcher.click();
      const panel = page.getByRole('dialog', { name: 'Ask the docs' });
      await panel.waitFor();
      expect(await panel.locator('.dw-context').textContent()).toContain('Once the record resolves');

      await panel.getByLabel('Your question').fill('How long does this take?');
      await panel.getByLabel('Your question').press('Enter');
      const answer = panel.locator('.dw-assistant[data-state="done"]');
      await answer.waitFor();
      expect(await answer.locator('.dw-answer').textContent()).toMatch(/certificate/i);
      const sourceLinks = await answer
        .locator('.dw-sources a')
        .evaluateAll((links) => links.map((link) => link.href));
      expect(sourceLinks.some((href) => href.startsWith(`${docsSite.url}/guides/custom-domains`))).toBe(true);

      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({
        currentPath: '/guides/custom-domains',
        context: [{ type: 'textSelection', value: expect.stringContaining('Once the record resolves') }],
      });
      await page.screenshot({ path: '/tmp/docwright-widget.png' });

      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden' });
      expect(problems).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );
});

/** The JSON bodies the page sends to the assistant, in order. */
function assistantRequests(page: Page): any[] {
  const bodies: any[] = [];
  page.on('request', (request: BrowserRequest) => {
    if (request.method() === 'POST' && request.url().endsWith(MESSAGE_PATH))
      bodies.push(request.postDataJSON());
  });
  return bodies;
}
