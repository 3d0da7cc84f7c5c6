import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pollJob } from '../src/client/wait-for-job.js';
import { DocwrightClient } from '../src/client/index.js';
import { jobFixture } from './helpers/github-recorder.js';

const API = 'https://docwright.test';
const JOB_PATH = '/v2/agent/docs/job/job23';
const job = jobFixture;
const client = new DocwrightClient({ baseUrl: API, apiKey: 'svc_x', maxAttempts: 1 });

/** A clock that only moves when polling sleeps, so timeouts are exact and instant. */
function fakeTime() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: (ms: number) => {
      sleeps.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  expect(nock.pendingMocks()).toEqual([]);
  nock.cleanAll();
});

describe('pollJob', () => {
  it('reads GET /v2/agent/{projectId}/job/{id} every interval until the job is completed', async () => {
    nock(API)
      .get(JOB_PATH)
      .reply(200, job())
      .get(JOB_PATH)
      .reply(200, job({ status: 'completed', prLink: 'https://github.com/o/r/pull/1' }));
    const time = fakeTime();
    const seen: string[] = [];
    const result = await pollJob(client, 'docs', job(), {
      intervalMs: 10_000,
      timeoutMs: 60_000,
      ...time,
      onPoll: (polled) => seen.push(polled.status),
    });
    expect(result).toMatchObject({ end: 'finished', job: { status: 'completed' } });
    expect(seen).toEqual(['active', 'completed']);
    expect(time.sleeps).toEqual([10_000, 10_000]);
  });

  it('stops at failed and archived too, and does not poll a job that is already final', async () => {
    nock(API)
      .get(JOB_PATH)
      .reply(200, job({ status: 'failed', error: 'No such page' }));
    expect(
      (await pollJob(client, 'docs', job(), { intervalMs: 1, timeoutMs: 10, ...fakeTime() })).job.error,
    ).toBe('No such page');
    const archived = job({ status: 'archived', archivedAt: '2026-01-02T00:00:00.000Z' });
    expect(await pollJob(client, 'docs', archived, { intervalMs: 1, timeoutMs: 10, ...fakeTime() })).toEqual({
      job: archived,
      end: 'finished',
    });
  });

  it('reads one last time at the deadline, then reports a timeout with the last state', async () => {
    nock(API).get(JOB_PATH).times(3).reply(200, job());
    const time = fakeTime();
    const result = await pollJob(client, 'docs', job(), { intervalMs: 10_000, timeoutMs: 25_000, ...time });
    expect(result).toMatchObject({ end: 'timed-out', job: { status: 'active' } });
    expect(time.sleeps).toEqual([10_000, 10_000, 5000]);
  });

  it('keeps polling through server errors while time remains, but not through a refusal', async () => {
    nock(API)
      .get(JOB_PATH)
      .reply(503, { error: 'Service unavailable' })
      .get(JOB_PATH)
      .reply(200, job({ status: 'completed' }));
    const transient: unknown[] = [];
    const result = await pollJob(client, 'docs', job(), {
      intervalMs: 1000,
      timeoutMs: 60_000,
      ...fakeTime(),
      onTransientError: (error) => transient.push(error),
    });
    expect(result.end).toBe('finished');
    expect(transient).toHaveLength(1);

    nock(API).get(JOB_PATH).reply(404, { error: 'Job job23 not found in project docs', code: 'not_found' });
    await expect(
      pollJob(client, 'docs', job(), { intervalMs: 1000, timeoutMs: 60_000, ...fakeTime() }),
    ).rejects.toMatchObject({
      status: 404,
    });
  });

  it('stops when the workflow is cancelled', async () => {
    const cancel = new AbortController();
    const time = fakeTime();
    const result = await pollJob(client, 'docs', job(), {
      intervalMs: 1000,
      timeoutMs: 60_000,
      now: time.now,
      signal: cancel.signal,
      sleep: (ms) => {
        cancel.abort();
        return time.sleep(ms);
      },
    });
    expect(result).toMatchObject({ end: 'cancelled', job: { status: 'active' } });
  });

  it('sleeps on real timers when given none, and wakes up at once when cancelled', async () => {
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 20);
    const started = Date.now();
    const result = await pollJob(client, 'docs', job(), {
      intervalMs: 60_000,
      timeoutMs: 120_000,
      signal: cancel.signal,
    });
    expect(result.end).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
