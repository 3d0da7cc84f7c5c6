import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, ApiTimeoutError, DocwrightClient, pollJob } from '../src/client/index.js';
import { startTestService, type TestService } from './helpers/service.js';

/** A fetch that answers from a script of responses and records what it was asked. */
function scriptedFetch(responses: (() => Response | Promise<Response>)[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchImpl = (async (url: string | URL | Request, init: RequestInit = {}) => {
    calls.push({ url: url instanceof Request ? url.url : url.toString(), init });
    const next = responses.shift();
    if (!next) throw new Error('no more scripted responses');
    return next();
  }) as typeof fetch;
  return { fetchImpl, calls };
}

const JOB = {
  id: 'j1',
  status: 'active',
  source: { repository: 'file:///r', ref: 'docwright/job-j1' },
  model: 'builtin',
  prLink: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  archivedAt: null,
};
const json =
  (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });

describe('DocwrightClient', () => {
  it('retries a create after 429 (Retry-After honoured) and a read after 5xx with backoff', async () => {
    const sleeps: number[] = [];
    const { fetchImpl, calls } = scriptedFetch([
      json({ error: 'Rate limit exceeded', code: 'rate_limited' }, 429, { 'retry-after': '7' }),
      json(JOB, 201),
      json({ error: 'Internal server error' }, 503),
      json(JOB),
    ]);
    const client = new DocwrightClient({
      baseUrl: 'http://api.test/',
      apiKey: 'svc_x',
      fetch: fetchImpl,
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
    });
    const job = await client.createJob('p 1', 'hello');
    expect(job.id).toBe('j1');
    expect(calls).toHaveLength(2);
    expect(calls[0]!.url).toBe('http://api.test/v2/agent/p%201/job');
    expect(calls[0]!.init.headers).toMatchObject({
      authorization: 'Bearer svc_x',
      'content-type': 'application/json',
    });
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({ prompt: 'hello' });
    expect(sleeps[0]).toBe(7000);
    expect((await client.getJob('p 1', 'j1')).id).toBe('j1');
    expect(calls).toHaveLength(4);
    expect(sleeps[1]).toBeGreaterThan(0);
  });

  it('never repeats a create after a 5xx: the server may have made the job', async () => {
    const { fetchImpl, calls } = scriptedFetch([json({ error: 'Bad gateway' }, 502)]);
    const client = new DocwrightClient({
      baseUrl: 'http://api.test',
      apiKey: 'k',
      fetch: fetchImpl,
      sleep: () => Promise.resolve(),
    });
    await expect(client.createJob('p', 'hello')).rejects.toMatchObject({ status: 502 });
    await expect(client.sendMessage('p', 'j', 'again')).rejects.toThrow('no more scripted responses');
    expect(calls).toHaveLength(2);
  });

  it('does not retry a 4xx other than 429, and keeps the server message and code', async () => {
    const { fetchImpl, calls } = scriptedFetch([
      json({ error: 'Unknown API key', code: 'unauthorized' }, 401),
    ]);
    const client = new DocwrightClient({
      baseUrl: 'http://api.test',
      apiKey: 'svc_x',
      fetch: fetchImpl,
      sleep: () => Promise.resolve(),
    });
    await expect(client.getJob('p', 'j')).rejects.toMatchObject({
      name: 'ApiError',
      status: 401,
      message: 'Unknown API key',
      code: 'unauthorized',
    });
    expect(calls).toHaveLength(1);
  });

  it('gives up after maxAttempts with the last error', async () => {
    const { fetchImpl } = scriptedFetch([json({ error: 'down' }, 502), json({ error: 'down' }, 502)]);
    const client = new DocwrightClient({
      baseUrl: 'http://api.test',
      apiKey: 'k',
      fetch: fetchImpl,
      maxAttempts: 2,
      sleep: () => Promise.resolve(),
    });
    await expect(client.getJob('p', 'j')).rejects.toBeInstanceOf(ApiError);
  });

  it('times out a hanging request per attempt', async () => {
    const fetchImpl = ((_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error));
      })) as typeof fetch;
    const client = new DocwrightClient({
      baseUrl: 'http://api.test',
      apiKey: 'k',
      fetch: fetchImpl,
      timeoutMs: 50,
      maxAttempts: 1,
    });
    await expect(client.getJob('p', 'j')).rejects.toBeInstanceOf(ApiTimeoutError);
  });

  it('rejects an answer that is not a job', async () => {
    const { fetchImpl } = scriptedFetch([json({ hello: 'world' })]);
    const client = new DocwrightClient({ baseUrl: 'http://api.test', apiKey: 'k', fetch: fetchImpl });
    await expect(client.getJob('p', 'j')).rejects.toThrow();
  });

  describe('against the real API', () => {
    let t: TestService;
    beforeAll(async () => {
      t = await startTestService();
    });
    afterAll(() => t.cleanup());

    it('creates, waits for, messages and archives a job', async () => {
      const fetchImpl = ((url: string, init?: RequestInit) =>
        t.service.app.request(url, init)) as typeof fetch;
      const client = new DocwrightClient({
        baseUrl: 'http://localhost',
        apiKey: t.adminKey,
        fetch: fetchImpl,
      });
      const created = await client.createJob('docs', 'replace "Acme Cloud" with "Acme Z"');
      const polled: string[] = [];
      const { job, end } = await pollJob(client, 'docs', created, {
        intervalMs: 20,
        timeoutMs: 30_000,
        onPoll: (j) => polled.push(j.status),
      });
      expect(end).toBe('finished');
      expect(job.status).toBe('completed');
      expect(polled.at(-1)).toBe('completed');
      expect((await client.sendMessage('docs', created.id, 'replace "Acme Z" with "Acme W"')).status).toBe(
        'active',
      );
      expect((await client.archiveJob('docs', created.id)).status).toBe('archived');
      expect((await client.listJobs('docs', { limit: 1 })).jobs).toHaveLength(1);
    });
  });
});
