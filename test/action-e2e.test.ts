/**
 * End to end: the bundled Action (`node dist/index.js`) as a child process, as the runner
 * starts it, against a real `docwright serve` (SQLite, local git forge, built-in agent) and a local
 * recorder standing in for the GitHub API.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplePayload, startGitHubRecorder, type GitHubRecorder } from './helpers/github-recorder.js';
import { freePort } from './helpers/free-port.js';
import { serveOpenAIStandIn } from './helpers/openai-stand-in.js';

const run = promisify(execFile);
const DIST = path.resolve('dist/index.js');

/** `docwright serve` on a fresh data dir: its banner prints the demo project's admin key. */
async function serve(
  dataDir: string,
  port: number,
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; adminKey: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli.ts', '--data-dir', dataDir, 'serve', '--port', String(port)],
    { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (line.startsWith('  curl')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${lines.join('\n')}`)));
  });
  const adminKey = /Admin key \(shown once\):\s+(svc_\S+)/.exec(lines.join('\n'))?.[1];
  if (!adminKey) throw new Error(`no admin key in the banner:\n${lines.join('\n')}`);
  return { child, adminKey };
}

/** Runs the bundled Action on an `issue_comment` event, the way the runner does. */
async function runAction(options: {
  dir: string;
  body: string;
  serverUrl: string;
  adminKey: string;
  recorder: GitHubRecorder;
  /** Inputs beyond the defaults, by name (`max-turns`). */
  inputs?: Record<string, string>;
  /** The issue the comment is in (the example's, 1, unless given). */
  issue?: number;
}) {
  const eventPath = path.join(options.dir, 'event.json');
  const outputPath = path.join(options.dir, `output-${Date.now()}`);
  const summaryPath = path.join(options.dir, `summary-${Date.now()}`);
  const payload = examplePayload('issue_comment', 'created', (event) => {
    event.comment.body = options.body;
    if (options.issue !== undefined) event.issue.number = options.issue;
  });
  await fs.writeFile(eventPath, JSON.stringify(payload));
  await fs.writeFile(outputPath, '');
  await fs.writeFile(summaryPath, '');
  const result = await run(process.execPath, [DIST], {
    env: {
      PATH: process.env.PATH,
      GITHUB_EVENT_NAME: 'issue_comment',
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: payload.repository.full_name,
      GITHUB_API_URL: options.recorder.url,
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_RUN_ID: '42',
      GITHUB_OUTPUT: outputPath,
      GITHUB_STEP_SUMMARY: summaryPath,
      'INPUT_API-KEY': options.adminKey,
      'INPUT_PROJECT-ID': 'demo',
      'INPUT_BASE-URL': options.serverUrl,
      'INPUT_GITHUB-TOKEN': 'ghs_recorded',
      'INPUT_POLL-INTERVAL-SECONDS': '1',
      'INPUT_TIMEOUT-MINUTES': '1',
      INPUT_WAIT: 'true',
      INPUT_COMMENT: 'true',
      INPUT_COMMAND: '/docs',
      INPUT_PERMISSION: 'write',
      ...Object.fromEntries(
        Object.entries(options.inputs ?? {}).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value]),
      ),
    },
  }).catch((error: { stdout?: string; code?: number }) => {
    // A failed step exits with 1; its outputs and log are still what the test reads.
    if (typeof error.code !== 'number') throw error;
    return { stdout: error.stdout ?? '', stderr: '' };
  });
  return {
    stdout: result.stdout,
    outputs: parseOutputs(await fs.readFile(outputPath, 'utf8')),
    summary: await fs.readFile(summaryPath, 'utf8'),
  };
}

/** GITHUB_OUTPUT holds `name<<delimiter`, the value, `delimiter` blocks. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const pattern = /^(.+?)<<(.+)\n([\s\S]*?)\n\2$/gm;
  for (const match of text.matchAll(pattern)) outputs[match[1]!] = match[3]!;
  return outputs;
}

/** A `docwright serve` on a fresh data dir and a recorder for the GitHub API, and how to stop both. */
async function startServed(env: NodeJS.ProcessEnv = {}) {
  if (!existsSync(DIST)) throw new Error('dist/index.js is missing: run `npm run package` first.');
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-action-e2e-'));
  const port = await freePort();
  const server = await serve(dataDir, port, env);
  const recorder = await startGitHubRecorder();
  return {
    dataDir,
    server,
    serverUrl: `http://127.0.0.1:${port}`,
    recorder,
    stop: async () => {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
      await recorder.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

describe('the bundled Action against docwright serve', () => {
  let dataDir: string;
  let server: { child: ChildProcess; adminKey: string };
  let serverUrl: string;
  let recorder: GitHubRecorder;
  let stop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ dataDir, server, serverUrl, recorder, stop } = await startServed());
  });

  afterAll(() => stop?.());

  it('creates a job from a /docs comment, waits for it, finishes the status comment, and a second comment follows up on the same job', async () => {
    const first = await runAction({
      dir: dataDir,
      body: '/docs append a section "Try it" to quickstart with "Ask the chat page a question."',
      serverUrl,
      adminKey: server.adminKey,
      recorder,
    });
    expect(first.outputs).toMatchObject({ status: 'completed', created: 'true', 'pr-link': '' });
    const jobId = first.outputs['job-id']!;
    expect(jobId).toMatch(/^[a-z2-9]{20}$/);
    expect(first.summary).toContain(jobId);

    const paths = recorder.calls.map((call) => `${call.method} ${call.path}`);
    // The example's commenter owns the repository (`author_association: OWNER`): no permission lookup.
    expect(paths).toEqual([
      'POST /repos/Codertocat/Hello-World/issues/comments/492700400/reactions',
      'GET /repos/Codertocat/Hello-World/issues/1/comments',
      'POST /repos/Codertocat/Hello-World/issues/1/comments',
      `PATCH /repos/Codertocat/Hello-World/issues/comments/${first.outputs['comment-id']}`,
    ]);
    expect(recorder.calls[0]!.body).toEqual({ content: 'eyes' });
    expect(recorder.calls.every((call) => call.authorization === 'token ghs_recorded')).toBe(true);
    const [status] = recorder.comments;
    // The server's project is a local repository: the change is committed, and it has no pull requests.
    expect(status!.body).toContain(`Committed to \`docwright/job-${jobId}\`.`);
    expect(status!.body).toMatch(/Try it/);
    expect(status!.body).toContain(`<!-- docwright-job: ${jobId} -->`);
    expect(status!.body).toContain('https://github.com/Codertocat/Hello-World/actions/runs/42');
    // The key reaches the runner only as the mask command, never the GitHub API.
    expect(first.stdout.split(server.adminKey).length - 1).toBe(1);
    expect(first.stdout).toContain(`::add-mask::${server.adminKey}`);
    expect(JSON.stringify(recorder.calls)).not.toContain(server.adminKey);

    const calls = recorder.calls.length;
    const second = await runAction({
      dir: dataDir,
      body: '/docs\nappend a section "Next steps" to quickstart with "Read the concepts page."',
      serverUrl,
      adminKey: server.adminKey,
      recorder,
    });
    expect(second.outputs).toMatchObject({
      'job-id': jobId,
      status: 'completed',
      created: 'false',
      'comment-id': first.outputs['comment-id'],
    });
    expect(recorder.comments).toHaveLength(1);
    expect(recorder.comments[0]!.body).toContain('Next steps');
    const edits = recorder.calls.slice(calls).filter((call) => call.method === 'PATCH');
    expect(edits.map((call) => (call.body as { body: string }).body.split('\n')[0])).toEqual([
      '⏳ **Working on your follow-up…** This comment will be updated with the result.',
      `✅ **Committed to \`docwright/job-${jobId}\`.** Its repository has no pull requests, so none was opened.`,
    ]);
  });

  it('ends quickly and successfully, with no outputs, on a comment that is not a command', async () => {
    const calls = recorder.calls.length;
    const started = Date.now();
    const result = await runAction({
      dir: dataDir,
      body: 'Thanks!',
      serverUrl,
      adminKey: server.adminKey,
      recorder,
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.outputs).toEqual({});
    expect(recorder.calls.length).toBe(calls);
  });
});

describe('the bundled Action against docwright serve with a model', () => {
  let dataDir: string;
  let server: { child: ChildProcess; adminKey: string };
  let serverUrl: string;
  let recorder: GitHubRecorder;
  let model: Awaited<ReturnType<typeof serveOpenAIStandIn>>;

  let stop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    // A run that looks around once and answers, then a model that never stops calling its tools.
    model = await serveOpenAIStandIn([
      { calls: [['list_files', {}]] },
      { text: 'The quickstart already says this; nothing to change.' },
      ...Array.from({ length: 20 }, () => ({
        calls: [['list_files', {}]] as [string, Record<string, unknown>][],
      })),
    ]);
    ({ dataDir, server, serverUrl, recorder, stop } = await startServed({
      DOCWRIGHT_MODEL: 'openai:gpt-4o-mini',
      OPENAI_API_KEY: `sk-${'m'.repeat(40)}`,
      OPENAI_BASE_URL: model.url,
      // $1,000 a million input tokens: the stand-in's 400 input tokens cost $0.40 a call.
      DOCWRIGHT_MODEL_PRICES: JSON.stringify({ 'openai:gpt-4o-mini': { input: 1000, output: 0 } }),
    }));
  });

  afterAll(async () => {
    await stop?.();
    await model?.close();
  });

  it("shows the server's usage of the run in the outputs, the summary and the status comment", async () => {
    const result = await runAction({
      dir: dataDir,
      body: '/docs make sure the quickstart mentions the chat page',
      serverUrl,
      adminKey: server.adminKey,
      recorder,
    });
    expect(result.outputs).toMatchObject({ status: 'completed', changed: 'false' });
    expect(JSON.parse(result.outputs.usage!)).toMatchObject({
      inputTokens: 800,
      outputTokens: 60,
      modelCalls: 2,
      toolCalls: 1,
      costUsd: 0.8,
    });
    expect(result.summary).toMatch(
      /\| Usage \| 860 tokens \(800 in, 60 out\) in 2 model calls and 1 tool call, [\d.]+ s, about \$0\.80 \|/,
    );
    expect(recorder.comments.at(-1)!.body).toContain('860 tokens in 2 model calls, about $0.80');
  });

  it('stops a job capped with max-turns at 3, commits nothing and says so', async () => {
    const result = await runAction({
      dir: dataDir,
      body: '/docs list every page in a new index page',
      serverUrl,
      adminKey: server.adminKey,
      recorder,
      issue: 2,
      inputs: { 'max-turns': '3' },
    });
    expect(model.bodies).toHaveLength(5);
    expect(result.outputs).toMatchObject({ status: 'failed', changed: 'false', created: 'true' });
    expect(result.stdout).toMatch(
      /::error::Job \w+ failed: The run stopped at its turn limit \(max_turns: 3 model calls\) before the model finished, so nothing was committed/,
    );
    expect(JSON.parse(result.outputs.usage!)).toMatchObject({ modelCalls: 3, costUsd: 1.2 });
    const status = recorder.comments.at(-1)!.body;
    expect(status).toContain('❌ **The job failed.** The run stopped at its turn limit');
    expect(status).toContain('1,290 tokens in 3 model calls, about $1.20');
    const branches = execFileSync(
      'git',
      ['-C', path.join(dataDir, 'demo-repo'), 'branch', '--list', 'docwright/*'],
      {
        encoding: 'utf8',
      },
    );
    expect(branches).not.toContain(result.outputs['job-id']);
  });
});
