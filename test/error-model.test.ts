import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentResolver } from '../src/agent/registry.js';
import type { Agent, AgentResult, AgentRunInput } from '../src/agent/types.js';
import { ESLint } from 'eslint';
import { ActionError } from '../src/action/action-error.js';
import { ToolRefusal } from '../src/agent/tools/tool-refusal.js';
import { UsageError } from '../src/cli/exit-codes.js';
import { asError, ConfigError, DocwrightError, isRetryable, UnrecoverableError } from '../src/core/errors.js';
import { SettingsError } from '../src/github/settings.js';
import { statusOf } from '../src/http/error-status.js';
import { HubSilentError, HubStatusError } from '../src/models/local-embeddings/bounded-fetch.js';
import { InvalidDocsRootError, parseDocsRoot } from '../src/write-policy/index.js';
import { GitCommandError } from '../src/forge/git-command.js';
import { silentLogger } from '../src/core/logger.js';
import { ErrorBodySchema } from '../src/protocol/error.js';
import { errorResponse } from '../src/server/errors.js';
import { ApiError, DocwrightClient } from '../src/client/index.js';
import { DO_NOT_RETRY, policyOptions } from '../src/github-api/octokit.js';
import { classifyRequestError, gitHubFailure } from '../src/github-api/request-error.js';
import { namedStorageError } from '../src/store/index.js';
import { startTestService, type TestService } from './helpers/service.js';

/** The built-in agent, with its result or its failure changed by the test; it counts its runs. */
class ScriptedFailureAgent implements Agent {
  readonly model = 'builtin';
  private readonly inner = createAgentResolver()('builtin');
  runs = 0;
  constructor(
    private readonly script: (run: number, result: () => Promise<AgentResult>) => Promise<AgentResult>,
  ) {}

  run(input: AgentRunInput): Promise<AgentResult> {
    this.runs += 1;
    return this.script(this.runs, () => this.inner.run(input));
  }
}

const silentOctokitLog = { warn: () => {}, debug: () => {} };
const JOB = {
  id: 'j1',
  status: 'active',
  source: { repository: 'file:///r', ref: 'docwright/job-j1' },
  model: 'builtin',
  prLink: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  archivedAt: null,
};

let t: TestService | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

/** A service whose worker looks for work every 10 ms, so attempts can be counted quickly. */
function serviceWith(agent: Agent): Promise<TestService> {
  return startTestService({
    overrides: { agentFor: () => agent, worker: { pollMs: 10 } },
  });
}

async function createJob(service: TestService, prompt = 'replace "Acme Cloud" with "Acme Errors"') {
  const { body } = await service.request('POST', '/v2/agent/docs/job', { body: { prompt } });
  return body.id as string;
}

describe('errors that know whether to retry', () => {
  it('fails a job at once, in words, when git refuses the work for good', async () => {
    // Control characters never reach a commit message any more, so git's refusal is raised
    // directly, as the forge raises it, to see the worker give up after one run.
    const agent = new ScriptedFailureAgent(() =>
      Promise.reject(
        new GitCommandError(['commit-tree'], 128, 'error: a NUL byte in commit log message not allowed.'),
      ),
    );
    t = await serviceWith(agent);
    const job = await t.waitForJob(await createJob(t), ['completed', 'failed'], 10_000);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/NUL byte/);
    expect(agent.runs).toBe(1);
  });

  it('cleans a NUL byte out of a title before git sees it, so the job completes in one run', async () => {
    const agent = new ScriptedFailureAgent(async (_run, result) => ({
      ...(await result()),
      title: 'a title with a \0 NUL byte',
    }));
    t = await serviceWith(agent);
    const job = await t.waitForJob(await createJob(t), ['completed', 'failed'], 10_000);
    expect(job.status).toBe('completed');
    expect(agent.runs).toBe(1);
  });

  it('retries an error that says it may heal, then completes', async () => {
    const agent = new ScriptedFailureAgent(async (run, result) => {
      if (run < 3) throw new DocwrightError('unavailable', 'The model provider is overloaded');
      return result();
    });
    t = await serviceWith(agent);
    const job = await t.waitForJob(await createJob(t), ['completed', 'failed'], 10_000);
    expect(job.status).toBe('completed');
    expect(agent.runs).toBe(3);
  });

  it('does not retry an error of ours that says it will not heal', async () => {
    const agent = new ScriptedFailureAgent(() =>
      Promise.reject(
        new DocwrightError('conflict', 'The page was renamed by someone else', { retryable: false }),
      ),
    );
    t = await serviceWith(agent);
    const job = await t.waitForJob(await createJob(t), ['completed', 'failed'], 10_000);
    expect(job).toMatchObject({ status: 'failed', error: 'The page was renamed by someone else' });
    expect(agent.runs).toBe(1);
  });

  it('gives a plain Error from an unknown place three attempts, then fails with its message redacted', async () => {
    const token = `ghp_${'a1'.repeat(18)}`;
    const agent = new ScriptedFailureAgent(() => Promise.reject(new TypeError(`cannot read ${token}`)));
    t = await serviceWith(agent);
    const job = await t.waitForJob(await createJob(t), ['completed', 'failed'], 10_000);
    expect(job).toMatchObject({ status: 'failed', error: 'cannot read [REDACTED]' });
    expect(agent.runs).toBe(3);
  });
});

