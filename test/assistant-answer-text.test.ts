/**
 * What the offline answer says, not only what it cites: the answer first, blocks whole, a command
 * as code, steps as steps, a yes or no with its condition. Docwright's own docs are asked through
 * the route a reader's browser calls; small sites through retrieval and the answerer, as a request
 * runs them.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtractiveAnswerer } from '../src/assistant/answer/extractive.js';
import { retrieve } from '../src/assistant/retrieve.js';
import { ensureDemo } from '../src/cli/demo.js';
import { loadConfig } from '../src/config/config.js';
import { silentLogger } from '../src/core/logger.js';
import { DocsIndex } from '../src/docs/docs-index.js';
import { createService } from '../src/service/service.js';

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

/** Pages of other subjects, so that a site has more than the pages a test is about. */
const otherPages = ['Billing', 'Fonts', 'Themes', 'Search', 'Images'].map((title, position) => ({
  path: `other/page-${position}.mdx`,
  content: page(title, `${title} settings live in the settings screen.`),
}));

async function ask(files: { path: string; content: string }[], question: string) {
  const index = DocsIndex.build([...files, ...otherPages]);
  const conversation = [{ role: 'user' as const, text: question }];
  const retrieval = retrieve(index, { conversation, retrievalPageSize: 5 });
  const answer = new ExtractiveAnswerer().answer({
    conversation,
    ...retrieval,
    signal: new AbortController().signal,
  });
  let text = '';
  for await (const delta of answer.text) text += delta;
  return { text, sources: answer.sources.map((source) => source.url.replace(/#.*$/, '')) };
}

describe('what the offline answer says', () => {
  it('quotes the list a lead-in sentence ending in a colon introduces, with it', async () => {
    const answer = await ask(
      [
        {
          path: 'guides/webhooks.mdx',
          content: page(
            'Webhooks',
            'Webhooks notify your server of events.\n\nEach webhook delivery carries these headers:\n\n' +
              '- `X-Event`: the event name\n- `X-Signature`: an HMAC of the body\n- `X-Delivery`: a unique id\n\n' +
              'Deliveries are retried for a day.',
          ),
        },
      ],
      'which headers does a webhook delivery carry?',
    );
    expect(answer.sources[0]).toBe('/guides/webhooks');
    expect(answer.text).toMatch(
      /Each webhook delivery carries these headers:\n- `X-Event`: the event name\n- `X-Signature`: an HMAC of the body\n- `X-Delivery`: a unique id/,
    );
  });

  it('quotes the code block a lead-in sentence introduces, as code', async () => {
    const answer = await ask(
      [
        {
          path: 'guides/cache.mdx',
          content: page(
            'Cache',
            'The cache keeps rendered pages.\n\nTo clear the cache, run:\n\n```sh\nacme cache clear --all\n```\n',
          ),
        },
      ],
      'how do I clear the cache?',
    );
    expect(answer.text).toContain('To clear the cache, run:\n\n```sh\nacme cache clear --all\n```');
  });

  it('quotes a step list whole, as numbered steps', async () => {
    const steps = Array.from(
      { length: 9 },
      (_, position) => `${position + 1}. Step ${position + 1} of the release setup.`,
    );
    const answer = await ask(
      [
        {
          path: 'guides/releases.mdx',
          content: page('Releases', `## Set up releases\n\nTo set up releases:\n\n${steps.join('\n')}\n`),
        },
      ],
      'how do I set up releases?',
    );
    for (const [position] of steps.entries())
      expect(answer.text).toContain(`${position + 1}. Step ${position + 1} of the release setup.`);
  });

  it('quotes a long table by its header and the rows that hold the question', async () => {
    const rows = Array.from(
      { length: 12 },
      (_, position) => `| \`SETTING_${position}\` | unset | setting number ${position} |`,
    );
    rows[7] = '| `PRIVATE_KEY_PATH` | unset | path of the `.pem` file downloaded from the app settings |';
    const answer = await ask(
      [
        {
          path: 'configuration.mdx',
          content: page(
            'Configuration',
            `## Variables\n\n| variable | default | meaning |\n| --- | --- | --- |\n${rows.join('\n')}\n`,
          ),
        },
      ],
      'which configuration variable loads the private key from a .pem file',
    );
    expect(answer.text).toContain(
      '| variable | default | meaning |\n| --- | --- | --- |\n| `PRIVATE_KEY_PATH` |',
    );
    expect(answer.text).not.toContain('SETTING_3');
  });

  it('answers a yes/no question with the sentence that states its condition first', async () => {
    const answer = await ask(
      [
        {
          path: 'guides/custom-domain.mdx',
          content: page(
            'Custom domain',
            'A custom domain makes the docs yours. You can use a custom domain only on the Pro plan or above. ' +
              'Custom domain records are CNAME records.',
          ),
        },
      ],
      'Can I use a custom domain on the free plan?',
    );
    expect(answer.text.startsWith('You can use a custom domain only on the Pro plan or above.')).toBe(true);
  });
});

describe("the answer on docwright's own docs, through the route", () => {
  let dataDir: string;
  let service: Awaited<ReturnType<typeof createService>>;
  let assistantKey: string;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-answer-text-'));
    service = await createService(
      { ...loadConfig({}, { dataDir }), logLevel: 'silent' },
      { logger: silentLogger },
    );
    assistantKey = (await ensureDemo(service.store, dataDir, process.env))!.keys!.assistant;
  });
  afterAll(async () => {
    await service.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('answers "How do I install it?" with the quickstart\'s command, first', async () => {
    const response = await service.app.request('/discovery/v2/assistant/demo/message', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${assistantKey}` },
      body: JSON.stringify({
        fp: 'anonymous',
        messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'How do I install it?' }] }],
      }),
    });
    expect(response.status).toBe(200);
    const text = (await response.text())
      .split('\n\n')
      .filter((event) => event.startsWith('data: ') && event !== 'data: [DONE]')
      .map((event) => JSON.parse(event.slice(6)) as { type: string; delta?: string })
      .filter((part) => part.type === 'text-delta')
      .map((part) => part.delta)
      .join('');
    // The answer opens with the command, as code, under the heading of the section it is from.
    expect(text).toMatch(/^\*\*Start the server:\*\*\n```sh\n(.*\n)*npm ci && npm start\n```/);
  });
});
