import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobSchema, JobListSchema } from '../src/protocol/agent-job.js';
import { startTestService, type TestService } from './helpers/service.js';

const REPLACE = 'replace "Acme Cloud" with "Acme Platform"';

describe('agent job API', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ config: { jobRateLimit: 1000 } });
  });
  afterAll(() => t.cleanup());

  it("creates a job (201) in the contract's shape, runs it and completes it with a commit on its branch", async () => {
    const created = await t.request('POST', '/v2/agent/docs/job', { body: { prompt: REPLACE } });
    expect(created.status).toBe(201);
    const job = JobSchema.parse(created.body);
    expect(job).toMatchObject({
      status: 'active',
      model: 'builtin',
      prLink: null,
      archivedAt: null,
      source: { repository: `file://${t.repo}`, ref: `docwright/job-${job.id}` },
    });
    expect(Object.keys(created.body)).toEqual(
      expect.arrayContaining(['id', 'status', 'source', 'model', 'prLink', 'createdAt', 'archivedAt']),
    );
    expect(created.headers.get('ratelimit-limit')).toBe('1000');

    const done = await t.waitForJob(job.id);
    expect(done.status).toBe('completed');
    expect(done.prLink).toBeNull(); // local git has no pull requests
    expect(done.messages?.map((message) => message.role)).toEqual(['user', 'agent']);
    expect(done.messages?.[1]?.content).toMatch(/Acme Platform/);
    expect(t.git('rev-list', '--count', `main..docwright/job-${job.id}`)).toBe('1');
    expect(t.git('show', `docwright/job-${job.id}:quickstart.mdx`)).not.toMatch(/Acme Cloud/);
    expect(t.git('log', '-1', '--format=%B', `docwright/job-${job.id}`)).toContain(
      `Docwright-Job: ${job.id}`,
    );
  });

  it('returns 200 for a follow-up message, which runs as a new commit on the same branch', async () => {
    const { body: job } = await t.request('POST', '/v2/agent/docs/job', { body: { prompt: REPLACE } });
    await t.waitForJob(job.id);
    const message = await t.request('POST', `/v2/agent/docs/job/${job.id}/message`, {
      body: { prompt: 'replace "Acme Platform" with "Acme Cloud Platform"' },
    });
    expect(message.status).toBe(200);
    expect(message.body.status).toBe('active');
    const done = await t.waitForJob(job.id);
    expect(done.status).toBe('completed');
    expect(done.messages?.map((m) => m.role)).toEqual(['user', 'agent', 'user', 'agent']);
    expect(t.git('rev-list', '--count', `main..docwright/job-${job.id}`)).toBe('2');
  });

  it('archives a job, and refuses messages to it with 409', async () => {
    const { body: job } = await t.request('POST', '/v2/agent/docs/job', { body: { prompt: REPLACE } });
    await t.waitForJob(job.id);
    const archived = await t.request('POST', `/v2/agent/docs/job/${job.id}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body.status).toBe('archived');
    expect(Date.parse(archived.body.archivedAt)).not.toBeNaN();
    const again = await t.request('POST', `/v2/agent/docs/job/${job.id}/archive`);
    expect(again.body.archivedAt).toBe(archived.body.archivedAt);
    const refused = await t.request('POST', `/v2/agent/docs/job/${job.id}/message`, {
      body: { prompt: 'more' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: expect.stringMatching(/archived/),
      code: 'conflict',
      retryable: false,
    });
  });

  it('lists jobs newest first with cursor pagination', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      ids.push(
        (
          await t.request('POST', '/v2/agent/other/job', {
            key: t.otherKey,
            body: { prompt: `unknown ${index}` },
          })
        ).body.id,
      );
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
      const page = await t.request('GET', `/v2/agent/other/jobs${query}`, { key: t.otherKey });
      expect(page.status).toBe(200);
      const list = JobListSchema.parse(page.body);
      expect(list.jobs.length).toBeLessThanOrEqual(2);
      seen.push(...list.jobs.map((job) => job.id));
      cursor = list.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const bad = await t.request('GET', '/v2/agent/other/jobs?cursor=nonsense', { key: t.otherKey });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/cursor/);
    const badLimit = await t.request('GET', '/v2/agent/other/jobs?limit=500', { key: t.otherKey });
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.error).toMatch(/limit/);
  });

  it("lists whether each job's last run committed, as getting the job says", async () => {
    const committed = await t.request('POST', '/v2/agent/docs/job', {
      body: { prompt: 'append a section "Listed" to quickstart with "A listed change."' },
    });
    const nothing = await t.request('POST', '/v2/agent/docs/job', {
      body: { prompt: 'replace "no such words anywhere" with "other words"' },
    });
    const [done, unchanged] = [await t.waitForJob(committed.body.id), await t.waitForJob(nothing.body.id)];
    expect([done.status, unchanged.status]).toEqual(['completed', 'completed']);
    const listed = JobListSchema.parse((await t.request('GET', '/v2/agent/docs/jobs?limit=10')).body).jobs;
    const changedOf = (id: string) => listed.find((job) => job.id === id)?.changed;
    expect(changedOf(done.id)).toBe(true);
    expect(changedOf(unchanged.id)).toBe(false);
    expect((await t.request('GET', `/v2/agent/docs/job/${done.id}`)).body.changed).toBe(true);
  });

  describe('errors', () => {
    it.each([
      ['a missing prompt', {}, /prompt is required/],
      ['an empty prompt', { prompt: '' }, /prompt must not be empty/],
      ['a prompt of blanks only', { prompt: ' \n\t ' }, /prompt must not be blank/],
      ['a prompt that is not a string', { prompt: 42 }, /prompt must be a string/],
      ['a prompt over 20,000 characters', { prompt: 'x'.repeat(20_001) }, /prompt must be at most 20,000/],
      ['a body that is not an object', [1, 2], /JSON object/],
    ])('400 names the field for %s', async (_case, body, message) => {
      const response = await t.request('POST', '/v2/agent/docs/job', { body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: expect.stringMatching(message),
        code: 'invalid_request',
        retryable: false,
      });
    });

    it('400 for malformed JSON', async () => {
      const response = await t.request('POST', '/v2/agent/docs/job', { body: '{"prompt": ' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        error: expect.stringMatching(/not valid JSON/),
        code: 'invalid_json',
      });
    });

    it('413 for a body over 1 MiB', async () => {
      const response = await t.request('POST', '/v2/agent/docs/job', {
        body: { prompt: 'x'.repeat(1024 * 1024 + 10) },
      });
      expect(response.status).toBe(413);
      expect(response.body.code).toBe('payload_too_large');
    });

    it('401 without a key, with a malformed header, or with an unknown key', async () => {
      const missing = await t.request('POST', '/v2/agent/docs/job', { key: null, body: { prompt: 'x' } });
      expect(missing.status).toBe(401);
      expect(missing.body.error).toMatch(/Missing Authorization/);
      expect(missing.headers.get('www-authenticate')).toBe('Bearer');
      const malformed = await t.request('GET', '/v2/agent/docs/jobs', {
        key: null,
        headers: { authorization: 'Basic abc' },
      });
      expect(malformed.status).toBe(401);
      const unknown = await t.request('GET', '/v2/agent/docs/jobs', { key: `svc_${'a'.repeat(40)}` });
      expect(unknown.status).toBe(401);
      expect(unknown.body.error).toBe('Unknown API key');
    });

    it('403 for an assistant key and for a key of another project', async () => {
      const assistant = await t.request('POST', '/v2/agent/docs/job', {
        key: t.assistantKey,
        body: { prompt: 'x' },
      });
      expect(assistant.status).toBe(403);
      expect(assistant.body.error).toMatch(/Assistant keys/);
      const other = await t.request('GET', '/v2/agent/docs/jobs', { key: t.otherKey });
      expect(other.status).toBe(403);
      expect(other.body.error).toMatch(/does not belong to project docs/);
    });

    it('404 for an unknown job and an unknown route; 405 for a wrong method', async () => {
      const job = await t.request('GET', '/v2/agent/docs/job/nope');
      expect(job.status).toBe(404);
      expect(job.body).toEqual({
        error: 'Job nope not found in project docs',
        code: 'not_found',
        retryable: false,
      });
      const route = await t.request('GET', '/v3/nothing');
      expect(route.status).toBe(404);
      expect(route.body.code).toBe('not_found');
      const method = await t.request('DELETE', '/v2/agent/docs/job');
      expect(method.status).toBe(405);
      expect(method.headers.get('allow')).toBe('POST');
      expect(method.body.code).toBe('method_not_allowed');
    });

    it('never leaks a stack trace: an internal failure is a generic 500', async () => {
      const broken = await startTestService({ startWorker: false });
      await broken.service.store.close();
      const response = await broken.request('GET', '/v2/agent/docs/jobs');
      expect(response.status).toBe(500);
      expect(response.body).toEqual({
        error: 'Internal server error',
        code: 'internal_error',
        retryable: true,
      });
    });
  });

  it('serves /healthz and an OpenAPI document generated from the zod schemas', async () => {
    expect((await t.request('GET', '/healthz', { key: null })).body).toEqual({ status: 'ok' });
    const { status, body } = await t.request('GET', '/openapi.json', { key: null });
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        '/v2/agent/{projectId}/job',
        '/v2/agent/{projectId}/job/{id}',
        '/v2/agent/{projectId}/job/{id}/message',
      ]),
    );
    expect(body.components.schemas.PromptBody.properties.prompt).toMatchObject({
      minLength: 1,
      maxLength: 20000,
    });
    expect(body.components.schemas.Job.properties.status).toEqual({ $ref: '#/components/schemas/JobStatus' });
    expect(body.components.schemas.JobStatus.enum).toEqual(['active', 'completed', 'archived', 'failed']);
    expect(JSON.stringify(body)).not.toContain('$defs');
    expect(
      body.paths['/discovery/v2/assistant/{domain}/message'].post.requestBody.content['application/json']
        .schema,
    ).toEqual({ $ref: '#/components/schemas/AssistantRequestV2' });
    expect(body.paths['/discovery/v1/assistant/{domain}/message'].post.deprecated).toBe(true);
  });
});

describe('rate limits', () => {
  it('allows N creations and N messages per project per hour, then 429 with Retry-After and RateLimit headers', async () => {
    const t = await startTestService({ config: { jobRateLimit: 3 }, startWorker: false });
    try {
      const responses = [];
      for (let index = 0; index < 4; index += 1) {
        responses.push(
          await t.request('POST', '/v2/agent/docs/job', { body: { prompt: `unknown ${index}` } }),
        );
      }
      expect(responses.map((response) => response.status)).toEqual([201, 201, 201, 429]);
      const last = responses[3]!;
      expect(last.body).toMatchObject({
        code: 'rate_limited',
        retryable: true,
        error: expect.stringMatching(/at most 3 job creations per hour/),
      });
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(3500);
      expect(last.headers.get('ratelimit-remaining')).toBe('0');
      // Another project has its own budget; messages have their own budget.
      expect(
        (await t.request('POST', '/v2/agent/other/job', { key: t.otherKey, body: { prompt: 'x' } })).status,
      ).toBe(201);
      const { body: jobs } = await t.request('GET', '/v2/agent/docs/jobs');
      const id = jobs.jobs[0].id;
      const messages = [];
      for (let index = 0; index < 4; index += 1) {
        messages.push(
          (await t.request('POST', `/v2/agent/docs/job/${id}/message`, { body: { prompt: 'again' } })).status,
        );
      }
      expect(messages).toEqual([200, 200, 200, 429]);
      // A message refused for another reason gives its use back.
      const other = await t.request('POST', '/v2/agent/other/job', {
        key: t.otherKey,
        body: { prompt: 'x' },
      });
      await t.request('POST', `/v2/agent/other/job/nope/message`, { key: t.otherKey, body: { prompt: 'x' } });
      const after = await t.request('POST', `/v2/agent/other/job/${other.body.id}/message`, {
        key: t.otherKey,
        body: { prompt: 'x' },
      });
      expect(after.headers.get('ratelimit-remaining')).toBe('2');
    } finally {
      await t.cleanup();
    }
  });

  it('spends no use on messages refused with 400, 404 or 409, however many', async () => {
    const t = await startTestService({ config: { jobRateLimit: 3 }, startWorker: false });
    try {
      const open = await t.request('POST', '/v2/agent/docs/job', { body: { prompt: 'x' } });
      const archived = await t.request('POST', '/v2/agent/docs/job', { body: { prompt: 'y' } });
      await t.request('POST', `/v2/agent/docs/job/${archived.body.id}/archive`);
      const refused = [];
      for (let index = 0; index < 20; index += 1) {
        const [target, body] = [
          [`/v2/agent/docs/job/nope-${index}/message`, { prompt: 'x' }],
          [`/v2/agent/docs/job/${archived.body.id}/message`, { prompt: 'x' }],
          [`/v2/agent/docs/job/${open.body.id}/message`, { prompt: '  ' }],
        ][index % 3]!;
        refused.push((await t.request('POST', target as string, { body })).status);
      }
      expect(new Set(refused)).toEqual(new Set([404, 409, 400]));
      const accepted = await t.request('POST', `/v2/agent/docs/job/${open.body.id}/message`, {
        body: { prompt: 'a real follow-up' },
      });
      expect(accepted.status).toBe(200);
      expect(accepted.headers.get('ratelimit-remaining')).toBe('2');
    } finally {
      await t.cleanup();
    }
  });
});
