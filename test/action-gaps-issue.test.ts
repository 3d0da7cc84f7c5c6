/**
 * `gaps-issue: true` on a schedule, through the Action's real entry: inputs from INPUT_*, the event
 * from GITHUB_EVENT_PATH, the workflow commands on stdout, nock for the server.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import nock from 'nock';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../src/action/main.js';
import { jobFixture } from './helpers/github-recorder.js';
import { actionStepOutput } from './helpers/action-step.js';

const API = 'https://docwright.test';
const KEY = 'svc_0123456789abcdefghijklmnopqrstuvwxyzABCD';
const schedule = { name: 'schedule', payload: { schedule: '0 6 * * 1' } };

let dir: string;
const stdout = actionStepOutput();

async function runWith(event: { name: string; payload: unknown }, inputs: Record<string, string>) {
  const eventPath = path.join(dir, 'event.json');
  await fs.writeFile(eventPath, JSON.stringify(event.payload));
  await fs.writeFile(path.join(dir, 'output'), '');
  await fs.writeFile(path.join(dir, 'summary.md'), '');
  vi.stubEnv('GITHUB_EVENT_NAME', event.name);
  vi.stubEnv('GITHUB_EVENT_PATH', eventPath);
  vi.stubEnv('GITHUB_OUTPUT', path.join(dir, 'output'));
  vi.stubEnv('GITHUB_STEP_SUMMARY', path.join(dir, 'summary.md'));
  vi.stubEnv('GITHUB_API_URL', 'https://api.github.com');
  const all = {
    'api-key': KEY,
    'project-id': 'docs',
    'base-url': API,
    'poll-interval-seconds': '1',
    ...inputs,
  };
  for (const [name, value] of Object.entries(all)) vi.stubEnv(`INPUT_${name.toUpperCase()}`, value);
  await run();
  return { exitCode: process.exitCode, stdout: stdout.join('') };
}

beforeAll(async () => {
  nock.disableNetConnect();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-action-gaps-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe('gaps-issue: true on a schedule', () => {
  it('has the server refresh the Docs gaps issue, and with no prompt does nothing else', async () => {
    nock(API)
      .post('/v2/agent/docs/gaps/issue')
      .matchHeader('authorization', `Bearer ${KEY}`)
      .matchHeader('user-agent', 'docwright-action')
      .reply(200, { issue: 12, created: false, gaps: 3 });
    const result = await runWith(schedule, { 'gaps-issue': 'true' });
    expect(result.exitCode).toBeUndefined();
    expect(result.stdout).toContain(
      '::notice::The "Docs gaps" issue #12 of project docs was updated: 3 gap(s).',
    );
  });

  it('then runs the prompt as a job when there is one', async () => {
    nock(API)
      .post('/v2/agent/docs/gaps/issue')
      .reply(200, { issue: 12, created: true, gaps: 1 })
      .post('/v2/agent/docs/job', { prompt: 'fix the quickstart link' })
      .reply(201, jobFixture())
      .get('/v2/agent/docs/job/job23')
      .reply(200, jobFixture({ status: 'completed' }));
    const result = await runWith(schedule, { 'gaps-issue': 'true', prompt: 'fix the quickstart link' });
    expect(result.stdout).toContain('was opened: 1 gap(s).');
    expect(result.exitCode).toBeUndefined();
  });

  it('fails with the server’s sentence, and needs a server', async () => {
    nock(API).post('/v2/agent/docs/gaps/issue').reply(409, {
      error:
        'The settings of octo-org/docs do not ask for the "Docs gaps" issue: add `gaps: { issue: true }` to .github/docwright.yml',
      code: 'conflict',
      retryable: false,
    });
    const refused = await runWith(schedule, { 'gaps-issue': 'true' });
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toContain('do not ask for the "Docs gaps" issue');

    const runner = await runWith(schedule, {
      'gaps-issue': 'true',
      'base-url': '',
      'api-key': '',
      'project-id': '',
    });
    expect(runner.exitCode).toBe(1);
    expect(runner.stdout).toContain(
      "::error::Invalid inputs: `gaps-issue` needs a docwright server (`base-url`, `api-key` and `project-id`): the server keeps the readers' questions the issue lists.",
    );
  });
});
