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
import { answerForm, formBonus, quotedForm } from '../src/assistant/answer/answer-form.js';
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

  it('quotes the code a lead-in announces past a short note, inline code in the lead-in aside', async () => {
    const answer = await ask(
      [
        {
          path: 'integrations/tracker.mdx',
          content: page(
            'Tracker',
            'Add the following to your `site.json` file to send visits to Tracker.\n\n' +
              'You only need `host` if you run Tracker yourself.\n\n' +
              '```json\n{ "tracker": { "apiKey": "KEY" } }\n```\n',
          ),
        },
      ],
      'send visits to Tracker',
    );
    expect(answer.text).toContain('Add the following to your `site.json` file to send visits to Tracker.');
    expect(answer.text).toContain('"apiKey": "KEY"');
  });

  it('answers what is needed first from the requirements section, whatever its words', async () => {
    const answer = await ask(
      [
        {
          path: 'quickstart.mdx',
          content: page(
            'Quickstart',
            'Run Acme on your machine.\n\n## Requirements\n\n- Node.js 22 or 24\n- git\n\n' +
              '## Start the server\n\nStart the server before you start a job:\n\n```sh\nacme start\n```\n\n' +
              '## Start a job\n\nA job starts when you start it from the start page.',
          ),
        },
      ],
      'what do I need installed before I start?',
    );
    expect(answer.text).toMatch(/^\*\*Requirements:\*\*\n- Node\.js 22 or 24\n- git/);
  });

  it("opens with the page's overview when the page's title names the question", async () => {
    const answer = await ask(
      [
        {
          path: 'services/avatar.mdx',
          content: page(
            'Acme Video Avatar',
            "## Overview\n\n`AcmeVideoService` renders a talking head that speaks the bot's replies.\n\n" +
              '## Acme account setup\n\nBefore using Acme video avatar services, you need an Acme account and an Acme video avatar key.\n\n' +
              '## Acme notes\n\nAcme video avatar rooms hold the Acme video avatar, the bot and people.',
          ),
        },
      ],
      'video avatar with Acme',
    );
    expect(answer.sources[0]).toBe('/services/avatar');
    expect(answer.text).toMatch(/^`AcmeVideoService` renders a talking head/);
  });

  it('quotes a sentence that refers back after the sentence it refers to', async () => {
    const answer = await ask(
      [
        {
          path: 'guides/voicemail.mdx',
          content: page(
            'Voicemail',
            'The `MachineDetector` tells a person from a recording when a call is answered. ' +
              'This module is built for bots that place outbound calls to an answering machine.',
          ),
        },
      ],
      'detect an answering machine on outbound calls',
    );
    expect(answer.text).toMatch(
      /^The `MachineDetector` tells a person from a recording[^\n]* This module is built/,
    );
  });
});

describe('choosing what answers', () => {
  it('quotes the sentence naming the code name a question asks about, before an opening of its common words', async () => {
    const answer = await ask(
      [
        {
          path: 'api/static-export.mdx',
          content: page(
            'Static export',
            'The static export API exports a static site. A static export job of the API runs in the background, ' +
              'and the export API returns a static bundle.\n\n## Automate\n\n' +
              'Store your admin key as the `ACME_ADMIN_KEY` repository secret.',
          ),
        },
      ],
      'what is ACME_ADMIN_KEY used for in the static export API?',
    );
    expect(answer.sources[0]).toBe('/api/static-export');
    expect(answer.text).toMatch(
      /^(\*\*Automate:\*\* )?Store your admin key as the `ACME_ADMIN_KEY` repository secret\./,
    );
  });

  it('answers a task put as an order ("end the pipeline…") with its code, as "how do I" is', async () => {
    const answer = await ask(
      [
        {
          path: 'pipeline/idle.mdx',
          content: page(
            'Idle pipelines',
            'When no activity reaches the pipeline for a period, the pipeline is idle and the worker can end it, ' +
              'so that a call nobody hangs up does not run for hours and keep paying for its services.\n\n' +
              'The period and what happens when it passes are set on the worker, and an event handler may do more ' +
              'than end the pipeline: it can say goodbye first or record why the call ended.\n\n' +
              '```python\nworker = PipelineWorker(pipeline, idle_timeout_secs=300)\n```\n',
          ),
        },
      ],
      'end the pipeline after a period with no activity',
    );
    expect(answer.text).toContain('idle_timeout_secs=300');
  });

  it("brings the page's section that holds code for a task, when the sections its words rank hold none", async () => {
    const answer = await ask(
      [
        {
          path: 'pipeline/idle.mdx',
          content: page(
            'Idle pipelines',
            '## How it works\n\nWhen no activity reaches the pipeline for a period, the pipeline is idle and the ' +
              'worker can end the pipeline.\n\n## Why it matters\n\nA pipeline with no activity for a long ' +
              'period still pays for its services until something ends it.\n\n## When to use it\n\n' +
              'Every pipeline of a phone bot should end after a period of no activity.\n\n' +
              '## Configuration\n\nSet the timeout on the worker:\n\n' +
              '```python\nworker = PipelineWorker(pipeline, idle_timeout_secs=300)\n```\n',
          ),
        },
      ],
      'end the pipeline after a period with no activity',
    );
    expect(answer.sources[0]).toBe('/pipeline/idle');
    expect(answer.text).toContain('idle_timeout_secs=300');
  });

  it('quotes the rows of a long table that hold the question together, not each row holding one word of it', async () => {
    const rows = Array.from(
      { length: 12 },
      (_, position) => `| \`SETTING_${position}\` | unset | the app's setting number ${position} |`,
    );
    rows[7] = "| `PRIVATE_KEY_PATH` | unset | path of the `.pem` file with the app's private key |";
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
      'configuration of the app private key from a .pem file',
    );
    expect(answer.text).toContain('| `PRIVATE_KEY_PATH` |');
    expect(answer.text).not.toContain('SETTING_3');
  });

  it('brings the opening of a page whose title names the question, past many short sections that repeat its word', async () => {
    const messages = Array.from(
      { length: 45 },
      (_, position) => `## bot-event-${position}\n\nAcme protocol message ${position}.`,
    );
    const answer = await ask(
      [
        {
          path: 'client/acme-standard.mdx',
          content: page(
            'The Acme Standard',
            'The Acme (Advanced Call Messaging Exchange) standard defines the messages clients and servers send ' +
              'each other during a call, and how each side answers them.\n\n' +
              messages.join('\n\n'),
          ),
        },
      ],
      'what is the Acme protocol',
    );
    expect(answer.sources[0]).toBe('/client/acme-standard');
    expect(answer.text).toContain('Advanced Call Messaging Exchange');
  });
});

