/**
 * `run()` as the runner calls it: inputs from INPUT_* variables, the event from GITHUB_EVENT_PATH,
 * outputs and the job summary into GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, the real
 * workflow commands on stdout, and nock for the API.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import nock from 'nock';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../src/action/main.js';
import { examplePayload, jobFixture } from './helpers/github-recorder.js';
import { actionStepOutput } from './helpers/action-step.js';

const API = 'https://docwright.test';
const KEY = 'svc_0123456789abcdefghijklmnopqrstuvwxyzABCD';
const job = jobFixture;

let dir: string;
const stdout = actionStepOutput();
// Every test writes its summary to one file, emptied before each run.
let summaryPath: string;

async function runWith(event: { name: string; payload: unknown }, inputs: Record<string, string>) {
  const eventPath = path.join(dir, 'event.json');
  const outputPath = path.join(dir, 'output');
  await fs.writeFile(eventPath, JSON.stringify(event.payload));
  await fs.writeFile(outputPath, '');
  await fs.writeFile(summaryPath, '');
  vi.stubEnv('GITHUB_EVENT_NAME', event.name);
  vi.stubEnv('GITHUB_EVENT_PATH', eventPath);
  vi.stubEnv('GITHUB_OUTPUT', outputPath);
  vi.stubEnv('GITHUB_STEP_SUMMARY', summaryPath);
  vi.stubEnv('GITHUB_API_URL', 'https://api.github.com');
  const all = {
    'api-key': KEY,
    'project-id': 'docs',
    'base-url': API,
    'poll-interval-seconds': '1',
    ...inputs,
  };
  for (const [name, value] of Object.entries(all)) vi.stubEnv(`INPUT_${name.toUpperCase()}`, value);
  const started = Date.now();
  await run();
  return {
    elapsedMs: Date.now() - started,
    exitCode: process.exitCode,
    outputs: parseOutputs(await fs.readFile(outputPath, 'utf8')),
    summary: await fs.readFile(summaryPath, 'utf8'),
    stdout: stdout.join(''),
  };
}

function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const match of text.matchAll(/^(.+?)<<(.+)\n([\s\S]*?)\n\2$/gm)) outputs[match[1]!] = match[3]!;
  return outputs;
}

const dispatch = { name: 'workflow_dispatch', payload: examplePayload('workflow_dispatch', undefined) };

beforeAll(async () => {
  nock.disableNetConnect();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-action-run-'));
  summaryPath = path.join(dir, 'summary.md');
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe('run()', () => {
  it('creates a job from the prompt input, waits for it, and writes the outputs and the job summary', async () => {
    nock(API)
      .post('/v2/agent/docs/job', { prompt: 'fix the quickstart link' })
      .matchHeader('user-agent', 'docwright-action')
      .reply(201, job())
      .get('/v2/agent/docs/job/job23')
      .reply(200, job({ status: 'completed', prLink: 'https://github.com/Codertocat/Hello-World/pull/3' }));
    const result = await runWith(dispatch, { prompt: 'fix the quickstart link' });
    expect(result.exitCode).toBeUndefined();
    expect(result.outputs).toEqual({
      'job-id': 'job23',
      status: 'completed',
      'pr-link': 'https://github.com/Codertocat/Hello-World/pull/3',
      created: 'true',
      changed: '',
      'comment-id': '',
      usage: '',
    });
    expect(result.summary).toContain('| Job | `job23` in project `docs` |');
    expect(result.summary).toContain('| Pull request | https://github.com/Codertocat/Hello-World/pull/3 |');
    // The key appears once, in the command that tells the runner to mask it.
    expect(result.stdout.startsWith(`::add-mask::${KEY}\n`)).toBe(true);
    expect(result.stdout.split(KEY)).toHaveLength(2);
  });

  it("sends the step's limits with the job, and shows what the run spent as the server reports it", async () => {
    const usage = {
      inputTokens: 1200,
      outputTokens: 90,
      modelCalls: 3,
      toolCalls: 2,
      wallMs: 4100,
      costUsd: 0.012,
    };
    nock(API)
      .post('/v2/agent/docs/job', { prompt: 'fix the link', budget: { max_turns: 30, max_cost: 2.5 } })
      .reply(201, job())
      .get('/v2/agent/docs/job/job23')
      .reply(
        200,
        job({
          status: 'completed',
          prLink: 'https://github.com/Codertocat/Hello-World/pull/3',
          usage,
          messages: [
            { role: 'user', content: 'fix the link', createdAt: '2026-11-28T10:00:00.000Z' },
            { role: 'agent', content: 'Fixed.', createdAt: '2026-11-28T10:00:05.000Z', changed: true, usage },
          ],
        }),
      );
    const result = await runWith(dispatch, { prompt: 'fix the link', 'max-turns': '30', 'max-cost': '2.5' });
    expect(result.exitCode).toBeUndefined();
    expect(JSON.parse(result.outputs.usage!)).toEqual(usage);
    expect(result.summary).toContain(
      '| Usage | 1,290 tokens (1,200 in, 90 out) in 3 model calls and 2 tool calls, 4.1 s, about $0.0120 |',
    );
  });

  it('sends a follow-up to job-id and returns right away with wait: false', async () => {
    nock(API).post('/v2/agent/docs/job/job23/message', { prompt: 'also the title' }).reply(200, job());
    const result = await runWith(dispatch, { prompt: 'also the title', 'job-id': 'job23', wait: 'false' });
    expect(result.exitCode).toBeUndefined();
    expect(result.outputs).toMatchObject({ 'job-id': 'job23', status: 'active', created: 'false' });
    expect(result.summary).toContain('active (not waited for)');
  });

  it('fails with a sentence when there is no prompt, or the inputs are wrong', async () => {
    const noPrompt = await runWith({ name: 'schedule', payload: { schedule: '0 6 * * 1' } }, {});
    expect(noPrompt.exitCode).toBe(1);
    expect(noPrompt.stdout).toContain(
      '::error::No prompt: on schedule events the `prompt` input says what to change',
    );
    expect(noPrompt.outputs).toEqual({});

    // No `base-url` but a key and a project: a server was meant, so the inputs are wrong, not the mode.
    const wrong = await runWith(dispatch, { prompt: 'x', wait: 'maybe', 'base-url': '' });
    expect(wrong.stdout).toContain(
      '::error::Invalid inputs: `api-key` and `project-id` are set but `base-url` is not: give all three to use a docwright server, or none to run the job in the runner; `wait` must be true or false',
    );
  });

  it('fails with the reason when the job fails, after setting the outputs', async () => {
    nock(API)
      .post('/v2/agent/docs/job')
      .reply(201, job())
      .get('/v2/agent/docs/job/job23')
      .reply(200, job({ status: 'failed', error: 'No page matches "Acme Cloud"' }));
    const result = await runWith(dispatch, { prompt: 'fix it' });
    expect(result.exitCode).toBe(1);
    expect(result.outputs).toMatchObject({ status: 'failed' });
    expect(result.stdout).toContain('::error::Job job23 failed: No page matches "Acme Cloud".');
  });

  it('fails with an explanation when the server refuses the key', async () => {
    nock(API)
      .post('/v2/agent/docs/job')
      .reply(403, { error: 'This key cannot use project docs', code: 'forbidden' });
    const result = await runWith(dispatch, { prompt: 'fix it' });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('::error::The API key is not allowed to use project "docs" (403)');
  });

  it('ends quickly and successfully with empty outputs on a comment without the command, and ignores bots', async () => {
    const chat = examplePayload('issue_comment', 'created', (payload) => {
      payload.comment.body = 'Looks good to me';
    });
    // Without secrets too (a fork's review comment): the inputs are only checked for commands.
    const result = await runWith(
      { name: 'issue_comment', payload: chat },
      { 'github-token': 'ghs_x', 'api-key': '', 'base-url': '' },
    );
    expect(result.exitCode).toBeUndefined();
    expect(result.outputs).toEqual({});
    expect(result.summary).toBe('');
    expect(result.elapsedMs).toBeLessThan(1000);
    expect(result.stdout).toContain('The comment does not start with /docs.');

    const byBot = examplePayload('issue_comment', 'created', (payload) => {
      payload.comment.body = '/docs bump versions';
      payload.comment.user.login = 'dependabot[bot]';
      payload.comment.user.type = 'Bot';
    });
    const ignored = await runWith({ name: 'issue_comment', payload: byBot }, { 'github-token': 'ghs_x' });
    expect(ignored.exitCode).toBeUndefined();
    expect(ignored.outputs).toEqual({});
    expect(ignored.stdout).toContain('dependabot[bot] is a bot that is not listed in `allowed-bots`.');
  });
});