describe('the error tree', () => {
  it('is one tree: an unrecoverable error is a DocwrightError that is never retried', () => {
    const error = new UnrecoverableError('The base branch is gone');
    expect(DocwrightError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'job_failed', retryable: false, message: 'The base branch is gone' });
    expect(isRetryable(error)).toBe(false);
    expect(isRetryable(new Error('socket hang up'))).toBe(true);
  });

  it('recognises an error from another copy of the module by its marker, not its class', () => {
    const foreign = Object.assign(new Error('from a bundled copy'), {
      [Symbol.for('docwright.error')]: true,
    });
    expect(DocwrightError.isInstance(foreign)).toBe(true);
    expect(DocwrightError.isInstance(new Error('plain'))).toBe(false);
  });

  it('classifies git failures where git is run: refusals are final, lock contention heals', () => {
    const refused = new GitCommandError(
      ['commit-tree'],
      1,
      'error: a NUL byte in commit log message not allowed.',
    );
    const locked = new GitCommandError(
      ['update-index'],
      128,
      "fatal: Unable to create '/repo/.git/index.lock': File exists.",
    );
    const killed = new GitCommandError(['hash-object'], null, '');
    expect(refused).toMatchObject({ code: 'git_error', retryable: false });
    expect(locked.retryable).toBe(true);
    expect(killed.retryable).toBe(true);
  });

  it('chooses the HTTP status at the server edge only, from the code', async () => {
    const app = new Hono();
    app.onError((error, c) => errorResponse(error, c, silentLogger));
    app.get('/limited', () => {
      throw new DocwrightError('rate_limited', 'Too many requests', { headers: { 'Retry-After': '5' } });
    });
    app.get('/git', () => {
      throw new GitCommandError(['write-tree'], 128, 'fatal: /secret/path is broken');
    });
    app.get('/bug', () => {
      throw new TypeError("Cannot read properties of undefined (reading 'body')");
    });
    const limited = await app.request('/limited');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('5');
    expect(await limited.json()).toEqual({
      error: 'Too many requests',
      code: 'rate_limited',
      retryable: true,
    });
    expect((await app.request('/git')).status).toBe(500);
    const bug = await app.request('/bug');
    expect(bug.status).toBe(500);
    expect(await bug.json()).toEqual({
      error: 'Internal server error',
      code: 'internal_error',
      retryable: true,
    });
    // The wire and the error model say the same of a failure nobody understood.
    expect(new DocwrightError('internal_error', 'x').retryable).toBe(true);
    expect(isRetryable(new TypeError('x'))).toBe(true);
  });

  it('lists every code in the wire schema, so the OpenAPI document names them', () => {
    expect(ErrorBodySchema.safeParse({ error: 'x', code: 'not_found' }).success).toBe(true);
    expect(ErrorBodySchema.safeParse({ error: 'x', code: 'no_such_code' }).success).toBe(false);
  });
});