describe('the sentence a question of its form asks for', () => {
  it('reads "…, will it…?" after what it is about as a yes or no, and leads with the condition', async () => {
    const answer = await ask(
      [
        {
          path: 'github/commands.mdx',
          content: page(
            'Comments on a public repository',
            'A `/docs` comment on an issue of a public repository runs a docs job that makes the change it asks for. ' +
              'A `/docs` comment runs only for commenters with the configured permission on the public repository ' +
              '(`required_permission`). ' +
              'A `/docs` comment runs once, and its job replies on the public repository with a link to the pull request.',
          ),
        },
      ],
      'a stranger writes a /docs comment on my public repository, will it run?',
    );
    expect(answer.sources[0]).toBe('/github/commands');
    expect(answer.text).toMatch(/^A `\/docs` comment runs only for commenters/);
  });

  it('answers a reader reporting a fault with the sentence that says when it fails', async () => {
    const answer = await ask(
      [
        {
          path: 'audio/background-sound.mdx',
          content: page(
            'Background sound',
            'A background sound file is loaded once, at the start of the call, from the path you give. ' +
              'A background sound file may be a WAV, FLAC or OGG file of any length. ' +
              "If a background sound file's sample rate does not match the output's, the mixer skips the file " +
              'and logs a warning.',
          ),
        },
      ],
      'my background sound file never plays',
    );
    expect(answer.sources[0]).toBe('/audio/background-sound');
    expect(answer.text).toMatch(/^If a background sound file's sample rate does not match/);
  });

  it('reads "if I don\'t pick one" as a question about the default', () => {
    expect(quotedForm("which avatar does it show if I don't pick one")).toBe('default');
    expect(quotedForm('which region does it use if you never set one?')).toBe('default');
    // Retrieval reads these as before.
    expect(answerForm("which avatar does it show if I don't pick one")).toBe('any');
  });

  it('reads a trailing "will it…?" clause as yes or no, and a fault report as trouble, for quoting only', () => {
    expect(quotedForm('the disk filled up, will docwright lose jobs?')).toBe('yes-no');
    expect(answerForm('the disk filled up, will docwright lose jobs?')).toBe('any');
    expect(quotedForm('nginx rejects the webhook deliveries')).toBe('trouble');
    expect(quotedForm('getting 429 from the chat widget')).toBe('trouble');
    // A question with its own form keeps it: "how do I…" is answered by steps, "can I…" by yes or no.
    expect(quotedForm("how do I fix the widget when it doesn't load")).toBe('steps');
    expect(quotedForm("can I see a page that doesn't build?")).toBe('yes-no');
    expect(
      formBonus(
        {
          kind: 'sentence',
          block: 0,
          text: 'Make sure the proxy allows bodies of 25 MiB on the webhook path.',
        },
        'trouble',
        1,
      ),
    ).toBeGreaterThan(0);
    expect(
      formBonus({ kind: 'sentence', block: 0, text: 'Webhook deliveries carry a signature.' }, 'trouble', 1),
    ).toBe(0);
  });
});

describe('names, rare words and the answer in words', () => {
  it("quotes a reference field's description with the field's name, the name first", async () => {
    const answer = await ask(
      [
        {
          path: 'components/tabs.mdx',
          content: page(
            'Tabs',
            'Use tabs to organize content into panels.\n\n## Tabs properties\n\n' +
              '<ResponseField name="defaultTabIndex" type="number" default="0">\n' +
              '  The index of the tab shown when the page loads (zero-based). Set it to `1` to show the second tab.\n' +
              '</ResponseField>\n\n' +
              '<ResponseField name="sync" type="boolean">\n  When `true`, tabs with matching titles switch together.\n</ResponseField>',
          ),
        },
      ],
      'which tab is shown when the page loads',
    );
    expect(answer.sources[0]).toBe('/components/tabs');
    // Without its name the description does not say which property to set.
    expect(answer.text).toMatch(/^`defaultTabIndex`: The index of the tab shown when the page loads/);
  });

  it('quotes the table a sentence alone in its paragraph points at with "these"', async () => {
    const answer = await ask(
      [
        {
          path: 'editor/shortcuts.mdx',
          content: page(
            'Keyboard shortcuts',
            'Use keyboard shortcuts to work faster in the web editor.\n\n## Everywhere\n\n' +
              "These shortcuts work in the web editor whichever mode you're in.\n\n" +
              '| Command | macOS | Windows |\n| --- | --- | --- |\n| Search | Cmd + K | Ctrl + K |\n| Save | Cmd + S | Ctrl + S |',
          ),
        },
      ],
      'shortcuts for the web editor',
    );
    expect(answer.text).toContain("These shortcuts work in the web editor whichever mode you're in.");
    expect(answer.text).toContain('| Search | Cmd + K | Ctrl + K |');
  });

  it("brings a field's name with a later sentence of its description", async () => {
    const answer = await ask(
      [
        {
          path: 'reference/context-strategy.mdx',
          content: page(
            'Context strategy config',
            'Settings of how a flow keeps its context.\n\n' +
              '<ParamField path="summary_prompt" type="str">\n' +
              '  Prompt text for the summary. Required when the strategy resets with a summary.\n' +
              '</ParamField>',
          ),
        },
      ],
      'what is required when the strategy resets with a summary',
    );
    expect(answer.text).toContain('`summary_prompt`: Prompt text for the summary.');
    expect(answer.text).toContain('Required when the strategy resets with a summary.');
  });

  it('quotes the sentence holding the word few sentences share, over those holding the common ones', async () => {
    const common = Array.from(
      { length: 8 },
      (_, position) => `Preview ${position} can trigger a deployment when a branch is pushed.`,
    );
    const answer = await ask(
      [
        {
          path: 'guides/previews.mdx',
          content: page(
            'Branches',
            `${common.join(' ')}\n\nRenovate may trigger a deployment once it is listed in \`allowed_bots\`.`,
          ),
        },
      ],
      'let renovate trigger deployment previews',
    );
    // Each sentence holds as many of the question's words; the one holding its rare word answers.
    expect(answer.text).toMatch(/^Renovate may trigger a deployment once it is listed in `allowed_bots`\./);
  });

  it('answers "what does X do" in words first, and its example after', async () => {
    const answer = await ask(
      [
        {
          path: 'flows/strategies.mdx',
          content: page(
            'Context strategies',
            '## Example\n\n```python\n# RESET_WITH_SUMMARY in flows\nconfig = Config(strategy=RESET_WITH_SUMMARY)\n' +
              'flow = Flow(config=config)\nflow.run()\n```\n\n' +
              'RESET_WITH_SUMMARY clears the context and keeps a summary of it.',
          ),
        },
      ],
      'what does RESET_WITH_SUMMARY do in flows',
    );
    expect(answer.text).toMatch(/^RESET_WITH_SUMMARY clears the context and keeps a summary of it\./);
    expect(answer.text).toContain('```python');
  });
});

describe('everyday words the site never uses', () => {
  const sample = {
    path: 'sample-site.mdx',
    content: page(
      'Sample site',
      'The sample site ships with every install: a sample site with ten pages to try the editor on.',
    ),
  };
  const calls = {
    path: 'calls.mdx',
    content: page('Calls', 'Calls reach the bot at work hours through the phone number you set up.'),
  };

  // Pages that hold the question's other words, so that they weigh little beside one no page holds.
  const siteWide = ['Fonts of a site', 'Site search', 'Site images', 'Sample answers', 'Sample pages'].map(
    (title, position) => ({
      path: `site/page-${position}.mdx`,
      content: page(title, `${title}: a sample of the site settings.`),
    }),
  );

  it('answers a question with an everyday word no page holds, from the page its other words name', async () => {
    const answer = await ask([sample, calls, ...siteWide], 'is there a sample site I can play with');
    expect(answer.sources[0]).toBe('/sample-site');
    expect(answer.text).toContain('a sample site with ten pages');
  });

  it('still declines when the word no page holds names the subject, a word of everyday life', async () => {
    const answer = await ask([sample, calls, ...siteWide], 'what should I say when I call in sick to work');
    expect(answer.sources).toEqual([]);
  });

  it('still declines when the words left are everyday words too', async () => {
    const answer = await ask([sample, calls, ...siteWide], 'can I call and play at work');
    expect(answer.sources).toEqual([]);
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
