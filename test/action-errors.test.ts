import { once } from 'node:events';
import net from 'node:net';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ActionError } from '../src/action/action-error.js';
import { describeError } from '../src/action/describe-error.js';
import { ApiTimeoutError, DocwrightClient } from '../src/client/index.js';
import { quietOctokit } from './helpers/github-recorder.js';

const API = 'https://docwright.test';
const context = { baseUrl: API, projectId: 'docs' };
const client = new DocwrightClient({
  baseUrl: API,
  apiKey: 'svc_secret',
  maxAttempts: 2,
  sleep: () => Promise.resolve(),
});

/** The error the real client throws when the server answers `status` with `body` to a create. */
async function refusal(
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<unknown> {
  const scope = nock(API)
    .post('/v2/agent/docs/job')
    // Only a 429 is repeated for a create: after a 5xx the job may exist already.
    .times(status === 429 ? 2 : 1)
    .reply(status, body, headers);
  const error = await client.createJob('docs', 'fix it').catch((caught: unknown) => caught);
  scope.done();
  return error;
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  expect(nock.pendingMocks()).toEqual([]);
  nock.cleanAll();
});

describe('describeError', () => {
  it('explains 401: the key is not one of this server', async () => {
    const error = await refusal(401, { error: 'Invalid API key', code: 'unauthorized' });
    expect(describeError(error, context)).toBe(
      'The docwright server did not accept the API key (401) (the server said: Invalid API key). Check that the `api-key` secret holds an admin key (svc_…) issued by https://docwright.test.',
    );
  });

  it('explains 403: the key belongs to another project', async () => {
    const error = await refusal(403, { error: 'This key cannot use project docs', code: 'forbidden' });
    expect(describeError(error, context)).toMatch(
      /^The API key is not allowed to use project "docs" \(403\).*check `project-id` and `api-key`\.$/,
    );
  });

  it('explains 404: the project or job is unknown, or the address is wrong', async () => {
    const error = await refusal(404, { error: 'Project docs not found', code: 'not_found' });
    expect(describeError(error, context)).toBe(
      'Not found (404) (the server said: Project docs not found). Check `project-id`, `job-id` and that `base-url` points at a docwright server.',
    );
  });

  it('explains 429 after the client retried, with the wait the server asked for', async () => {
    const error = await refusal(
      429,
      { error: 'Rate limit exceeded', code: 'rate_limited' },
      { 'retry-after': '120' },
    );
    const sentence = describeError(error, context);
    expect(sentence).toContain('rate limit for project "docs" was reached (429) and retrying did not help');
    expect(sentence).toContain('it asked to wait 120 seconds');
  });

  it('explains 409, 5xx, 400 and 413 too', async () => {
    expect(describeError(await refusal(409, { error: 'Job job23 is archived' }), context)).toContain(
      'archived job takes no more messages',
    );
    expect(describeError(await refusal(503, { error: 'Internal server error' }), context)).toContain(
      'failed (503)',
    );
    expect(describeError(await refusal(400, { error: 'prompt must not be empty' }), context)).toContain(
      'invalid (the server said: prompt must not be empty)',
    );
    expect(describeError(await refusal(413, { error: 'Too large' }), context)).toContain('too large');
  });

  it('explains an unreachable server, a timeout, and an answer that is not a job', async () => {
    // A real refused connection: a port that was free a moment ago.
    const listener = net.createServer().listen(0, '127.0.0.1');
    await once(listener, 'listening');
    const closed = `http://127.0.0.1:${(listener.address() as net.AddressInfo).port}`;
    await new Promise((resolve) => listener.close(resolve));
    nock.enableNetConnect('127.0.0.1');
    const unreachable = await new DocwrightClient({ baseUrl: closed, apiKey: 'k', maxAttempts: 1 })
      .createJob('docs', 'x')
      .catch((error: unknown) => error);
    nock.disableNetConnect();
    expect(describeError(unreachable, { ...context, baseUrl: closed })).toMatch(
      /^Could not reach the docwright server at http:\/\/127\.0\.0\.1:\d+: connect ECONNREFUSED .+\. Check `base-url` and that the server is reachable from the runner\.$/,
    );
    expect(
      describeError(new ApiTimeoutError('POST /v2/agent/docs/job timed out after 30000 ms', 'POST'), context),
    ).toContain('did not answer in time');
    nock(API).post('/v2/agent/docs/job').reply(201, { hello: 'world' });
    expect(
      describeError(await client.createJob('docs', 'x').catch((error: unknown) => error), context),
    ).toContain('not a docwright job');
    expect(describeError(new ActionError('Exactly this.'), context)).toBe('Exactly this.');
  });

  it('explains a GitHub refusal with the permissions the workflow needs, without the token', async () => {
    nock('https://api.github.com')
      .post('/repos/o/r/issues/1/comments')
      .reply(403, { message: 'Resource not accessible by integration' });
    const error = await quietOctokit()
      .rest.issues.createComment({ owner: 'o', repo: 'r', issue_number: 1, body: 'x' })
      .catch((caught: unknown) => caught);
    const sentence = describeError(error, context);
    expect(sentence).toMatch(
      /^GitHub refused POST \/repos\/o\/r\/issues\/1\/comments \(403: Resource not accessible by integration/,
    );
    expect(sentence).toContain('issues: write, pull-requests: write');
    expect(sentence).not.toContain('test-token');
  });
});
