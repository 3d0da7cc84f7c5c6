/**
 * The store's jobs held in memory (the Action's runner): the same lifecycle as the database's
 * JobStore, through JobService, with every status the transition table's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocwrightError } from '../src/core/errors.js';
import { NO_USAGE, type Usage } from '../src/core/usage.js';
import { JobService } from '../src/engine/job-service.js';
import type { Forge } from '../src/forge/types.js';
import { MemoryStore, type ProjectRow } from '../src/store/index.js';
import { JOB_COLUMNS } from '../src/store/jobs.js';

const PROJECT: ProjectRow = {
  id: 'octo/docs',
  repository: 'octo/docs',
  base_ref: 'main',
  docs_root: 'docs',
  docs_framework: null,
  domain: null,
  model: 'builtin',
  created_at: '2026-01-01T00:00:00.000Z',
  disabled_at: null,
  allowed_origins: null,
  forge: 'github',
  host: 'github.com',
  installation_id: null,
  writable: null,
  budget: null,
};
const forge = { repositoryUrl: (name: string) => `https://github.com/${name}` } as unknown as Forge;
const spent = (tokens: number): Usage => ({ ...NO_USAGE, inputTokens: tokens, modelCalls: 1 });

function service(store = new MemoryStore([PROJECT])) {
  let clock = Date.parse('2026-02-01T00:00:00.000Z');
  const jobs = new JobService({
    store,
    forge,
    defaultModel: 'builtin',
    now: () => new Date((clock += 1000)),
  });
  return { store, jobs };
}

describe('MemoryJobStore', () => {
  it('creates a job through JobService, runs it through a claim, and records the run as the database does', async () => {
    const { store, jobs } = service();
    const created = await jobs.create(PROJECT.id, 'fix the quickstart', {
      branchPrefix: 'docs/',
      budget: { maxTurns: 3 },
    });
    expect(created).toMatchObject({
      status: 'active',
      source: { repository: 'https://github.com/octo/docs', ref: `docs/${created.id}` },
    });
    expect((await store.jobs.get(PROJECT.id, created.id))?.budget).toBe('{"max_turns":3}');

    const claimed = await store.jobs.claim('runner', 60_000);
    expect(claimed?.job).toMatchObject({ id: created.id, lease_owner: 'runner', attempts: 1 });
    expect(claimed?.pending.map((message) => message.content)).toEqual(['fix the quickstart']);
    expect(await store.jobs.claim('other', 60_000)).toBeNull();
    expect(await store.jobs.finishRun(created.id, 'other', { handledMessageIds: [], reply: 'x' })).toBe(
      false,
    );

    const recorded = await store.jobs.finishRun(created.id, 'runner', {
      handledMessageIds: claimed!.pending.map((message) => message.id),
      reply: 'Fixed.',
      changed: true,
      prLink: 'https://github.com/octo/docs/pull/1',
      branchHead: 'abc',
      usage: spent(100),
      runUsage: spent(100),
    });
    expect(recorded).toBe(true);
    const job = await jobs.get(PROJECT.id, created.id);
    expect(job).toMatchObject({
      status: 'completed',
      prLink: 'https://github.com/octo/docs/pull/1',
      reply: 'Fixed.',
      changed: true,
      usage: spent(100),
    });
    expect(job.messages?.map((message) => message.role)).toEqual(['user', 'agent']);
    expect(job.messages?.[1]?.usage).toEqual(spent(100));
    expect((await store.jobs.get(PROJECT.id, created.id))?.lease_owner).toBeNull();
  });

  it('adds up what runs spend, keeps a job active when a follow-up came during its run, and fails it by the table', async () => {
    const { store, jobs } = service();
    const { id } = await jobs.create(PROJECT.id, 'first');
    const first = (await store.jobs.claim('runner', 60_000))!;
    await jobs.message(PROJECT.id, id, 'second');
    await store.jobs.finishRun(id, 'runner', {
      handledMessageIds: first.pending.map((message) => message.id),
      reply: 'one',
      usage: spent(100),
      runUsage: spent(100),
    });
    // The follow-up waits for a run of its own.
    expect((await jobs.get(PROJECT.id, id)).status).toBe('active');
    const second = (await store.jobs.claim('runner', 60_000))!;
    expect(second.pending.map((message) => message.content)).toEqual(['second']);
    await store.jobs.finishRun(id, 'runner', {
      handledMessageIds: second.pending.map((message) => message.id),
      reply: 'The job failed: no',
      error: 'no',
      usage: spent(50),
    });
    expect(await jobs.get(PROJECT.id, id)).toMatchObject({
      status: 'failed',
      error: 'no',
      usage: { inputTokens: 150, modelCalls: 2 },
    });
    // A follow-up reopens a failed job and clears its error.
    expect(await jobs.message(PROJECT.id, id, 'third')).toMatchObject({ status: 'active', error: null });
  });

  it('refuses what the database refuses: an unknown job, a message to an archived one', async () => {
    const { store, jobs } = service();
    await expect(jobs.message(PROJECT.id, 'nope', 'x')).rejects.toMatchObject({ code: 'not_found' });
    await expect(jobs.get(PROJECT.id, 'nope')).rejects.toMatchObject({ code: 'not_found' });
    await expect(jobs.create('elsewhere', 'x')).rejects.toMatchObject({ code: 'not_found' });
    const { id } = await jobs.create(PROJECT.id, 'first');
    const claimed = (await store.jobs.claim('runner', 60_000))!;
    expect((await jobs.archive(PROJECT.id, id)).status).toBe('archived');
    // Archiving twice is no error, and a run that was going still records its reply.
    expect((await jobs.archive(PROJECT.id, id)).status).toBe('archived');
    await expect(jobs.admitMessage(PROJECT.id, id)).rejects.toMatchObject({ code: 'conflict' });
    await expect(jobs.message(PROJECT.id, id, 'again')).rejects.toBeInstanceOf(DocwrightError);
    await store.jobs.finishRun(id, 'runner', {
      handledMessageIds: claimed.pending.map((message) => message.id),
      reply: 'late',
    });
    const job = await jobs.get(PROJECT.id, id);
    expect(job.status).toBe('archived');
    expect(job.messages?.map((message) => message.content)).toEqual(['first', 'late']);
  });

  it('lists newest first, by status, a page at a time', async () => {
    const { jobs } = service();
    const a = await jobs.create(PROJECT.id, 'a');
    const b = await jobs.create(PROJECT.id, 'b');
    const c = await jobs.create(PROJECT.id, 'c');
    await jobs.archive(PROJECT.id, b.id);
    const page = await jobs.list(PROJECT.id, { limit: 2 });
    expect(page.jobs.map((job) => job.id)).toEqual([c.id, b.id]);
    const next = await jobs.list(PROJECT.id, { limit: 2, cursor: page.nextCursor! });
    expect(next).toEqual({ jobs: [expect.objectContaining({ id: a.id })], nextCursor: null });
    const archived = await jobs.list(PROJECT.id, { limit: 10, status: 'archived' });
    expect(archived.jobs.map((job) => job.id)).toEqual([b.id]);
  });

  it('takes in a job of an earlier process as its runs left it, archived when it was', async () => {
    const { store, jobs } = service();
    const imported = {
      id: 'earlier',
      projectId: PROJECT.id,
      model: 'builtin',
      repositoryUrl: 'https://github.com/octo/docs',
      branch: 'docwright/job-earlier',
      turns: [
        { role: 'user' as const, content: 'first' },
        { role: 'agent' as const, content: 'did it' },
      ],
      prLink: 'https://github.com/octo/docs/pull/3',
      branchHead: 'abc',
      archived: false,
    };
    expect(store.jobs.importJob(imported)).toMatchObject({ status: 'completed', branch_head: 'abc' });
    const job = await jobs.get(PROJECT.id, 'earlier');
    expect(job).toMatchObject({ status: 'completed', reply: 'did it', changed: true });
    // Nothing of it waits for a run; a follow-up does.
    expect(await store.jobs.claim('runner', 60_000)).toBeNull();
    await jobs.message(PROJECT.id, 'earlier', 'more');
    expect((await store.jobs.claim('runner', 60_000))?.pending.map((message) => message.content)).toEqual([
      'more',
    ]);

    store.jobs.importJob({ ...imported, id: 'closed', archived: true });
    expect(await jobs.get(PROJECT.id, 'closed')).toMatchObject({ status: 'archived' });
    await expect(jobs.message(PROJECT.id, 'closed', 'x')).rejects.toMatchObject({ code: 'conflict' });
    expect(() => store.jobs.importJob(imported)).toThrow(DocwrightError);
  });

  it('keeps secrets out of what it stores, as the database does', async () => {
    const { store, jobs } = service();
    const key = `sk-${'a1'.repeat(20)}`;
    const { id } = await jobs.create(PROJECT.id, `use ${key}`);
    const [message] = await store.jobs.messages(id);
    expect(message?.content).not.toContain(key);
  });
});

describe('the job row', () => {
  it('is made in one place in src/: no other file sets every column of one', () => {
    // Every column of a job row (the list the store's insert is checked against at compile time),
    // set or written shorthand; a type's declaration of them does not count.
    const columns = JOB_COLUMNS;
    const makers = readdirSync('src', { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => {
        const text = readFileSync(path.join('src', file), 'utf8');
        return columns.every((column) =>
          new RegExp(`\\b${column}(:\\s+(?!(string|number|Generated|JobStatus)\\b)|,)`).test(text),
        );
      });
    expect(makers).toEqual([path.join('store', 'job-records.ts')]);
  });
});
