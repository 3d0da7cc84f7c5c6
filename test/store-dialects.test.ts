import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DocwrightError } from '../src/core/errors.js';
import { silentLogger } from '../src/core/logger.js';
import { RateLimits } from '../src/server/rate-limits.js';
import { openDocsChanges } from '../src/store/docs-changes.js';
import { openStore, type Store } from '../src/store/index.js';
import { DIALECTS, testDatabases, type TestLocation } from './helpers/postgres.js';

const databases = testDatabases();
afterAll(() => databases.close());

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
const LEASE_MS = 30_000;

/** The same store tests on SQLite and on PostgreSQL: the dialect is the only difference. */
describe.each(DIALECTS)('store on %s', (dialect) => {
  let location: TestLocation;
  let store: Store;
  const opened: Store[] = [];
  const open = async () => {
    const another = await openStore(location);
    opened.push(another);
    return another;
  };

  beforeEach(async () => {
    location = await databases.create(dialect);
    store = await open();
    await store.projects.create({ id: 'docs', repository: '/repo', baseRef: 'main', domain: 'docs' }, at(0));
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((each) => each.close()));
  });

  const newJob = (id: string, seconds: number) =>
    store.jobs.create(
      {
        id,
        projectId: 'docs',
        model: 'builtin',
        repositoryUrl: 'file:///repo',
        branch: `docwright/job-${id}`,
        prompt: `request ${id}`,
      },
      at(seconds),
    );

  it('migrates once: stores opened at the same time on one database all work', async () => {
    const more = await Promise.all([open(), open(), open()]);
    for (const each of more) expect(await each.projects.get('docs')).toMatchObject({ id: 'docs' });
    expect(store.database.dialect).toBe(dialect);
  });

  it('keeps projects and hashed keys', async () => {
    await store.projects.create({
      id: 'app',
      repository: 'octo/app',
      baseRef: 'main',
      forge: 'github',
      installationId: 2 ** 40 + 7, // a GitHub id past 32 bits comes back as the same number
    });
    expect(await store.projects.get('app')).toMatchObject({ forge: 'github', installation_id: 2 ** 40 + 7 });
    expect((await store.projects.getByDomain('docs'))?.id).toBe('docs');
    expect((await store.projects.list()).map((project) => project.id)).toEqual(['docs', 'app']);
    await store.projects.setDisabled('app', true, at(5));
    expect((await store.projects.get('app'))?.disabled_at).toBe(at(5).toISOString());

    const { key, row } = await store.keys.create({ kind: 'admin', projectId: 'docs' });
    const found = await store.keys.findByHash(row.hash);
    expect(found).toEqual(row);
    expect(key).not.toContain(row.hash);
    expect(await store.keys.list({ kind: 'assistant' })).toEqual([]);
  });

  it('creates, lists with keyset pages, queues follow-ups and archives jobs', async () => {
    for (let index = 0; index < 5; index += 1) await newJob(`job${index}`, index);
    const first = await store.jobs.list('docs', { limit: 2 });
    expect(first.map((job) => job.id)).toEqual(['job4', 'job3']);
    // Each listed job carries its latest message's role and change: here the prompt, not yet run.
    expect(first.map((job) => [job.latest_role, job.latest_changed])).toEqual([
      ['user', null],
      ['user', null],
    ]);
    const second = await store.jobs.list('docs', {
      limit: 2,
      before: { createdAt: first[1]!.created_at, id: first[1]!.id },
    });
    expect(second.map((job) => job.id)).toEqual(['job2', 'job1']);

    const reopened = await store.jobs.addMessage('docs', 'job0', 'and more', at(10));
    expect(reopened).toMatchObject({ status: 'active', updated_at: at(10).toISOString() });
    expect((await store.jobs.messages('job0')).map((message) => [message.role, message.state])).toEqual([
      ['user', 'pending'],
      ['user', 'pending'],
    ]);
    await store.jobs.archive('docs', 'job0', at(11));
    await expect(store.jobs.addMessage('docs', 'job0', 'again')).rejects.toMatchObject({ code: 'conflict' });
    await expect(store.jobs.addMessage('docs', 'nope', 'again')).rejects.toMatchObject({ code: 'not_found' });
    expect((await store.jobs.list('docs', { limit: 10, status: 'archived' })).map((job) => job.id)).toEqual([
      'job0',
    ]);
  });

  it('reads a job with its messages in one query, as the job and messages reads give them apart', async () => {
    await newJob('read', 1);
    await newJob('other', 1);
    await store.jobs.addMessage('docs', 'read', 'second', at(2));
    await store.jobs.addMessage('docs', 'read', 'third', at(3));
    const read = await store.jobs.getWithMessages('docs', 'read');
    expect(await store.jobs.get('docs', 'read')).toMatchObject(read!.job);
    expect(await store.jobs.messages('read')).toMatchObject(read!.messages);
    expect(Object.keys(read!.job)).toHaveLength(11);
    expect(read?.messages.map((message) => message.content)).toEqual(['request read', 'second', 'third']);
    // The values of each call, not those of the query's first call or of its placeholders.
    expect((await store.jobs.getWithMessages('docs', 'other'))?.messages.map((m) => m.content)).toEqual([
      'request other',
    ]);
    expect(await store.jobs.getWithMessages('docs', 'missing')).toBeUndefined();
    await store.projects.create({ id: 'elsewhere', repository: '/r', baseRef: 'main', domain: 'e' }, at(0));
    expect(await store.jobs.getWithMessages('elsewhere', 'read')).toBeUndefined();
    // A job without messages (never written by the API, possible in the table) still reads.
    await store.database.db.deleteFrom('job_messages').where('job_id', '=', 'other').execute();
    expect(await store.jobs.getWithMessages('docs', 'other')).toMatchObject({
      job: { id: 'other' },
      messages: [],
    });
  });

  it('reads a job with its messages as committed, not the writes of a transaction still open', async () => {
    await newJob('held', 1);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let updated = () => {};
    const inside = new Promise<void>((resolve) => (updated = resolve));
    const undone = store.database.db.transaction().execute(async (trx) => {
      await trx.updateTable('jobs').set({ status: 'failed' }).where('id', '=', 'held').execute();
      updated();
      await held;
      throw new Error('rolled back');
    });
    await inside;
    const read = store.jobs.getWithMessages('docs', 'held');
    release();
    await expect(undone).rejects.toThrow('rolled back');
    expect((await read)?.job.status).toBe('active');
  });

  it('creates jobs asked for at once, each stored whole, a duplicate refused alone', async () => {
    await newJob('first', 0);
    const created = await Promise.allSettled([
      newJob('a', 1),
      newJob('first', 1),
      newJob('b', 1),
      newJob('c', 1),
    ]);
    expect(created.map((each) => each.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    for (const id of ['a', 'b', 'c']) {
      expect(await store.jobs.get('docs', id)).toMatchObject({
        id,
        status: 'active',
        attempts: 0,
        pr_link: null,
      });
      expect((await store.jobs.messages(id)).map((m) => [m.role, m.content, m.state])).toEqual([
        ['user', `request ${id}`, 'pending'],
      ]);
    }
    expect((await store.jobs.messages('first')).map((m) => m.content)).toEqual(['request first']);
  });

  it('claims the oldest free job under a lease, and a lapsed lease is taken over', async () => {
    await newJob('older', 1);
    await newJob('newer', 2);
    const first = await store.jobs.claim('worker-a', LEASE_MS, at(3));
    expect(first?.job).toMatchObject({ id: 'older', lease_owner: 'worker-a', attempts: 1 });
    expect(first?.pending.map((message) => message.content)).toEqual(['request older']);
    expect((await store.jobs.claim('worker-b', LEASE_MS, at(4)))?.job.id).toBe('newer');
    expect(await store.jobs.claim('worker-c', LEASE_MS, at(5))).toBeNull();

    expect(await store.jobs.heartbeat('older', 'worker-b', LEASE_MS, at(6))).toBe('lost');
    expect(await store.jobs.heartbeat('older', 'worker-a', LEASE_MS, at(6))).toBe('held');
    expect(await store.jobs.heartbeat('newer', 'worker-b', LEASE_MS, at(10))).toBe('held');
    // worker-a dies: no more heartbeats; its lease ends at 36 s and worker-c takes the job over.
    expect(await store.jobs.claim('worker-c', LEASE_MS, at(35))).toBeNull();
    const takeover = await store.jobs.claim('worker-c', LEASE_MS, at(37));
    expect(takeover?.job).toMatchObject({ id: 'older', lease_owner: 'worker-c', attempts: 2 });
    const finished = await store.jobs.finishRun('older', 'worker-a', {
      handledMessageIds: [],
      reply: 'late',
    });
    expect(finished).toBe(false); // the dead worker's late write is refused
  });

  it('finishes a run: handled messages, the reply, completed or still active for a follow-up', async () => {
    await newJob('job', 1);
    const claimed = (await store.jobs.claim('worker', LEASE_MS, at(2)))!;
    await store.jobs.addMessage('docs', 'job', 'a follow-up during the run', at(3));
    const recorded = await store.jobs.finishRun(
      'job',
      'worker',
      {
        handledMessageIds: claimed.pending.map((message) => message.id),
        reply: 'done',
        prLink: 'https://example.com/pr/1',
      },
      at(4),
    );
    expect(recorded).toBe(true);
    expect(await store.jobs.get('docs', 'job')).toMatchObject({
      status: 'active',
      pr_link: 'https://example.com/pr/1',
      lease_owner: null,
      attempts: 0,
    });
    const next = (await store.jobs.claim('worker', LEASE_MS, at(5)))!;
    expect(next.pending.map((message) => message.content)).toEqual(['a follow-up during the run']);
    await store.jobs.finishRun('job', 'worker', {
      handledMessageIds: next.pending.map((message) => message.id),
      reply: 'it failed',
      error: 'it failed',
    });
    expect(await store.jobs.get('docs', 'job')).toMatchObject({ status: 'failed', error: 'it failed' });
    expect((await store.jobs.messages('job')).map((message) => message.state)).toEqual([
      'handled',
      'handled',
      null,
      null,
    ]);
  });

  it('gives a job back: after a delay for a retry, at once and uncounted at shutdown', async () => {
    await newJob('job', 1);
    await store.jobs.claim('worker', LEASE_MS, at(2));
    await store.jobs.releaseForRetry('job', 'worker', 4000, at(3));
    expect(await store.jobs.claim('other', LEASE_MS, at(5))).toBeNull();
    const retried = await store.jobs.claim('other', LEASE_MS, at(8));
    expect(retried?.job.attempts).toBe(2);
    await store.jobs.release('job', 'other');
    expect(await store.jobs.get('docs', 'job')).toMatchObject({ lease_owner: null, attempts: 1 });
  });

  it.runIf(dialect === 'postgres')(
    "keeps leases on the database's clock: a replica whose own clock runs fast takes no live lease",
    async () => {
      await newJob('live', 1);
      expect((await store.jobs.claim('replica-a', LEASE_MS))?.job.id).toBe('live');
      const other = await open();
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now() + 5 * 60_000); // this replica's clock is five minutes ahead
        expect(await other.jobs.claim('replica-b', LEASE_MS)).toBeNull();
        expect(await store.jobs.heartbeat('live', 'replica-a', LEASE_MS)).toBe('held');
      } finally {
        vi.useRealTimers();
      }
    },
  );

  it('never hands one job to two workers claiming at once, from several connections', async () => {
    const stores = [store, await open(), await open()];
    for (let index = 0; index < 30; index += 1) await newJob(`job${String(index).padStart(2, '0')}`, index);
    const owners = Array.from({ length: 12 }, (_, index) => `worker-${index}`);
    const claimedBy = new Map<string, string[]>();
    await Promise.all(
      owners.map(async (owner, index) => {
        const mine = stores[index % stores.length]!;
        for (;;) {
          const claimed = await mine.jobs.claim(owner, LEASE_MS, at(100));
          if (!claimed) return;
          claimedBy.set(claimed.job.id, [...(claimedBy.get(claimed.job.id) ?? []), owner]);
        }
      }),
    );
    expect(claimedBy.size).toBe(30);
    expect([...claimedBy.values()].every((claimers) => claimers.length === 1)).toBe(true);
  });

  it('keeps the files of each run with the job, counted once their commit landed', async () => {
    await newJob('j1', 1);
    expect(await store.runs.changedFiles('j1')).toBeNull();
    await store.runs.planned('j1', 'j1/1', ['docs/b.md', 'docs/a.md']);
    expect(await store.runs.changedFiles('j1')).toBeNull();
    // A repeated attempt of the run replaces what it planned; another replica reads what landed.
    await store.runs.planned('j1', 'j1/1', ['docs/a.md']);
    await (await open()).runs.landed('j1', 'j1/1');
    await store.runs.planned('j1', 'j1/3', ['docs/c.md', 'docs/a.md']);
    await store.runs.landed('j1', 'j1/3');
    expect(await store.runs.changedFiles('j1')).toEqual(['docs/a.md', 'docs/c.md']);
  });

  it('keys GitHub projects by host and name', async () => {
    await store.projects.upsertOnGitHub({
      host: 'github.com',
      repository: 'Octo/Site',
      baseRef: 'main',
      installationId: 1,
    });
    const enterprise = await store.projects.upsertOnGitHub({
      host: 'ghe.example.com',
      repository: 'octo/site',
      baseRef: 'main',
      installationId: 2,
    });
    expect(enterprise.created).toBe(true);
    expect(Number((await store.projects.findOnGitHub('GitHub.com', 'octo/site'))?.installation_id)).toBe(1);
    expect(Number((await store.projects.findOnGitHub('ghe.example.com', 'OCTO/site'))?.installation_id)).toBe(
      2,
    );
    expect(await store.projects.findOnGitHub('other.example.com', 'octo/site')).toBeUndefined();
    expect(await store.projects.forgeOf('octo/site')).toBe('github');
    expect(await store.projects.forgeOf('/repo')).toBe('local');
  });

  it('keeps assistant threads in order', async () => {
    await store.assistantThreads.create(
      { id: 'thread_1', projectId: 'docs', domain: 'docs', fp: 'fp' },
      at(1),
    );
    await store.assistantThreads.append(
      'thread_1',
      [
        { role: 'user', content: 'q1' },
        { role: 'assistant', content: 'a1', sources: [{ url: '/a' }] },
      ],
      at(2),
    );
    await store.assistantThreads.append('thread_1', [{ role: 'user', content: 'q2' }], at(3));
    expect((await store.assistantThreads.messages('thread_1', 2)).map((message) => message.content)).toEqual([
      'a1',
      'q2',
    ]);
    expect((await store.assistantThreads.get('thread_1'))?.updated_at).toBe(at(3).toISOString());
  });

  it('creates a thread with its first question in one step, redacted like an appended one', async () => {
    const secret = `svc_${'a'.repeat(40)}`;
    await store.assistantThreads.create(
      { id: 'thread_2', projectId: 'docs', domain: 'docs', fp: 'fp' },
      at(1),
      [{ role: 'user', content: `my key is ${secret}` }],
    );
    const [question] = await store.assistantThreads.messages('thread_2');
    expect(question).toMatchObject({ role: 'user', created_at: at(1).toISOString() });
    expect(question?.content).not.toContain(secret);
    expect((await store.assistantThreads.get('thread_2'))?.updated_at).toBe(at(1).toISOString());
  });

  it('handles a webhook delivery once, whichever connection sees it first', async () => {
    const other = await open();
    const claims = await Promise.all([
      store.deliveries.claim('delivery-1', 'issue_comment'),
      other.deliveries.claim('delivery-1', 'issue_comment'),
    ]);
    expect(claims.sort()).toEqual([false, true]);
    await store.deliveries.release('delivery-1');
    expect(await other.deliveries.claim('delivery-1', 'issue_comment')).toBe(true);
  });

  it('tells every replica of a docs change, and after a lost connection every project', async () => {
    const here = await openDocsChanges(store.database, silentLogger);
    const there = await openDocsChanges((await open()).database, silentLogger);
    const heard: string[] = [];
    there.subscribe((projectId) => heard.push(projectId));
    const hear = async (count: number) => {
      for (let waited = 0; heard.length < count && waited < 5000; waited += 20) await sleep(20);
      return heard.splice(0);
    };
    try {
      await here.publish('docs');
      if (dialect === 'sqlite') {
        await sleep(100);
        expect(heard).toEqual([]); // SQLite serves one process: the news stays in it
        return;
      }
      expect(await hear(1)).toEqual(['docs']);
      // The server drops the listening connection (a restart, a failover): notices sent meanwhile are lost,
      // so the replica counts every project as changed once it listens again.
      const dropListeners = sql`select pg_terminate_backend(pid) from pg_stat_activity
        where query ilike 'listen %' and datname = current_database()`;
      await dropListeners.execute(store.database.db);
      expect(await hear(1)).toEqual(['docs']);
      await here.publish('docs');
      expect(await hear(1)).toEqual(['docs']);
    } finally {
      await here.close();
      await there.close();
    }
  });

  it('counts rate limits together across processes on one database', async () => {
    const rule = { 'job-create': { points: 3, durationSeconds: 3600 } };
    const limits = [new RateLimits(store.database, rule), new RateLimits((await open()).database, rule)];
    const remaining: string[] = [];
    for (const index of [0, 1, 0]) {
      remaining.push((await limits[index]!.consume('job-create', 'docs'))['RateLimit-Remaining']);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const over = await limits[1]!.consume('job-create', 'docs').catch((error: unknown) => error);
    expect(over).toBeInstanceOf(DocwrightError);
    expect(over).toMatchObject({ code: 'rate_limited', retryable: true });
    expect(Number((over as DocwrightError).headers['Retry-After'])).toBeGreaterThan(3000);
  });
});
