/**
 * The docs check on a pull request event: `run()` as the runner calls it, with GitHub's own
 * `pull_request` payload, the defaults of action.yml as the runner passes them, the docs in a
 * checkout on disk, and nock at the GitHub API. The check must list what the App's check and
 * `docwright impact --check` list for the same diff and pages.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import nock from 'nock';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { run } from '../src/action/main.js';
import { analyzeImpact, pagesLeftStale, parseUnifiedDiff } from '../src/impact/index.js';
import { readPullRequestChange } from '../src/github-api/pull-request-change.js';
import { examplePayload, jobFixture, quietOctokit } from './helpers/github-recorder.js';
import { actionStepOutput } from './helpers/action-step.js';

const GITHUB = 'https://api.github.com';
const TOKEN = 'ghs_docsCheckToken0123456789abcdefghijkl';
const PULLS = '/repos/Codertocat/Hello-World/pulls/2';
const CHECK_RUNS = '/repos/Codertocat/Hello-World/check-runs';
const HEAD_SHA = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821';

/** A reference page documenting the client's options together: a new sibling option belongs on it. */
const CLIENT_PAGE = [
  '---',
  'title: Client',
  '---',
  '',
  '`new Client(options)` opens connections to one origin.',
  '',
  '## Options',
  '',
  '- `keepAlive` (boolean): reuse connections between requests.',
  '- `maxSockets` (number): connections open at most.',
  '- `socketPath` (string): a Unix socket to connect through.',
  '',
].join('\n');

/** The pull request's files as GitHub lists them: a new option beside the documented ones, and its test. */
const OPTION_FILES = [
  {
    filename: 'src/client.ts',
    status: 'modified',
    additions: 1,
    deletions: 0,
    changes: 1,
    patch: [
      '@@ -8,6 +8,7 @@ import { Agent } from "./agent";',
      ' export interface ClientOptions {',
      '   keepAlive?: boolean;',
      '   maxSockets?: number;',
      '+  keepAliveTimeout?: number;',
      '   socketPath?: string;',
      ' }',
    ].join('\n'),
  },
  {
    filename: 'test/client.test.ts',
    status: 'modified',
    additions: 1,
    deletions: 0,
    changes: 1,
    patch: [
      '@@ -20,3 +20,4 @@ describe("Client", () => {',
      '   it("reuses sockets", () => {',
      '     const client = new Client({ keepAlive: true, maxSockets: 2 });',
      '+    const timed = new Client({ keepAlive: true, keepAliveTimeout: 1000, maxSockets: 2 });',
    ].join('\n'),
  },
];

/** The same pull request also bringing the page up to date. */
const PAGE_FILE = {
  filename: 'docs/reference/client.md',
  status: 'modified',
  additions: 1,
  deletions: 0,
  changes: 1,
  patch: [
    '@@ -10,3 +10,4 @@ title: Client',
    ' - `keepAlive` (boolean): reuse connections between requests.',
    '+- `keepAliveTimeout` (number): milliseconds an idle connection stays open.',
    ' - `maxSockets` (number): connections open at most.',
    ' - `socketPath` (string): a Unix socket to connect through.',
  ].join('\n'),
};

/** A pull request of docs and CI files only. */
const NO_CODE_FILES = [
  {
    filename: 'README.md',
    status: 'modified',
    additions: 1,
    deletions: 1,
    changes: 2,
    patch: '@@ -1,3 +1,3 @@\n # Hello World\n-A first repository.\n+A first repository, with docs.\n',
  },
  {
    filename: '.github/workflows/ci.yml',
    status: 'modified',
    additions: 1,
    deletions: 1,
    changes: 2,
    patch: '@@ -5,3 +5,3 @@ jobs:\n   test:\n-    runs-on: ubuntu-22.04\n+    runs-on: ubuntu-24.04\n',
  },
];

let dir: string;
let workspace: string;
const stdout = actionStepOutput();

/** action.yml's inputs with their defaults, as the runner passes them (it fills in the token). */
async function actionDefaults(): Promise<Record<string, string>> {
  const action = parseYaml(await fs.readFile('action.yml', 'utf8')) as {
    inputs: Record<string, { default?: string }>;
  };
  return Object.fromEntries(
    Object.entries(action.inputs).map(([name, input]) => [
      name,
      name === 'github-token' ? TOKEN : (input.default ?? ''),
    ]),
  );
}