describe('one flag from the server to every caller', () => {
  const answer = (status: number, body: unknown) => () =>
    new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'content-type': typeof body === 'string' ? 'text/html' : 'application/json' },
    });
  /** A client whose fetch answers from `script`, counting requests, and never sleeps. */
  const clientOf = (script: (() => Response)[]) => {
    let requests = 0;
    const client = new DocwrightClient({
      baseUrl: 'http://api.test',
      apiKey: 'k',
      maxAttempts: 2,
      sleep: () => Promise.resolve(),
      fetch: () => {
        requests += 1;
        const next = script.shift();
        return Promise.resolve(next ? next() : new Response('{}', { status: 599 }));
      },
    });
    return { client, requests: () => requests };
  };

  it('repeats a create the server turned away before acting (its database down), even though POST is not safe', async () => {
    const down = { error: 'The database is unreachable', code: 'unavailable', retryable: true };
    const { client, requests } = clientOf([answer(503, down), answer(201, JOB)]);
    expect((await client.createJob('p', 'x')).id).toBe('j1');
    expect(requests()).toBe(2);
  });

  it("does not repeat a create after a proxy's 502: the server may have made the job", async () => {
    const { client, requests } = clientOf([answer(502, '<html>Bad gateway</html>')]);
    const error = await client.createJob('p', 'x').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 502, code: 'unavailable', retryable: false });
    expect(requests()).toBe(1);
  });

  it('repeats a read after the same 502, and never a conflict the server says will stay', async () => {
    const read = clientOf([answer(502, '<html>Bad gateway</html>'), answer(200, JOB)]);
    expect((await read.client.getJob('p', 'j1')).id).toBe('j1');
    expect(read.requests()).toBe(2);
    const archived = { error: 'Job j1 is archived', code: 'conflict', retryable: false };
    const message = clientOf([answer(409, archived)]);
    const error = await message.client.sendMessage('p', 'j1', 'x').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'conflict', retryable: false });
    expect(isRetryable(error)).toBe(false);
    expect(message.requests()).toBe(1);
  });

  it('tells a 404 by its code, whatever the status line says', async () => {
    const { client } = clientOf([answer(404, { error: 'Job j9 not found', code: 'not_found' })]);
    const error = await client.getJob('p', 'j9').catch((caught: unknown) => caught);
    expect(DocwrightError.isInstance(error) && error.code).toBe('not_found');
  });

  it("reads GitHub's refusals with the list Octokit's retry plugin is given: a 422 never heals", () => {
    const failure = (status: number, message: string, headers: Record<string, string> = {}) =>
      Object.assign(new Error(message), { status, response: { data: { message }, headers } });
    const retryable = (status: number, message = 'x', headers?: Record<string, string>) =>
      classifyRequestError(failure(status, message, headers))?.retryable;
    for (const status of DO_NOT_RETRY) expect(retryable(status), String(status)).toBe(false);
    expect(retryable(422, 'Reference already exists')).toBe(false);
    expect(retryable(409, 'Reference update failed')).toBe(true);
    expect(retryable(502)).toBe(true);
    expect(retryable(403, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0' })).toBe(true);
    expect(policyOptions({ log: silentOctokitLog }).retry.doNotRetry).toEqual([...DO_NOT_RETRY]);
  });
});

