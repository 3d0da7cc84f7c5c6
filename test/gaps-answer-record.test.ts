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
