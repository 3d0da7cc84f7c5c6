import { describe, expect, it } from 'vitest';
import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import { ANSWER_RELEVANCE_THRESHOLD, ExtractiveAnswerer } from '../src/assistant/answer/extractive.js';
import { answerForm, formBonus, quotedForm } from '../src/assistant/answer/answer-form.js';
import { ModelAnswerer } from '../src/assistant/answer/model.js';
import { retrieve } from '../src/assistant/retrieve.js';
import { DocsIndex } from '../src/docs/docs-index.js';
import type { SearchHit } from '../src/docs/index.js';
import type { ConversationTurn } from '../src/protocol/assistant.js';

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

const files = [
  {
    path: 'migration/v2.mdx',
    content: page(
      'Migrating to v2',
      '## Pipeline setup\n\n```python\n# before\npipeline = Pipeline([stt, llm, tts])\n# after\npipeline = Pipeline(processors=[stt, llm, tts])\n```\n',
    ),
  },
  {
    path: 'guides/custom-domain.mdx',
    content: page(
      'Custom domain',
      '## Add the domain\n\nOpen the domain settings and add your domain. Create a CNAME record at your DNS provider.\n\n' +
        '## Propagation\n\nDNS changes usually take 1 to 24 hours to propagate, and up to 48 hours in rare cases.',
    ),
  },
  {
    path: 'guides/dns.mdx',
    content: page('DNS records', 'A CNAME record points your domain at the docs host.'),
  },
  {
    path: 'guides/tls.mdx',
    content: page('TLS certificates', 'Certificates for your custom domain renew themselves.'),
  },
  { path: 'guides/redirects.mdx', content: page('Redirects', 'Redirect an old domain path to a new page.') },
  {
    path: 'guides/subpath.mdx',
    content: page('Subpath hosting', 'Serve the docs under /docs of your domain.'),
  },
  { path: 'guides/analytics.mdx', content: page('Analytics', 'Track visits to your domain with analytics.') },
  {
    path: 'guides/muting.mdx',
    content: page(
      'User input muting',
      'Audio from the user is passed through by default. Mute the user during the greeting with a mute strategy, so the bot is not interrupted.',
    ),
  },
  {
    path: 'deploy/builds.mdx',
    content: page(
      'Deployments',
      'Every push deploys the docs. A build takes about two minutes before it goes live.',
    ),
  },
];

const index = DocsIndex.build(files);
const answerer = new ExtractiveAnswerer();

async function ask(conversation: ConversationTurn[], retrievalPageSize = 5) {
  const retrieval = retrieve(index, { conversation, retrievalPageSize });
  const { passages } = retrieval;
  const answer = answerer.answer({ conversation, ...retrieval, signal: new AbortController().signal });
  let text = '';
  for await (const delta of answer.text) text += delta;
  return { text, sources: answer.sources, passages };
}

const user = (text: string): ConversationTurn => ({ role: 'user', text });

const hit = (urlPath: string, relevance: number, body: string, about = relevance): SearchHit => ({
  urlPath,
  anchor: '',
  url: urlPath,
  pageTitle: urlPath.slice(1),
  heading: '',
  headings: [],
  snippet: body,
  body,
  language: 'en',
  groups: [],
  score: relevance,
  lexicalScore: relevance,
  relevance,
  about,
});

/** A hit whose full-text score (with and without boosts) is `score`. */
const scored = (passage: SearchHit, score: number): SearchHit => ({ ...passage, score, lexicalScore: score });

/** The answer to a first question, from `passages`. */
const firstAnswer = (question: string, passages: SearchHit[], holdsPhrase = true) =>
  answerer.answer({
    conversation: [user(question)],
    query: question,
    passages,
    holdsPhrase: () => holdsPhrase,
    followUp: false,
    signal: new AbortController().signal,
  });

/** The pages a first question cites, answered from `passages`. */
const citedFor = (question: string, passages: SearchHit[], holdsPhrase: boolean) =>
  firstAnswer(question, passages, holdsPhrase).sources.map((source) => source.url);

/** The text of the answer to a first question, from `passages`. */
async function quotedFor(question: string, passages: SearchHit[]): Promise<string> {
  let text = '';
  for await (const delta of firstAnswer(question, passages).text) text += delta;
  return text;
}

