import fs from 'node:fs';
import { WorkflowCommands } from '../src/action/workflow-commands.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseInputs } from '../src/action/inputs.js';

/** Sets inputs the way the runner does: `INPUT_<NAME>` with the name upper-cased, hyphens kept. */
function setInputs(values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) vi.stubEnv(`INPUT_${name.toUpperCase()}`, value);
}
const required = {
  'api-key': 'svc_secret',
  'project-id': 'docs',
  'base-url': 'https://docwright.example.com/',
};
const read = (name: string) => new WorkflowCommands(process.env).getInput(name);

afterEach(() => vi.unstubAllEnvs());

/** action.yml's inputs and their defaults, read line by line (the file is flat and ours). */
function actionYmlDefaults(): Record<string, string> {
  const text = fs.readFileSync('action.yml', 'utf8');
  const section = text.slice(text.indexOf('\ninputs:'), text.indexOf('\noutputs:'));
  const defaults: Record<string, string> = {};
  let current = '';
  for (const line of section.split('\n')) {
    const name = /^ {2}([a-z-]+):$/.exec(line)?.[1];
    if (name) current = name;
    const value = /^ {4}default: (.*)$/.exec(line)?.[1];
    if (value !== undefined) defaults[current] = value.replace(/^'(.*)'$/, '$1');
  }
  return defaults;
}

describe('parseInputs', () => {
  it('reads INPUT_* variables and applies the defaults of action.yml', () => {
    setInputs(required);
    expect(parseInputs(read)).toEqual({
      mode: 'server',
      apiKey: 'svc_secret',
      projectId: 'docs',
      baseUrl: 'https://docwright.example.com',
      prompt: '',
      jobId: null,
      command: '/docs',
      wait: true,
      timeoutMs: 30 * 60_000,
      pollIntervalMs: 10_000,
      githubToken: '',
      comment: true,
      permission: 'write',
      allowedBots: { all: false, logins: new Set() },
      model: '',
      budget: {},
    });
  });

  it('reads the limits of a job, and names a limit that is not a positive number', () => {
    setInputs({ ...required, 'max-turns': '3', 'max-tokens': '20000', 'max-cost': '0.5' });
    expect(parseInputs(read).budget).toEqual({ max_turns: 3, max_tokens: 20_000, max_cost: 0.5 });
    setInputs({ ...required, 'max-turns': '2.5', 'max-cost': 'five' });
    expect(() => parseInputs(read)).toThrow(
      'Invalid inputs: `max-turns` must be a whole number greater than 0, not "2.5"; `max-cost` must be a number greater than 0, not "five".',
    );
  });

  it('uses the same defaults as action.yml when the runner passes them', () => {
    const defaults = actionYmlDefaults();
    expect(Object.keys(defaults).sort()).toEqual(
      [
        'allowed-bots',
        'api-key',
        'base-url',
        'command',
        'comment',
        'docs',
        'docs-framework',
        'fail-on-stale',
        'gaps-issue',
        'github-token',
        'job-id',
        'max-cost',
        'max-tokens',
        'max-turns',
        'model',
        'permission',
        'poll-interval-seconds',
        'project-id',
        'prompt',
        'timeout-minutes',
        'wait',
      ].sort(),
    );
    // The runner substitutes `${{ github.token }}`; every other default is a plain value.
    expect(defaults['github-token']).toBe('${{ github.token }}');
    setInputs({ ...defaults, ...required, 'github-token': '' });
    const fromRunner = parseInputs(read);
    vi.unstubAllEnvs();
    setInputs(required);
    expect(parseInputs(read)).toEqual(fromRunner);
  });

  it('reads every input', () => {
    setInputs({
      ...required,
      prompt: 'fix the link',
      'job-id': 'job23',
      command: '/write',
      wait: 'False',
      'timeout-minutes': '2.5',
      'poll-interval-seconds': '3',
      'github-token': 'ghs_token',
      comment: 'FALSE',
      permission: 'maintain',
      'allowed-bots': 'renovate, dependabot[bot]',
    });
    expect(parseInputs(read)).toMatchObject({
      prompt: 'fix the link',
      jobId: 'job23',
      command: '/write',
      wait: false,
      timeoutMs: 150_000,
      pollIntervalMs: 3000,
      githubToken: 'ghs_token',
      comment: false,
      permission: 'maintain',
      allowedBots: { all: false, logins: new Set(['renovate', 'dependabot']) },
    });
  });

  it('names every wrong input in one sentence, never the key', () => {
    setInputs({
      'api-key': 'svc_secret',
      'base-url': 'ftp://example.com',
      wait: 'yes',
      'timeout-minutes': '0',
      'poll-interval-seconds': '0.5',
      permission: 'push',
      command: '/docs now',
    });
    let message = '';
    try {
      parseInputs(read);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Invalid inputs: /);
    for (const part of [
      '`project-id` is required',
      '`base-url` must be an http(s) address',
      '`wait` must be true or false, not "yes"',
      '`timeout-minutes` must be a number greater than 0, not "0"',
      '`poll-interval-seconds` must be a number at least 1, not "0.5"',
      '`permission` must be one of none, read, triage, write, maintain, admin, not "push"',
      '`command` must be one word',
    ])
      expect(message).toContain(part);
    expect(message).not.toContain('svc_secret');
  });

  it('runs the job in the runner when no server is named, and says which inputs that mode refuses', () => {
    setInputs({ 'github-token': 'ghs_token', model: 'anthropic:claude-sonnet-4-5' });
    expect(parseInputs(read)).toMatchObject({ mode: 'runner', apiKey: '', projectId: '', baseUrl: '' });
    expect(parseInputs(read).model).toBe('anthropic:claude-sonnet-4-5');

    const problems = (values: Record<string, string>) => {
      vi.unstubAllEnvs();
      setInputs(values);
      try {
        parseInputs(read);
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(problems({ 'api-key': 'svc_secret', 'github-token': 'ghs_token' })).toBe(
      'Invalid inputs: `api-key` is set but `base-url` is not: give all three to use a docwright server, or none to run the job in the runner.',
    );
    expect(problems({ wait: 'false', 'github-token': 'ghs_token' })).toBe(
      'Invalid inputs: `wait: false` needs a server (`base-url`): in the runner the job runs inside the step.',
    );
    expect(problems({})).toBe(
      'Invalid inputs: `github-token` is empty: in the runner the job reads and writes the repository with it.',
    );
    expect(problems({ model: 'gpt-5', 'github-token': 'ghs_token' })).toBe(
      'Invalid inputs: `model`: Unknown model "gpt-5": use builtin or <provider>:<model>, with provider one of openai, anthropic, bedrock, google, vertex, azure, ollama, openai-compatible.',
    );
    expect(problems({ ...required, model: 'openai:gpt-5-mini' })).toBe(
      "Invalid inputs: `model` applies to jobs run in the runner; a server job uses its project's model.",
    );
  });
});
