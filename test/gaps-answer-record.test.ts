import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelAnswerer } from '../src/assistant/answer/model.js';
import { groupQuestions } from '../src/assistant/gaps/question-groups.js';
import { gapsReport, type RatedExchange } from '../src/assistant/gaps/gaps-report.js';
import { ask } from './helpers/reader-feedback.js';
import { startTestService, type TestService } from './helpers/service.js';

/** A model that streams `text` as its whole answer. */
function saying(text: string): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doStream: () =>
      Promise.resolve({
        stream: simulateReadableStream({
          chunks: [
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: text },
            { type: 'text-end', id: 't' },
            {
              type: 'finish',
              finishReason: { unified: 'stop', raw: 'stop' },
              usage: { inputTokens: { total: 10 }, outputTokens: { total: 5 } },
            },
          ] as never,
        }),
      }),
  });
}

describe('what the assistant records of each answer', () => {
  let t: TestService | undefined;
  afterEach(() => t?.cleanup());

  const recorded = async (service: TestService) =>
    (await service.service.store.feedback.exchanges('docs', '2000-01-01T00:00:00.000Z')).at(-1);

  it('an extractive answer: answered with its support and closest pages, or declined', async () => {
    t = await startTestService({ startWorker: false });
    const answered = await ask(t, 'docs', t.assistantKey, 'How do I add a custom domain?', 'reader');
    expect(await recorded(t)).toMatchObject({
      messageId: answered.messageId,
      question: 'How do I add a custom domain?',
      outcome: 'answered',
      fp: 'reader',
      closest: expect.arrayContaining([expect.objectContaining({ url: '/guides/custom-domains' })]),
    });
    expect((await recorded(t))!.support).toBeGreaterThan(0.5);
    await ask(t, 'docs', t.assistantKey, 'What is the capital of France?');
    expect(await recorded(t)).toMatchObject({
      outcome: 'declined',
      unknownWords: expect.arrayContaining(['france']),
    });
  });

  it('a model answer that says the docs do not cover the question is a decline', async () => {
    let model = saying('The documentation does not cover importing pages from another wiki.');
    t = await startTestService({
      startWorker: false,
      overrides: { answererFor: () => new ModelAnswerer(model, 'openai:mock') },
    });
    await ask(t, 'docs', t.assistantKey, 'How do I add a custom domain from another wiki?');
    expect((await recorded(t))!.outcome).toBe('declined');
    model = saying('Run `acme domains add` with your domain [1].');
    await ask(t, 'docs', t.assistantKey, 'How do I add a custom domain?');
    expect((await recorded(t))!.outcome).toBe('answered');
  });
});