/** A checkout of the repository: the files given, under a fresh workspace folder. */
async function checkout(files: Record<string, string>): Promise<string> {
  const folder = await fs.mkdtemp(path.join(dir, 'workspace-'));
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(folder, file)), { recursive: true });
    await fs.writeFile(path.join(folder, file), text);
  }
  return folder;
}

async function runOn(
  event: { name: string; payload: unknown },
  inputs: Record<string, string> = {},
  env: Record<string, string> = {},
) {
  stdout.length = 0;
  const eventPath = path.join(dir, 'event.json');
  const outputPath = path.join(dir, 'output');
  const summaryPath = path.join(dir, 'summary.md');
  await fs.writeFile(eventPath, JSON.stringify(event.payload));
  await fs.writeFile(outputPath, '');
  await fs.writeFile(summaryPath, '');
  vi.stubEnv('GITHUB_EVENT_NAME', event.name);
  vi.stubEnv('GITHUB_EVENT_PATH', eventPath);
  vi.stubEnv('GITHUB_OUTPUT', outputPath);
  vi.stubEnv('GITHUB_STEP_SUMMARY', summaryPath);
  vi.stubEnv('GITHUB_API_URL', GITHUB);
  vi.stubEnv('GITHUB_SERVER_URL', 'https://github.com');
  vi.stubEnv('GITHUB_REPOSITORY', 'Codertocat/Hello-World');
  vi.stubEnv('GITHUB_RUN_ID', '42');
  vi.stubEnv('GITHUB_WORKSPACE', workspace);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  for (const [name, value] of Object.entries({ ...(await actionDefaults()), ...inputs }))
    vi.stubEnv(`INPUT_${name.toUpperCase()}`, value);
  await run();
  const result = {
    exitCode: process.exitCode,
    outputs: parseOutputs(await fs.readFile(outputPath, 'utf8')),
    summary: await fs.readFile(summaryPath, 'utf8'),
    stdout: stdout.join(''),
  };
  // The token is in one line only: the one that tells the runner to mask it.
  const everything = [result.stdout, result.summary, JSON.stringify(result.outputs)].join('\n');
  expect(everything.split(TOKEN)).toHaveLength(2);
  expect(result.stdout).toContain(`::add-mask::${TOKEN}\n`);
  return result;
}

function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const match of text.matchAll(/^(.+?)<<(.+)\n([\s\S]*?)\n\2$/gm)) outputs[match[1]!] = match[3]!;
  return outputs;
}

/** GitHub's `pull_request` example payload (Codertocat/Hello-World#2), with `action` as given. */
function pullRequestEvent(action = 'opened', name = 'pull_request') {
  return { name, payload: examplePayload('pull_request', action) };
}

/** GitHub's answers for reading pull request #2: the pull request, then its files. */
function pullRequestFiles(files: object[], token = TOKEN) {
  const pullRequest = examplePayload('pull_request', 'opened').pull_request;
  return nock(GITHUB)
    .get(PULLS)
    .matchHeader('authorization', `token ${token}`)
    .reply(200, pullRequest)
    .get(`${PULLS}/files`)
    .query({ per_page: '100', page: '1' })
    .reply(200, files);
}

/** Records the check run the Action writes; `status` other than 201 answers as GitHub refuses it. */
function checkRun(status = 201) {
  const written: { body?: any } = {};
  const scope = nock(GITHUB)
    .post(CHECK_RUNS, (body) => {
      written.body = body;
      return true;
    })
    .reply(status, () =>
      status === 201
        ? {
            id: 4,
            head_sha: HEAD_SHA,
            html_url: 'https://github.com/Codertocat/Hello-World/runs/4',
            name: written.body.name,
          }
        : {
            message: 'Resource not accessible by integration',
            documentation_url: 'https://docs.github.com/rest/checks/runs#create-a-check-run',
            status: '403',
          },
    );
  return { scope, written };
}

beforeAll(async () => {
  nock.disableNetConnect();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-action-impact-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));
beforeEach(async () => {
  workspace = await checkout({
    'docs/reference/client.md': CLIENT_PAGE,
    'docs/intro.md': '---\ntitle: Intro\n---\n\nWelcome to the client.\n',
    'src/client.ts': 'export interface ClientOptions {}\n',
  });
});

