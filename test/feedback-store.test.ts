import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/index.js';
import { DIALECTS, testDatabases } from './helpers/postgres.js';

const databases = testDatabases();
afterAll(() => databases.close());

const at = (day: number) => new Date(Date.UTC(2026, 0, day));
const record = {
  outcome: 'declined' as const,
  support: 0.384,
  about: 0.08,
  closest: [{ url: '/architecture', title: 'Architecture' }],
  unknownWords: ['confluence'],
};

/** Feedback and the exchanges the gaps report reads, the same on SQLite and on PostgreSQL. */
describe.each(DIALECTS)('feedback store on %s', (dialect) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await databases.create(dialect));
    await store.projects.create({ id: 'docs', repository: '/repo', baseRef: 'main', domain: 'docs' }, at(1));
    await store.assistantThreads.create(
      { id: 'thread_1', projectId: 'docs', domain: 'docs', fp: 'reader' },
      at(2),
      [{ role: 'user', content: 'Can I import from Confluence?', messageId: 'q1' }],
    );
    await store.assistantThreads.append(
      'thread_1',
      [{ role: 'assistant', content: 'I could not find it.', messageId: 'msg_1', record }],
      at(2),
    );
  });
  afterEach(() => store.close());

  it('finds an answer by its id, and tells a question from it', async () => {
    expect(await store.feedback.message('thread_1', 'msg_1')).toEqual({
      role: 'assistant',
      messageId: 'msg_1',
    });
    expect(await store.feedback.message('thread_1', 'q1')).toEqual({ role: 'user', messageId: 'q1' });
    expect(await store.feedback.message('thread_1', 'msg_2')).toBeUndefined();
  });

  it('keeps one rating per answer, the last one', async () => {
    const rating = { projectId: 'docs', threadId: 'thread_1', messageId: 'msg_1', fp: 'reader' };
    await store.feedback.rate({ ...rating, rating: 'down', comment: 'Nothing on Confluence' }, at(3));
    const again = await store.feedback.rate({ ...rating, rating: 'up', comment: null }, at(4));
    expect(again).toMatchObject({
      rating: 'up',
      comment: null,
      created_at: at(3).toISOString(),
      updated_at: at(4).toISOString(),
    });
  });

  it('pairs each recorded answer with its question, with its rating', async () => {
    await store.feedback.rate(
      {
        projectId: 'docs',
        threadId: 'thread_1',
        messageId: 'msg_1',
        fp: 'reader',
        rating: 'down',
        comment: 'No',
      },
      at(3),
    );
    expect(await store.feedback.exchanges('docs', at(1).toISOString())).toEqual([
      {
        threadId: 'thread_1',
        fp: 'reader',
        question: 'Can I import from Confluence?',
        messageId: 'msg_1',
        outcome: 'declined',
        support: 0.384,
        about: 0.08,
        closest: record.closest,
        unknownWords: ['confluence'],
        createdAt: at(2).toISOString(),
        rating: 'down',
        comment: 'No',
      },
    ]);
    expect(await store.feedback.exchanges('docs', at(3).toISOString())).toEqual([]);
  });

  it('prunes what is older than a date, threads with nothing newer whole', async () => {
    await store.feedback.rate(
      {
        projectId: 'docs',
        threadId: 'thread_1',
        messageId: 'msg_1',
        fp: 'reader',
        rating: 'down',
        comment: null,
      },
      at(3),
    );
    await store.assistantThreads.create(
      { id: 'thread_2', projectId: 'docs', domain: 'docs', fp: 'other' },
      at(10),
      [{ role: 'user', content: 'later' }],
    );
    expect(await store.feedback.prune(at(5))).toEqual({ threads: 1, messages: 2, feedback: 1 });
    expect(await store.assistantThreads.get('thread_1')).toBeUndefined();
    expect(await store.assistantThreads.get('thread_2')).toBeDefined();
  });

  it('removes a project with its feedback', async () => {
    await store.feedback.rate(
      {
        projectId: 'docs',
        threadId: 'thread_1',
        messageId: 'msg_1',
        fp: 'reader',
        rating: 'up',
        comment: null,
      },
      at(3),
    );
    expect(await store.projects.remove('docs')).toBe(true);
    expect(await store.feedback.exchanges('docs', at(1).toISOString())).toEqual([]);
    expect(await store.database.db.selectFrom('feedback').selectAll().execute()).toEqual([]);
  });
});
