import { createRequire } from 'node:module';
import nock from 'nock';
import { ProbotOctokit } from 'probot';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { classifyRequestError } from '../src/github-api/request-error.js';
import { createOctokit, withPolicy, type RequestPolicy } from '../src/github-api/octokit.js';
import { TEST_THROTTLE } from './fixtures/bot/harness.js';

const errors = createRequire(import.meta.url)('./fixtures/github/errors.json') as Record<string, unknown>;
const API = 'https://ghe.example.com/api/v3';
const COMMENTS = '/repos/octo-org/docs-site/issues/12/comments';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

/** The same policy, as the Action and token mode get it and as Probot's installation clients do. */
const clients: [
  string,
  (policy: RequestPolicy) => { request: (route: string, options: object) => Promise<unknown> },
][] = [
  [
    'createOctokit',
    (policy) => createOctokit({ ...policy, auth: 'ghp_test', baseUrl: API, userAgent: 'docwright-test' }),
  ],
  ['Probot', (policy) => new (withPolicy(ProbotOctokit, policy))({ auth: 'ghp_test', baseUrl: API })],
];

describe.each(clients)('the one request policy (%s)', (_name, client) => {
  it('waits out a secondary rate limit, then retries a 502 on a write, and the write lands once', async () => {
    const warnings: string[] = [];
    // Writes stay paced in production (a second apart, comments three); the pacing is not under test.
    const octokit = client({
      log: { warn: (message) => warnings.push(message), debug: () => {} },
      retryAfterBaseValue: 1,
      throttle: TEST_THROTTLE,
    });
    const bodies: unknown[] = [];
    const scope = nock(API)
      .post(COMMENTS, (body) => bodies.push(body) > 0)
      .reply(403, errors.secondaryRateLimit as object, { 'retry-after': '1' })
      .post(COMMENTS, (body) => bodies.push(body) > 0)
      .reply(502, errors.badGateway as object)
      .post(COMMENTS, (body) => bodies.push(body) > 0)
      .reply(201, { id: 1, body: 'Working on it' });
    const answer = (await octokit.request(`POST ${COMMENTS}`, { body: 'Working on it' })) as {
      status: number;
      data: { id: number };
    };
    expect(answer.status).toBe(201);
    expect(answer.data.id).toBe(1);
    expect(scope.isDone()).toBe(true);
    expect(bodies).toEqual([{ body: 'Working on it' }, { body: 'Working on it' }, { body: 'Working on it' }]);
    expect(warnings.join('\n')).toMatch(/secondary rate limit on POST .*comments; retrying after 1 s/);
  });

  it('gives up after two rate-limit retries, and the error says it may work later', async () => {
    const octokit = client({
      log: { warn: () => {}, debug: () => {} },
      retryAfterBaseValue: 1,
      throttle: TEST_THROTTLE,
    });
    nock(API)
      .post(COMMENTS)
      .times(3)
      .reply(403, errors.secondaryRateLimit as object, { 'retry-after': '1' });
    const failure = await octokit.request(`POST ${COMMENTS}`, { body: 'x' }).catch((error: unknown) => error);
    expect(classifyRequestError(failure)).toMatchObject({
      status: 403,
      kind: 'rate-limited',
      retryable: true,
      request: `POST /api/v3${COMMENTS}`,
    });
    expect(nock.pendingMocks()).toEqual([]);
  });
});

describe('the request-error classifier', () => {
  const failure = (status: number, data: object) =>
    Object.assign(new Error('failed'), {
      status,
      request: { method: 'GET', url: `${API}/repos/o/r?x=1` },
      response: { data, headers: {} },
    });

  it('says which failures heal with time', () => {
    expect(classifyRequestError(failure(401, { message: 'Bad credentials' }))).toMatchObject({
      kind: 'credentials',
      retryable: false,
      request: 'GET /api/v3/repos/o/r',
    });
    expect(
      classifyRequestError(failure(403, { message: 'Resource not accessible by integration' })),
    ).toMatchObject({ kind: 'forbidden', retryable: false });
    expect(classifyRequestError(failure(404, { message: 'Not Found' }))).toMatchObject({
      kind: 'not-found',
      retryable: false,
    });
    expect(classifyRequestError(failure(503, { message: 'Unavailable' }))).toMatchObject({
      kind: 'unavailable',
      retryable: true,
    });
    expect(classifyRequestError(new Error('socket hang up'))).toBeNull();
  });
});