describe('grouping questions', () => {
  const exchange = (question: string, index: number, extra: Partial<RatedExchange> = {}): RatedExchange => ({
    threadId: `thread_${index}`,
    fp: `reader-${index}`,
    question,
    messageId: `msg_${index}`,
    outcome: 'declined',
    support: 0.3,
    about: 0.1,
    closest: [{ url: '/concepts', title: 'Concepts' }],
    unknownWords: [],
    createdAt: new Date(Date.UTC(2026, 0, 1 + index)).toISOString(),
    rating: null,
    comment: null,
    ...extra,
  });

  it('joins wordings that share their words, their page, or a word the docs never use', () => {
    const groups = groupQuestions([
      { text: 'How do I translate the docs?', pages: ['/a'], unknownWords: [] },
      { text: 'Can the docs be translated into French?', pages: ['/b'], unknownWords: ['french'] },
      { text: 'translation of pages', pages: ['/a'], unknownWords: [] },
      { text: 'Is Bitbucket supported?', pages: ['/c'], unknownWords: ['bitbucket'] },
      { text: 'Pull requests on Bitbucket Server', pages: ['/d'], unknownWords: ['bitbucket'] },
      { text: 'How do I rotate an API key?', pages: ['/keys'], unknownWords: [] },
    ]);
    expect(groups).toEqual([[0, 1, 2], [3, 4], [5]]);
  });

  it('keeps apart questions that each name a different thing the docs never use', () => {
    const questions = [
      { text: 'Is there a Salesforce integration?', pages: ['/integrations'], unknownWords: ['salesforce'] },
      { text: 'Is there a Zendesk integration?', pages: ['/integrations'], unknownWords: ['zendesk'] },
      { text: 'salesforce crm', pages: ['/crm'], unknownWords: ['salesforce'] },
      { text: 'zendesk tickets', pages: ['/tickets'], unknownWords: ['zendesk'] },
    ];
    expect(groupQuestions(questions)).toEqual([
      [0, 2],
      [1, 3],
    ]);
    // Nor through a question about neither, which shares words and the page with both.
    const bridged = groupQuestions([
      ...questions,
      { text: 'Which integrations are there?', pages: ['/integrations'], unknownWords: [] },
    ]);
    expect(bridged).toHaveLength(2);
    const groupOf = (index: number) => bridged.findIndex((group) => group.includes(index));
    expect(groupOf(0)).toBe(groupOf(2));
    expect(groupOf(1)).toBe(groupOf(3));
    expect(groupOf(0)).not.toBe(groupOf(1));
    // In whatever order they come.
    const reversed = groupQuestions([...questions].reverse());
    expect(reversed.map((group) => group.map((index) => 3 - index).sort())).toEqual([
      [1, 3],
      [0, 2],
    ]);
  });

  it('puts a declined question made mostly of words the docs never use apart, whatever page came close', () => {
    const report = gapsReport(
      [
        // A large site holds "capital" in a heading on capitalization: a page came close.
        exchange('What is the capital of France?', 1, {
          about: 0.41,
          support: 0.41,
          unknownWords: ['france'],
        }),
        exchange('What is the capital of France?', 2, {
          about: 0.41,
          support: 0.41,
          unknownWords: ['france'],
        }),
        // One wording alone is as much unknown; the others put the thing in the docs' words.
        exchange('Is there a SharePoint integration?', 3, { unknownWords: ['sharepoint'] }),
        exchange('Can I import documents from SharePoint?', 4, { unknownWords: ['sharepoint'] }),
        exchange('How do I sync pages from a SharePoint site?', 5, { unknownWords: ['sharepoint'] }),
        // Rated down, a reader says it is about the docs.
        exchange('How tall is Mount Everest?', 6, { unknownWords: ['tall', 'everest'], rating: 'down' }),
      ],
      { project: 'docs', since: '30d' },
    );
    expect(report.offTopic.map((group) => [group.title, group.count])).toEqual([
      ['What is the capital of France?', 2],
    ]);
    expect(report.gaps.map((gap) => gap.count)).toEqual([3, 1]);
    expect(report.gaps[1]!.title).toBe('How tall is Mount Everest?');
  });

  it('gives the same ids and order whatever order the questions come in', () => {
    const exchanges = [
      ...['Is Bitbucket supported?', 'Bitbucket pull requests', 'Bitbucket Server'].map((question, index) =>
        exchange(question, index, { unknownWords: ['bitbucket'] }),
      ),
      ...['How do I translate the docs?', 'translating the docs'].map((question, index) =>
        exchange(question, 10 + index),
      ),
    ];
    const report = gapsReport(exchanges, { project: 'docs', since: '30d' });
    const shuffled = gapsReport([...exchanges].reverse(), { project: 'docs', since: '30d' });
    expect(report.gaps.map((gap) => [gap.id, gap.count])).toEqual(
      shuffled.gaps.map((gap) => [gap.id, gap.count]),
    );
    expect(report.gaps.map((gap) => gap.count)).toEqual([3, 2]);
    expect(report.gaps[0]!.id).toMatch(/^gap_[0-9a-f]{12}$/);
  });

  it('counts an anonymous reader once per thread, and a named one once', () => {
    const report = gapsReport(
      [
        exchange('Is Bitbucket supported?', 1, { fp: 'anonymous', unknownWords: ['bitbucket'] }),
        exchange('Is Bitbucket supported?', 2, { fp: 'anonymous', unknownWords: ['bitbucket'] }),
        exchange('Bitbucket Server?', 3, { fp: 'same', unknownWords: ['bitbucket'] }),
        exchange('Bitbucket Cloud?', 4, { fp: 'same', unknownWords: ['bitbucket'] }),
      ],
      { project: 'docs', since: '30d' },
    );
    expect(report.gaps[0]).toMatchObject({ count: 4, readers: 3 });
  });
});
