import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { silentLogger } from '../src/core/logger.js';
import { createService } from '../src/service/service.js';
import { startThreadRetention } from '../src/service/thread-retention.js';
import { ask, rate } from './helpers/reader-feedback.js';
import { startTestService, type TestService } from './helpers/service.js';

const DAY = 24 * 3600 * 1000;

describe('DOCWRIGHT_THREAD_DAYS and project removal', () => {
  let t: TestService;
  beforeEach(async () => {
    t = await startTestService({ startWorker: false });
  });
  afterEach(() => t.cleanup());

  const count = async (table: 'assistant_threads' | 'assistant_messages' | 'feedback') =>
    Number(
      (
        await t.service.store.database.db
          .selectFrom(table)
          .select((select) => select.fn.countAll().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    );

  /** A thread with a question and a rated answer, written `daysAgo` days ago. */
  async function oldThread(id: string, daysAgo: number) {
    const then = new Date(Date.now() - daysAgo * DAY);
    await t.service.store.assistantThreads.create(
      { id, projectId: 'docs', domain: 'docs', fp: 'reader' },
      then,
      [
        { role: 'user', content: 'old question' },
        { role: 'assistant', content: 'old answer', messageId: `msg_${id}` },
      ],
    );
    await t.service.store.feedback.rate(
      {
        projectId: 'docs',
        threadId: id,
        messageId: `msg_${id}`,
        rating: 'down',
        comment: null,
        fp: 'reader',
      },
      then,
    );
  }

  it('is read from the environment and refuses nonsense', () => {
    expect(loadConfig({ DOCWRIGHT_THREAD_DAYS: '90' }).threadDays).toBe(90);
    expect(loadConfig({}).threadDays).toBeUndefined();
    expect(() => loadConfig({ DOCWRIGHT_THREAD_DAYS: '0' })).toThrow(/DOCWRIGHT_THREAD_DAYS/);
  });

  it('deletes threads, messages and feedback older than the days, keeps the newer ones', async () => {
    await oldThread('thr_old', 40);
    await oldThread('thr_recent', 5);
    const fresh = await ask(t, 'docs', t.assistantKey, 'How do I set an environment variable?');
    await rate(t, 'docs', t.assistantKey, {
      threadId: fresh.threadId,
      messageId: fresh.messageId,
      rating: 'up',
    });
    expect([
      await count('assistant_threads'),
      await count('assistant_messages'),
      await count('feedback'),
    ]).toEqual([3, 6, 3]);

    const stop = startThreadRetention({ store: t.service.store, days: 30, logger: silentLogger });
    await stop();

    expect(await t.service.store.assistantThreads.get('thr_old')).toBeUndefined();
    expect(await t.service.store.assistantThreads.get('thr_recent')).toBeDefined();
    expect([
      await count('assistant_threads'),
      await count('assistant_messages'),
      await count('feedback'),
    ]).toEqual([2, 4, 2]);
  });

  it('runs when the service starts with DOCWRIGHT_THREAD_DAYS', async () => {
    await oldThread('thr_old', 400);
    await oldThread('thr_recent', 100);
    await t.service.close();
    // The same data dir opened again, as a restart with the setting would.
    const restarted = await createService({ ...t.config, threadDays: 365 }, { logger: silentLogger });
    try {
      const gone = async () => (await restarted.store.assistantThreads.get('thr_old')) === undefined;
      for (let tries = 0; !(await gone()) && tries < 100; tries += 1)
        await new Promise((done) => setTimeout(done, 20));
      expect(await gone()).toBe(true);
      expect(await restarted.store.assistantThreads.get('thr_recent')).toBeDefined();
    } finally {
      await restarted.close();
      // `t` is closed already; the next test starts its own.
      t = { ...t, cleanup: () => fs.rm(t.dataDir, { recursive: true, force: true }) };
    }
  });

  it('removing a project removes its readers’ feedback', async () => {
    const answer = await ask(t, 'docs', t.assistantKey, 'How do I set an environment variable?');
    await rate(t, 'docs', t.assistantKey, {
      threadId: answer.threadId,
      messageId: answer.messageId,
      rating: 'down',
    });
    expect(await count('feedback')).toBe(1);
    expect(await t.service.store.projects.remove('docs')).toBe(true);
    expect(await count('feedback')).toBe(0);
    expect(await count('assistant_threads')).toBe(0);
  });
});