describe('storage faults, named at the store', () => {
  const fault = (error: unknown) => {
    const named = namedStorageError(error);
    return DocwrightError.isInstance(named)
      ? { code: named.code, retryable: named.retryable, headers: named.headers }
      : null;
  };
  const unavailable = { code: 'unavailable', retryable: true, headers: { 'Retry-After': '5' } };
  const full = { code: 'storage_full', retryable: true, headers: { 'Retry-After': '60' } };

  it("reads node-postgres's ways of saying the server went away", () => {
    expect(
      fault(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ),
    ).toEqual(unavailable);
    expect(fault(new Error('Connection terminated unexpectedly'))).toEqual(unavailable);
    expect(fault(new Error('timeout exceeded when trying to connect'))).toEqual(unavailable);
    expect(
      fault(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    ).toEqual(unavailable);
    expect(fault(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: '08006' }) }))).toEqual(
      unavailable,
    );
  });

  it('reads a full disk from SQLite, PostgreSQL and the filesystem', () => {
    expect(fault(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toEqual(
      full,
    );
    expect(fault(Object.assign(new Error('could not extend file'), { code: '53100' }))).toEqual(full);
    expect(fault(Object.assign(new Error('write failed'), { code: 'ENOSPC' }))).toEqual(full);
  });

  it('leaves every other error as it is', () => {
    expect(fault(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeNull();
    expect(fault(new TypeError('undefined is not a function'))).toBeNull();
  });

  it('answers 503 and 507 with Retry-After at the server edge, not a 500', async () => {
    const app = new Hono();
    app.onError((error, c) => errorResponse(error, c, silentLogger));
    app.get('/down', () => {
      throw new Error('Connection terminated unexpectedly');
    });
    app.get('/full', () => {
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    });
    const down = await app.request('/down');
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect(await down.json()).toMatchObject({ code: 'unavailable', retryable: true });
    const filled = await app.request('/full');
    expect(filled.status).toBe(507);
    expect(await filled.json()).toMatchObject({ code: 'storage_full', retryable: true });
  });
});

describe('one error model in src/', () => {
  /** The error-model rule's findings on `code` as if it were the file at `filePath`. */
  async function findings(filePath: string, code: string): Promise<string[]> {
    const [result] = await new ESLint().lintText(code, { filePath });
    return (result?.messages ?? [])
      .filter((message) => message.ruleId === 'no-restricted-syntax')
      .map((message) => message.message);
  }

  it('fails the lint step on a plain Error made in src/, and on a class of errors beside DocwrightError', async () => {
    const samples = [
      "export function f() {\n  throw new Error('x');\n}\n",
      "export const p = Promise.reject(new Error('x'));\n",
      "export const e = Error('x');\n",
      'export class Broken extends Error {}\n',
      'export const Broken = class extends Error {};\n',
    ];
    for (const sample of samples)
      expect(await findings('src/forge/overlay.ts', sample), sample).toEqual([
        expect.stringContaining('DocwrightError'),
      ]);
    expect(
      await findings(
        'src/forge/overlay.ts',
        "import { asError, DocwrightError } from '../core/errors.js';\n" +
          'export class Refused extends DocwrightError {}\n' +
          "export const e = new DocwrightError('not_found', 'x');\n" +
          'export const wrapped = asError(1);\n',
      ),
    ).toEqual([]);
    // The error module makes the base class and wraps what libraries throw.
    expect(await findings('src/core/errors.ts', "export const e = new Error('x');\n")).toEqual([]);
  }, 120_000);

  it('keeps each subclass its name, its code, its retryable and its own fields', () => {
    const cases: [Error, string, string, boolean][] = [
      [new ConfigError('APP_ID is missing'), 'ConfigError', 'internal_error', false],
      [new UsageError('--port takes a number'), 'UsageError', 'invalid_request', false],
      [new ActionError('Exactly this.'), 'ActionError', 'invalid_request', false],
      [new SettingsError('bad key', '/docwright'), 'SettingsError', 'invalid_request', false],
      [new ToolRefusal('a.md is a binary file'), 'ToolRefusal', 'invalid_request', false],
      [new HubSilentError('https://hub/x', 5000), 'HubSilentError', 'unavailable', true],
      [new HubStatusError('https://hub/x answered 503', 503), 'HubStatusError', 'unavailable', true],
      [new HubStatusError('https://hub/x answered 404', 404), 'HubStatusError', 'unavailable', false],
    ];
    for (const [error, name, code, retryable] of cases) {
      expect(DocwrightError.isInstance(error), name).toBe(true);
      expect(error, name).toBeInstanceOf(DocwrightError);
      expect(error, name).toMatchObject({ name, code, retryable });
    }
    expect(() => parseDocsRoot('../outside')).toThrow(InvalidDocsRootError);
    try {
      parseDocsRoot('../outside');
    } catch (error) {
      expect(error).toMatchObject({
        name: 'InvalidDocsRootError',
        code: 'invalid_request',
        retryable: false,
      });
    }
    expect(new SettingsError('bad key', '/docwright').command).toBe('/docwright');
    expect(new ActionError('GitHub is down', { code: 'forge_error', retryable: true })).toMatchObject({
      code: 'forge_error',
      retryable: true,
    });
    const cause = new Error('EADDRINUSE');
    expect(new ConfigError('Port 3000 is in use', { cause }).cause).toBe(cause);
  });

  it('answers a setting that cannot be used as the server fault it is, in its words', async () => {
    const app = new Hono();
    app.onError((error, c) => errorResponse(error, c, silentLogger));
    app.get('/config', () => {
      throw new ConfigError('OPENAI_API_KEY is missing');
    });
    const response = await app.request('/config');
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: 'OPENAI_API_KEY is missing',
      code: 'internal_error',
      retryable: false,
    });
  });

  it('raises a GitHub failure as forge_error whether or not it may heal', () => {
    const answer = (status: number, message: string) =>
      Object.assign(new Error(message), { status, response: { data: { message }, headers: {} } });
    const refused = classifyRequestError(answer(403, 'Resource not accessible by integration'))!;
    const down = classifyRequestError(answer(502, 'Server Error'))!;
    expect(gitHubFailure('The token lacks permission', refused)).toMatchObject({
      code: 'forge_error',
      retryable: false,
    });
    expect(gitHubFailure('GitHub failed to answer', down)).toMatchObject({
      code: 'forge_error',
      retryable: true,
    });
    expect(statusOf(gitHubFailure('x', refused))).toBe(502);
    expect(statusOf(gitHubFailure('x', down))).toBe(502);
  });

  it('wraps what a library threw without making it one of ours', () => {
    const thrown = new TypeError('x');
    expect(asError(thrown)).toBe(thrown);
    const wrapped = asError('socket hang up');
    expect(wrapped).toBeInstanceOf(Error);
    expect(wrapped.message).toBe('socket hang up');
    expect(isRetryable(wrapped)).toBe(true);
    expect(DocwrightError.isInstance(wrapped)).toBe(false);
  });
});