describe('extractive answers', () => {
  it('quotes the code of a section that is only code, and cites it', async () => {
    const answer = await ask([user('how do I migrate my pipeline setup to v2')]);
    expect(answer.sources[0]?.url).toBe('/migration/v2#pipeline-setup');
    expect(answer.text).toContain('Pipeline(processors=[stt, llm, tts])');
  });

  it('cites distinct pages, up to retrievalPageSize, in rank order; two sections of a page take one slot', async () => {
    const answer = await ask([user('custom domain DNS record')], 5);
    const pages = answer.sources.map((source) => source.url.replace(/#.*$/, ''));
    expect(new Set(pages).size).toBe(pages.length);
    expect(pages).toContain('/guides/custom-domain');
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.length).toBeLessThanOrEqual(5);
    expect(
      answer.passages.filter((passage) => passage.urlPath === '/guides/custom-domain').length,
    ).toBeLessThanOrEqual(2);
    const fewer = await ask([user('custom domain DNS record')], 2);
    expect(fewer.sources).toHaveLength(2);
  });

  it('keeps a found page that holds only part of the question, in rank order, but not one matched on a single common word', () => {
    // The page that answers often says "secrets" where the reader wrote "keys": it holds a small
    // share of the question's words, yet it is the one search found for it.
    const passages = [
      hit('/agent-config', 1, 'Set your agent keys in the agent configuration file.'),
      hit('/overview', 0.6, 'An overview of agents.'),
      hit('/secrets', 0.2, 'Store secrets with the secrets command; your agent reads them at start.'),
      hit('/changelog', 0.1, 'Changes of each release of the agent.'),
    ];
    const conversation = [user('where do I put the keys for my agent')];
    const answer = answerer.answer({
      conversation,
      query: conversation[0]!.text,
      passages,
      holdsPhrase: () => true,
      followUp: false,
      signal: new AbortController().signal,
    });
    expect(answer.sources.map((source) => source.url)).toEqual(['/agent-config', '/overview', '/secrets']);
  });

  it('declines when the words are only in a page body, not in what the page says it is about', () => {
    // A long reference page holds "record", "podcast" and "mac" in three unrelated places; a
    // page about recording names recording in its title and headings.
    const ask = (about: number) =>
      answerer.answer({
        conversation: [user('how do I record a podcast on my mac')],
        query: 'how do I record a podcast on my mac',
        passages: [hit('/reference', 0.6, 'Record the podcast on a Mac with the CLI.', about)],
        holdsPhrase: () => true,
        followUp: false,
        signal: new AbortController().signal,
      }).sources;
    expect(ask(0)).toEqual([]);
    expect(ask(0.5).map((source) => source.url)).toEqual(['/reference']);
  });

  it('declines a question a page holds part of in its body when the page is about something else', () => {
    // A test-scenarios page quotes "What is the capital of Spain?" as an example prompt; the
    // question asks about France, a word no retrieved page holds.
    const ask = (relevance: number, about: number) =>
      answerer.answer({
        conversation: [user('What is the capital of France?')],
        query: 'What is the capital of France?',
        passages: [hit('/scenarios', relevance, 'Ask the bot: What is the capital of Spain?', about)],
        holdsPhrase: () => true,
        followUp: false,
        signal: new AbortController().signal,
      }).sources;
    expect(ask(0.9, 0)).toEqual([]);
    expect(ask(0.9, 0.2)).toHaveLength(1);
    // A page holding every word of the question covers it, in whatever section: a decline would
    // tell the reader the docs do not say what this page says.
    expect(ask(1, 0)).toHaveLength(1);
    // One word leaves nothing else to judge by: the page holding it answers.
    const oneWord = answerer.answer({
      conversation: [user('How do I install it?')],
      query: 'How do I install it?',
      passages: [hit('/github-app', 1, 'Install the app on your repositories.', 0)],
      holdsPhrase: () => true,
      followUp: false,
      signal: new AbortController().signal,
    });
    expect(oneWord.sources).toHaveLength(1);
  });

  it('answers a doubtful question only when a retrieved page holds two of its neighbouring words side by side', () => {
    // Every word of "reverse a linked list in Java" is on some docs page, each on its own; a
    // reader's question uses the docs' own phrases ("custom domain").
    const ask = (relevance: number, holds: boolean, by = answerer) => {
      let asked = 0;
      const answer = by.answer({
        conversation: [user('how do I reverse a linked list in Java')],
        query: 'how do I reverse a linked list in Java',
        passages: [hit('/deploy/reverse-proxy', relevance, 'Put a reverse proxy in front of the docs.')],
        holdsPhrase: () => {
          asked += 1;
          return holds;
        },
        followUp: false,
        signal: new AbortController().signal,
      });
      return { cited: answer.sources.length, asked };
    };
    // The passage's confidence is its relevance here (its `about` share is the same).
    const bar = ANSWER_RELEVANCE_THRESHOLD;
    expect(ask(bar + 0.005, false)).toEqual({ cited: 0, asked: 1 });
    expect(ask(bar + 0.005, true)).toEqual({ cited: 1, asked: 1 });
    expect(ask(0.595, false)).toEqual({ cited: 0, asked: 1 });
    // A confident answer needs no phrase, and the index is not asked for one.
    expect(ask(0.605, false)).toEqual({ cited: 1, asked: 0 });
    // Below the lower bar a phrase does not save it.
    expect(ask(bar - 0.005, true).cited).toBe(0);
    // The bar is the answerer's own when it is given one (the benchmark sweeps it).
    expect(ask(bar + 0.005, true, new ExtractiveAnswerer(bar + 0.01)).cited).toBe(0);
    expect(ask(bar - 0.005, true, new ExtractiveAnswerer(bar - 0.01)).cited).toBe(1);
  });

  it('answers a doubtful question without a phrase when its words single out one page', () => {
    // "hovers over a word" is not the tooltips page's wording, but no other page comes close.
    const ask = (question: string, scores: [number, number]) =>
      citedFor(
        question,
        [
          scored(
            hit('/components/tooltips', 0.5, 'Show a definition when readers hover over text.'),
            scores[0],
          ),
          scored(hit('/components/badge', 0.2, 'A badge marks a word.'), scores[1]),
        ],
        false,
      );
    const question = 'show a definition when someone hovers over a word';
    expect(ask(question, [10, 4])).toEqual(['/components/tooltips', '/components/badge']);
    // Pages close together: the question's words are spread over the docs, so it declines.
    expect(ask(question, [10, 6])).toEqual([]);
    // Two words are too few to single out a page by: a page quoting both stands out.
    expect(ask('capital France', [10, 4])).toEqual([]);
  });

  it('answers a long doubtful question without a phrase, a shorter one only with one', () => {
    const ask = (question: string) =>
      citedFor(
        question,
        [
          hit('/editor', 0.45, 'Two people editing one page see each other; the last save wins.'),
          hit('/editor/settings', 0.4, 'Editor settings.'),
        ],
        false,
      ).length;
    // Eight searchable words: an off-topic question this long holds little of any page.
    expect(
      ask('two of us edit the same page in the browser editor together, will we overwrite changes?'),
    ).toBe(2);
    expect(ask('will two editors overwrite the same page?')).toBe(0);
  });

  it('answers below the bar a long question that singles out one page far ahead and holds a phrase', () => {
    const question = "talking head avatar from Simli that lip-syncs to the bot's voice";
    const ask = (scores: [number, number], holds: boolean) =>
      citedFor(
        question,
        [
          scored(hit('/video/simli', 0.3, 'Simli renders an avatar synced to the bot audio.'), scores[0]),
          scored(hit('/video/tavus', 0.17, 'Tavus renders a video replica.'), scores[1]),
        ],
        holds,
      );
    expect(ask([108, 30], true)).toEqual(['/video/simli', '/video/tavus']);
    // Twice the next page is not far enough below the bar; nor is standing out without a phrase.
    expect(ask([108, 50], true)).toEqual([]);
    expect(ask([108, 30], false)).toEqual([]);
  });

  it('quotes the short sentence that follows a chosen one in its paragraph', async () => {
    const answerText = (body: string) =>
      quotedFor('how do I rotate the SCIM token', [hit('/dashboard/scim', 0.9, body)]);
    const warning = 'Provisioning stops working until you update your identity provider.';
    expect(await answerText(`Rotate the SCIM token in the dashboard. ${warning}`)).toContain(warning);
    // Not from the next paragraph, and not a long sentence.
    expect(await answerText(`Rotate the SCIM token in the dashboard.\n\n${warning}`)).not.toContain(warning);
    const long = `Provisioning stops working until ${'you update the provider, '.repeat(10)}then it resumes.`;
    expect(await answerText(`Rotate the SCIM token in the dashboard. ${long}`)).not.toContain(long);
  });

  it('quotes a list item wrapped over several lines whole, the words of its last line included', async () => {
    // Docs wrapped at 80 columns carry a list item over several lines; the answer is on its last.
    const body =
      'The mixin wraps the service:\n\n' +
      '1. **Lookup**: before requesting audio, the mixin looks up the\n' +
      '   cache and replays a hit.\n' +
      '2. **Interruption handling**: when an interruption arrives, the mixin\n' +
      '   clears pending cache writes so no partial audio is\n' +
      'committed.\n' +
      '3. **Storage**: audio is kept in memory or in Redis.';
    const text = await quotedFor('is partial audio committed to the cache after an interruption?', [
      hit('/tts-cache', 0.9, body),
    ]);
    expect(text).toContain(
      '2. **Interruption handling**: when an interruption arrives, the mixin clears pending cache writes so no partial audio is committed.',
    );
    // The next item starts a unit of its own.
    expect(text).not.toContain('committed. 3.');
  });

  it('judges a question of its own in a thread as a first question, a follow-up by its thread', () => {
    // "how long should I proof sourdough" after a docs answer shares "long" with the docs: asked
    // alone it is declined, and the thread before it must not lower the bar.
    const conversation = [
      user('How do I add a custom domain?'),
      { role: 'assistant' as const, text: 'Add the domain in the domain settings. [1]' },
      user('how long should I proof sourdough'),
    ];
    const ask = (followUp: boolean) =>
      answerer.answer({
        conversation,
        query: 'how long should I proof sourdough',
        passages: [hit('/guides/custom-domain', 0.35, 'DNS changes take a long time to reach resolvers.', 0)],
        holdsPhrase: () => false,
        followUp,
        signal: new AbortController().signal,
      }).sources;
    expect(ask(false)).toEqual([]);
    // A follow-up ("how long does it take?") leans on the answer before it: its few words are
    // judged by the page's share of them alone.
    expect(ask(true).map((source) => source.url)).toEqual(['/guides/custom-domain']);
  });

  it('declines a question that shares only common words with the docs', async () => {
    const answer = await ask([user('how long should I proof sourdough before baking')]);
    expect(answer.sources).toEqual([]);
    expect(answer.text).toMatch(/couldn't find an answer/);
  });

  it('answers a follow-up with what it asks, not the passages already shown', async () => {
    const first = await ask([user('How do I add a custom domain?')]);
    expect(first.text).toMatch(/add your domain/);
    const second = await ask([
      user('How do I add a custom domain?'),
      { role: 'assistant', text: first.text },
      user('how long does it take?'),
    ]);
    expect(second.sources[0]?.url.startsWith('/guides/custom-domain')).toBe(true);
    expect(second.text).toMatch(/24 hours/);
    expect(second.text).not.toMatch(/Open the domain settings and add your domain/);
  });

  it("chooses the sentence that means the answer even without the question's exact words", async () => {
    // "ignore" is not on the page; the docs say "mute".
    const answer = await ask([user('make the bot ignore the user during the greeting')]);
    expect(answer.sources[0]?.url).toBe('/guides/muting');
    expect(answer.text).toMatch(/Mute the user during the greeting/);
  });

  it('gives a model the same pages: one number per page, whatever number of its sections', async () => {
    const prompts: LanguageModelV3Prompt[] = [];
    const model = new MockLanguageModelV3({
      doStream: (options) => {
        prompts.push(options.prompt);
        return Promise.resolve({
          stream: simulateReadableStream({
            chunks: [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: 'About a day [1].' },
              { type: 'text-end', id: 't' },
              {
                type: 'finish',
                finishReason: { unified: 'stop', raw: 'stop' },
                usage: { inputTokens: { total: 10 }, outputTokens: { total: 5 } },
              },
            ] as never,
          }),
        });
      },
    });
    const conversation = [user('custom domain DNS propagation hours')];
    const retrieval = retrieve(index, { conversation, retrievalPageSize: 3 });
    const { passages } = retrieval;
    expect(passages.filter((passage) => passage.urlPath === '/guides/custom-domain')).toHaveLength(2);
    const answer = new ModelAnswerer(model, 'mock').answer({
      conversation,
      ...retrieval,
      signal: new AbortController().signal,
    });
    let text = '';
    for await (const delta of answer.text) text += delta;
    expect(text).toBe('About a day [1].');
    const pages = answer.sources.map((source) => source.url.replace(/#.*$/, ''));
    expect(new Set(pages).size).toBe(pages.length);
    expect(pages.length).toBeLessThanOrEqual(3);
    const system = JSON.stringify(prompts[0]);
    const domainNumber = pages.indexOf('/guides/custom-domain') + 1;
    expect(system.match(new RegExp(`\\[${domainNumber}\\] Custom domain`, 'g'))).toHaveLength(2);
  });
  it('quotes first, and whatever the first page spent, a later page whose sentence holds more of the question', async () => {
    const flags = Array.from(
      { length: 12 },
      (_, row) => `| \`--flag-${row}\` | option ${row} of a job run |`,
    );
    const table = `| flag | meaning |\n| --- | --- |\n${flags.join('\n')}`;
    const text = await quotedFor('how many files can one job change', [
      hit('/cli', 0.6, `The job command creates a job.\n\n${table}`),
      hit('/limits', 0.5, 'Every run is bounded. One job can change at most 200 files, 1 MiB per file.'),
    ]);
    // The sources keep the search's order; the quote says which page it is from.
    expect(text).toMatch(/^One job can change at most 200 files, 1 MiB per file\. \[2\]/);
  });

  /** Pages of six long sentences each holding the question's words: each spends much of the budget. */
  const spendingPages = (count: number) =>
    Array.from({ length: count }, (_, page) =>
      hit(
        `/page-${page}`,
        0.9 - page / 10,
        [0, 1, 2, 3, 4, 5]
          .map(
            (n) =>
              `Runner files of kind ${page}-${n} are kept for a day on the runner disk, and the runner removes the files it keeps once the day is over, whatever the job that wrote them did with them.`,
          )
          .join('\n\n'),
      ),
    );

  it('quotes about 1,400 characters of prose when the pages hold far more that answers', async () => {
    const text = await quotedFor('how long are runner files kept', spendingPages(4));
    const prose = text.replace(/\*\*[^*]+:\*\* /g, '').replace(/ \[\d\]/g, '');
    expect(prose.length).toBeGreaterThan(1400);
    expect(prose.length).toBeLessThanOrEqual(1400 + 240);
  });

  it('quotes from the first four cited pages, the fourth holding less of the question than the others', async () => {
    const text = await quotedFor('how long are runner files kept', [
      hit('/jobs', 0.9, 'Runner files are kept for a day.'),
      hit('/logs', 0.8, 'Runner logs are kept for a week.'),
      hit('/cache', 0.7, 'Cached runner files expire after a week.'),
      hit('/disk', 0.6, 'Runner disks are wiped every night.'),
      hit('/billing', 0.5, 'Invoices are sent at the start of each month.'),
    ]);
    expect(text).toContain('Runner disks are wiped every night. [4]');
    expect(text).toMatch(/See also:\n- billing \[5\]$/);
  });

  it('quotes a fifth page whose sentence holds the question as well as a quoted page, and lists a sixth', async () => {
    const text = await quotedFor('can a job change workflow files', [
      hit('/jobs', 0.9, 'Every job works on its own branch.'),
      hit('/action', 0.8, 'The action runs a job from a workflow.'),
      hit('/runner', 0.7, 'Runner files are kept for a day.'),
      hit('/cache', 0.65, 'Cached files expire after a week.'),
      hit('/security', 0.6, 'Workflow files are never changed by a job.'),
      hit('/billing', 0.5, 'Invoices are sent at the start of each month.'),
    ]);
    expect(text).toContain('Workflow files are never changed by a job. [5]');
    expect(text).toMatch(/See also:\n- billing \[6\]$/);
  });

  it('quotes by one sentence each later page holding some of the question once the budget is spent, and lists one holding none', async () => {
    const text = await quotedFor('how long are runner files kept', [
      ...spendingPages(3),
      hit(
        '/retention',
        0.55,
        'Set `RUNNER_DAYS` to delete them sooner.\n\nRetention of runner logs is longer.',
      ),
      hit('/cleanup', 0.5, 'Old runner files go with the nightly cleanup.'),
      hit('/billing', 0.45, 'Invoices are sent at the start of each month.'),
    ]);
    expect(text).toContain('Retention of runner logs is longer. [4]');
    expect(text).toContain('Old runner files go with the nightly cleanup. [5]');
    expect(text).toMatch(/See also:\n- billing \[6\]$/);
  });

  it('quotes, from a list item too long for the room a later page has, its sentence that answers', async () => {
    // Pages that spend the budget on sentences holding a word of the question each.
    const spending = (topic: string) =>
      Array.from(
        { length: 3 },
        (_, n) =>
          `A job of the ${topic} kind ${n} changes files through a long series of stages, each described here, ` +
          'so that this one sentence alone takes up a good part of what an answer may quote from a page.',
      ).join(' ');
    const filler = Array.from(
      { length: 9 },
      (_, n) => `Policy note ${n} explains one more detail at length.`,
    );
    const text = await quotedFor('can a job change workflow files', [
      hit('/jobs', 0.9, spending('branch')),
      hit('/action', 0.8, spending('action')),
      hit('/runner', 0.7, spending('runner')),
      hit(
        '/security',
        0.6,
        `- Nothing the write policy refuses: nothing outside the docs root, no dot-folder. ${filler.join(' ')} ` +
          'In particular, workflow files are never changed by a job.\n- Text a person cannot see is removed.',
      ),
    ]);
    expect(text).toContain('In particular, workflow files are never changed by a job. [4]');
    expect(text).not.toContain('Policy note 3');
  });
});

describe('the form of an answer', () => {
  it('prefers, for a "what does X do" question, a list item naming a term and saying what it is', () => {
    const form = answerForm('what does RESET_WITH_SUMMARY do in flows');
    expect(form).toBe('definition');
    const entry = {
      kind: 'item' as const,
      block: 0,
      text: '**RESET_WITH_SUMMARY**: The context is cleared but keeps a summary.',
    };
    const use = {
      kind: 'item' as const,
      block: 0,
      text: 'Use **RESET_WITH_SUMMARY** for long conversations.',
    };
    expect(formBonus(entry, form, 1)).toBeGreaterThan(0);
    expect(
      formBonus({ ...entry, text: '`idle_timeout` \u2014 seconds before the pipeline ends.' }, form, 1),
    ).toBeGreaterThan(0);
    expect(formBonus(use, form, 1)).toBe(0);
    // A unit holding none of the question's words gains nothing for its form.
    expect(formBonus(entry, form, 0)).toBe(0);
  });

  it('prefers, for a question about what holds when nothing is set, the sentence stating the default', () => {
    const form = quotedForm('what theme do code blocks use out of the box');
    expect(form).toBe('default');
    expect(
      formBonus(
        { kind: 'sentence', block: 0, text: 'Code blocks use the `system` theme by default.' },
        form,
        1,
      ),
    ).toBeGreaterThan(0);
    expect(
      formBonus({ kind: 'sentence', block: 0, text: 'Code blocks can use any Shiki theme.' }, form, 1),
    ).toBe(0);
  });

  it('prefers, for a question asking where something is, the sentence that says where', () => {
    const form = quotedForm('where do I find the project ID?');
    expect(form).toBe('place');
    // Retrieval reads the question as of no particular form, as before.
    expect(answerForm('where do I find the project ID?')).toBe('any');
    for (const text of [
      'Open **Settings** > **General** and copy the **Project ID**.',
      'Navigate to the project page to copy the project ID.',
      'The project ID is in `.config/project.json`.',
    ])
      expect(formBonus({ kind: 'sentence', block: 0, text }, form, 1)).toBeGreaterThan(0);
    expect(formBonus({ kind: 'sentence', block: 0, text: 'A project ID names one project.' }, form, 1)).toBe(
      0,
    );
  });

  it('prefers, for a question asking for a value, a sentence or item that states a number', () => {
    const form = answerForm('which port does the server listen on by default?');
    expect(form).toBe('value');
    expect(
      formBonus({ kind: 'sentence', block: 0, text: 'The server listens on port 3000.' }, form, 1),
    ).toBeGreaterThan(0);
    expect(
      formBonus({ kind: 'sentence', block: 0, text: 'The server listens on the port you set.' }, form, 1),
    ).toBe(0);
  });
});
