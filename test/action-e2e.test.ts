/**
 * End to end: the bundled Action (`node dist/index.js`) as a child process, as the runner
 * starts it, against a real `docwright serve` (SQLite, local git forge, built-in agent) and a local
 * recorder standing in for the GitHub API.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplePayload, startGitHubRecorder, type GitHubRecorder } from './helpers/github-recorder.js';
import { freePort } from './helpers/free-port.js';

const run = promisify(execFile);
const DIST = path.resolve('dist/index.js');

/** `docwright serve` on a fresh data dir: its banner prints the demo project's admin key. */
async function serve(dataDir: string, port: number): Promise<{ child: ChildProcess; adminKey: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli.ts', '--data-dir', dataDir, 'serve', '--port', String(port)],
    { env: { ...process.env, LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'inherit'] },
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
}) {
  const eventPath = path.join(options.dir, 'event.json');
  const outputPath = path.join(options.dir, `output-${Date.now()}`);
  const summaryPath = path.join(options.dir, `summary-${Date.now()}`);
  const payload = examplePayload('issue_comment', 'created', (event) => {
    event.comment.body = options.body;
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
    },
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

describe('the bundled Action against docwright serve', () => {
  let dataDir: string;
  let server: { child: ChildProcess; adminKey: string };
  let serverUrl: string;
  let recorder: GitHubRecorder;

  beforeAll(async () => {
    if (!existsSync(DIST)) throw new Error('dist/index.js is missing: run `npm run package` first.');
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-action-e2e-'));
    const port = await freePort();
    serverUrl = `http://127.0.0.1:${port}`;
    server = await serve(dataDir, port);
    recorder = await startGitHubRecorder();
  });

  afterAll(async () => {
    if (server) {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    }
    await recorder?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

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
    expect(paths).toEqual([
      'GET /repos/Codertocat/Hello-World/collaborators/Codertocat/permission',
      'POST /repos/Codertocat/Hello-World/issues/comments/492700400/reactions',
      'GET /repos/Codertocat/Hello-World/issues/1/comments',
      'POST /repos/Codertocat/Hello-World/issues/1/comments',
      `PATCH /repos/Codertocat/Hello-World/issues/comments/${first.outputs['comment-id']}`,
    ]);
    expect(recorder.calls[1]!.body).toEqual({ content: 'eyes' });
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