describe('the Action on a pull request', () => {
  it('lists what the analysis lists for the same diff and pages (the test holds the fixture to it)', async () => {
    pullRequestFiles(OPTION_FILES, 'test-token');
    const change = await readPullRequestChange(quietOctokit(), {
      owner: 'Codertocat',
      repo: 'Hello-World',
      number: 2,
    });
    const diff = parseUnifiedDiff(change.diff);
    const listed = analyzeImpact({
      diff,
      pages: [
        { path: 'reference/client.md', text: CLIENT_PAGE },
        { path: 'intro.md', text: '---\ntitle: Intro\n---\n\nWelcome to the client.\n' },
      ],
    }).pages.filter((page) => page.affected);
    expect(pagesLeftStale(listed, diff, 'docs').map((page) => page.path)).toEqual(['reference/client.md']);
  });

  it('writes a neutral check run on the head commit listing the stale page with its evidence, and sets the outputs', async () => {
    pullRequestFiles(OPTION_FILES);
    const { written } = checkRun();
    const result = await runOn(pullRequestEvent());

    expect(result.exitCode).toBeUndefined();
    expect(written.body).toMatchObject({
      name: 'docwright: docs follow code',
      head_sha: HEAD_SHA,
      status: 'completed',
      conclusion: 'neutral',
      output: { title: '1 docs page may be stale' },
    });
    const summary: string = written.body.output.summary;
    expect(summary).toContain(
      '- [`reference/client.md`](https://github.com/Codertocat/Hello-World/blob/master/docs/reference/client.md)',
    );
    expect(summary).toMatch(/new keepAliveTimeout beside .*\(src/);
    expect(summary).toContain('Comment `/docs sync` on this pull request');
    expect(summary).not.toContain('intro.md');

    expect(result.outputs).toEqual({ 'stale-pages': '["docs/reference/client.md"]', 'stale-count': '1' });
    expect(result.summary).toContain('## docwright: docs follow code');
    expect(result.summary).toContain('**1 docs page may be stale**');
    expect(result.summary).toContain(summary);
    expect(result.summary).toContain(
      'The check run: [docwright: docs follow code](https://github.com/Codertocat/Hello-World/runs/4).',
    );
    // The check run carries the pages: no annotations besides it.
    expect(result.stdout).not.toContain('::warning');
  });

  it('falls back to warnings on the page and the job summary when GitHub refuses the check run (403)', async () => {
    pullRequestFiles(OPTION_FILES);
    checkRun(403);
    const result = await runOn(pullRequestEvent('synchronize'));

    expect(result.exitCode).toBeUndefined();
    const warning = result.stdout.split('\n').find((text) => text.startsWith('::warning '));
    expect(warning).toMatch(
      new RegExp(
        `^::warning file=docs/reference/client.md,line=(\\d+),title=docs may be stale::docs/reference/client.md may be stale: this pull request changes what it describes and leaves it as it is.%0Anew keepAliveTimeout beside `,
      ),
    );
    // On the line of the file that the evidence quotes: one of the options documented together.
    const line = Number(/line=(\d+)/.exec(warning!)![1]);
    const quoted = new RegExp(`page line ${line}: (.*?)%0A`).exec(warning!)![1]!;
    expect(CLIENT_PAGE.split('\n')[line - 1]).toBe(quoted);
    expect(quoted).toMatch(/keepAlive|maxSockets|socketPath/);
    expect(result.stdout.match(/^::warning /gm)).toHaveLength(1);

    expect(result.summary).toContain('**1 docs page may be stale**');
    expect(result.summary).toContain('[`reference/client.md`]');
    expect(result.summary).toContain(
      'No check run was written (GitHub answered POST /repos/Codertocat/Hello-World/check-runs with 403: Resource not accessible by integration): one needs `permissions: checks: write`',
    );
    expect(result.outputs).toEqual({ 'stale-pages': '["docs/reference/client.md"]', 'stale-count': '1' });
  });

  it('fails the step naming the count under fail-on-stale: true, after writing the check run and the outputs', async () => {
    pullRequestFiles(OPTION_FILES);
    const { written } = checkRun();
    const result = await runOn(pullRequestEvent(), { 'fail-on-stale': 'true' });

    expect(written.body.conclusion).toBe('neutral');
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain(
      '::error::1 docs page may be stale (docs/reference/client.md): this pull request changes what it describes and leaves it as it is, and `fail-on-stale` is true.',
    );
    expect(result.outputs['stale-count']).toBe('1');
    expect(result.summary).toContain('**1 docs page may be stale**');
  });

  it('passes when the pull request changes the affected page too, with fail-on-stale as well', async () => {
    pullRequestFiles([...OPTION_FILES, PAGE_FILE]);
    const { written } = checkRun();
    const result = await runOn(pullRequestEvent('ready_for_review'), { 'fail-on-stale': 'true' });

    expect(result.exitCode).toBeUndefined();
    expect(written.body).toMatchObject({
      conclusion: 'success',
      output: { title: '1 affected docs page is changed too' },
    });
    expect(result.outputs).toEqual({ 'stale-pages': '[]', 'stale-count': '0' });
  });

  it('says a diff without code affects no page, without reading the docs, with empty outputs', async () => {
    workspace = await checkout({});
    pullRequestFiles(NO_CODE_FILES);
    const { written } = checkRun();
    const result = await runOn(pullRequestEvent('reopened'));

    expect(result.exitCode).toBeUndefined();
    expect(written.body).toMatchObject({
      conclusion: 'success',
      output: {
        title: 'No docs page is affected',
        summary: 'No docs page is affected by this change: it changes no code.',
      },
    });
    expect(result.summary).toContain('No docs page is affected by this change: it changes no code.');
    expect(result.outputs).toEqual({ 'stale-pages': '[]', 'stale-count': '0' });
  });

  it('fails with a sentence naming actions/checkout when the checkout lacks the docs folder', async () => {
    workspace = await checkout({ 'README.md': '# Hello World\n' });
    pullRequestFiles(OPTION_FILES);
    const result = await runOn(pullRequestEvent());

    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain(
      `::error::The docs folder \`docs\` is not in the checkout at ${workspace}: add \`- uses: actions/checkout@v4\` before this step (the pages are read from the checkout), or set \`docs\` to the folder that holds them.`,
    );
    expect(result.outputs).toEqual({});
  });

  it("reads the docs root and the command from the checkout's settings file, on pull_request_target too", async () => {
    workspace = await checkout({
      '.github/docwright.yml': 'docs_root: website/docs\ncommand: /write\n',
      'website/docs/reference/client.md': CLIENT_PAGE,
    });
    pullRequestFiles(OPTION_FILES);
    const { written } = checkRun();
    const result = await runOn(pullRequestEvent('opened', 'pull_request_target'));

    expect(result.exitCode).toBeUndefined();
    expect(written.body.output.summary).toContain(
      'https://github.com/Codertocat/Hello-World/blob/master/website/docs/reference/client.md',
    );
    expect(written.body.output.summary).toContain('Comment `/write sync`');
    expect(result.outputs['stale-pages']).toBe('["website/docs/reference/client.md"]');

    // The `docs` input wins over the file.
    workspace = await checkout({
      '.github/docwright.yml': 'docs_root: website/docs\n',
      'handbook/reference/client.md': CLIENT_PAGE,
    });
    pullRequestFiles(OPTION_FILES);
    checkRun();
    const given = await runOn(pullRequestEvent(), { docs: 'handbook', 'docs-framework': 'mkdocs' });
    expect(given.outputs['stale-pages']).toBe('["handbook/reference/client.md"]');
  });

  it('says which permission is missing when GitHub refuses to read the pull request', async () => {
    nock(GITHUB).get(PULLS).reply(403, { message: 'Resource not accessible by integration' });
    const result = await runOn(pullRequestEvent());

    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain(
      '::error::GitHub refused GET /repos/Codertocat/Hello-World/pulls/2 (403: Resource not accessible by integration). The docs check reads the pull request with `github-token`: give the workflow `permissions: pull-requests: read`',
    );
  });

  it('leaves other pull request actions alone, and keeps making a job when a prompt is given', async () => {
    const closed = await runOn(pullRequestEvent('closed'));
    expect(closed.exitCode).toBeUndefined();
    expect(closed.outputs).toEqual({});
    expect(closed.stdout).toContain(
      "The pull_request event's action is closed: the docs check runs when a pull request is opened, pushed to, reopened or marked ready for review.",
    );

    // As before the docs check: with `prompt`, a pull request event is a request for a job.
    const server = 'https://docwright.test';
    nock(server).post('/v2/agent/docs/job', { prompt: 'describe this change' }).reply(201, jobFixture());
    const prompted = await runOn(pullRequestEvent(), {
      prompt: 'describe this change',
      'base-url': server,
      'api-key': 'svc_0123456789abcdefghijklmnopqrstuvwxyzABCD',
      'project-id': 'docs',
      wait: 'false',
    });
    expect(prompted.exitCode).toBeUndefined();
    expect(prompted.outputs).toMatchObject({ 'job-id': 'job23', created: 'true' });
  });
});
