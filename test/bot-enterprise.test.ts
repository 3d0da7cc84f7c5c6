import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { sign } from '@octokit/webhooks-methods';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SAMPLE_DOCS_DIR } from '../src/cli/demo.js';
import { findJobMarker } from '../src/github/index.js';
import { BareGit } from './fixtures/bot/bare-git.js';
import { FakeGit } from './fixtures/bot/fake-git.js';
import { FakeGitHub } from './fixtures/bot/fake-github.js';
import { serveGitHubStandIn, type GitHubStandIn } from './fixtures/bot/github-stand-in.js';
import { issueComment, REPOSITORY } from './fixtures/bot/harness.js';
import { freePort } from './helpers/free-port.js';

const CLI = ['--import', 'tsx', 'src/cli.ts'];
const SECRET = 'enterprise-webhook-secret';
const COMMAND = '/docs replace "an empty account" with "a brand-new account"';
const run = promisify(execFile);

/** Made in the test, like the key a GitHub App's settings page hands out. */
const PRIVATE_KEY = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
}).privateKey;

let github: FakeGitHub;
let bare: BareGit;
let standIn: GitHubStandIn;
let dataDir: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  // A real bare repository behind the stand-in's Git Data API: what docwright writes is git's.
  bare = new BareGit(FakeGit.readFolder(SAMPLE_DOCS_DIR), 'main');
  github = new FakeGitHub(REPOSITORY, bare);
  github.permissions.set('maintainer', 'write');
  standIn = await serveGitHubStandIn(github);
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-ghe-'));
});

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await standIn.close();
  bare.dispose();
  await fs.rm(dataDir, { recursive: true, force: true });
});

function environment(mode: 'app' | 'token'): NodeJS.ProcessEnv {
  const credentials =
    mode === 'app' ? { APP_ID: '4242', PRIVATE_KEY } : { GITHUB_TOKEN: `ghp_${'e'.repeat(36)}` };
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...credentials,
    WEBHOOK_SECRET: SECRET,
    GHE_HOST: standIn.host,
    GHE_PROTOCOL: 'http',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DOCWRIGHT_LEASE_SECONDS: '2',
  };
}

/** `docwright serve` as a process; resolves with its address once it listens. */
async function serve(env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...CLI, '--data-dir', dataDir, 'serve', '--port', String(port)], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('docwright is serving on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

/** A real `issue_comment` example, signed with the secret as GitHub signs deliveries. */
async function deliver(url: string, payload: unknown, id: string): Promise<number> {
  const body = JSON.stringify(payload);
  const response = await fetch(`${url}/api/github/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'issue_comment',
      'x-github-delivery': id,
      'x-hub-signature-256': await sign(SECRET, body),
    },
    body,
  });
  return response.status;
}

async function waitFor<T>(check: () => T | undefined | false, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const statusComment = () =>
  github.comments.find((comment) => comment.issue === 12 && findJobMarker(comment.body) !== null);

/** Everything the command produced, all on the Enterprise host. */
function expectPullRequestOnTheStandIn() {
  const pull = github.pulls[0]!;
  expect(github.changedFiles(pull).length).toBeGreaterThan(0);
  // The branch and its commit, as git sees them: one commit on top of main, with the run's trailers.
  expect(bare.git(['rev-list', '--count', `main..${pull.head}`])).toBe('1');
  expect(bare.git(['log', '-1', '--format=%B', pull.head])).toMatch(/Docwright-Job: \S+\nDocwright-Run: \S+/);
  expect(bare.git(['diff', '--name-only', 'main', pull.head]).split('\n')).toEqual(github.changedFiles(pull));
  const link = `${standIn.webUrl}/${REPOSITORY}/pull/${pull.number}`;
  const status = statusComment()!;
  expect(status.body).toContain(`Pull request ready:** ${link}`);
  for (const file of github.changedFiles(pull)) expect(status.body).toContain(`\`${file}\``);
  expect(pull.body).toContain(`(${standIn.webUrl}/${REPOSITORY}/issues/12)`);
  expect(`${status.body}\n${pull.body}`).not.toMatch(/github\.com/);
}

describe('docwright serve against a GitHub Enterprise Server (GHE_HOST, GHE_PROTOCOL)', () => {
  it('as a GitHub App: a signed comment becomes a branch, a commit, a pull request and the status comment', async () => {
    const { url } = await serve(environment('app'));
    expect(await deliver(url, issueComment(COMMAND), 'delivery-app')).toBe(200);
    await waitFor(() => statusComment()?.body.includes('Pull request ready'), 'the final status comment');
    expectPullRequestOnTheStandIn();
    // The installation token came from the Enterprise host's API, like every other request.
    expect(github.tokensIssued).toBe(1);
    expect(github.calls.some((call) => call.path.endsWith('/app/installations/777/access_tokens'))).toBe(
      true,
    );
  }, 120_000);

  it('in token mode: the same, for a project added with the token', async () => {
    const env = environment('token');
    await run(
      process.execPath,
      [
        ...CLI,
        '--data-dir',
        dataDir,
        'project',
        'add',
        '--id',
        'site',
        '--repository',
        REPOSITORY,
        '--ref',
        'main',
      ],
      { env },
    );
    const { url } = await serve(env);
    expect(await deliver(url, issueComment(COMMAND), 'delivery-token')).toBe(200);
    await waitFor(() => statusComment()?.body.includes('Pull request ready'), 'the final status comment');
    expectPullRequestOnTheStandIn();
    expect(github.tokensIssued).toBe(0);
    expect(
      github.calls.every(
        (call) => call.authorization === `token ghp_${'e'.repeat(36)}` || call.path.startsWith('codeload'),
      ),
    ).toBe(true);
  }, 120_000);

  it('finishes the status comment with the right files after being killed between the commit and the pull request', async () => {
    const env = environment('app');
    const first = await serve(env);
    const held = github.hold('POST', /\/pulls$/);
    expect(await deliver(first.url, issueComment(COMMAND), 'delivery-restart')).toBe(200);
    await held.reached;
    const branch = github.git.refs.get(
      [...github.git.refs.keys()].find((name) => name.startsWith('docwright/'))!,
    );
    expect(branch).toBeDefined(); // the commit landed
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    held.release([502, { message: 'the client went away' }]);
    expect(statusComment()!.body).toContain('Working on it');

    await serve(env);
    await waitFor(
      () => statusComment()?.body.includes('Pull request ready'),
      'the status comment after the restart',
    );
    expect(github.pulls).toHaveLength(1);
    expectPullRequestOnTheStandIn();
    // Read from the store, not from GitHub: the restarted process never listed the files.
    expect(github.calls.some((call) => call.path.endsWith('/files'))).toBe(false);
  }, 120_000);
});
