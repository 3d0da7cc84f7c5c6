/**
 * End to end, with no server: the bundled Action (`node dist/index.js`) as the runner starts it
 * (environment, `GITHUB_EVENT_PATH` with a real `issue_comment` payload, `GITHUB_OUTPUT`,
 * `GITHUB_STEP_SUMMARY`), no `base-url`, so the job runs in the step itself against a GitHub
 * stand-in on a socket (REST under /api/v3, GraphQL at /api/graphql) backed by a real bare git
 * repository.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SAMPLE_DOCS_DIR } from '../src/cli/demo.js';
import { findJobMarker } from '../src/github/index.js';
import { BareGit } from './fixtures/bot/bare-git.js';
import { FakeGit } from './fixtures/bot/fake-git.js';
import { FakeGitHub } from './fixtures/bot/fake-github.js';
import { serveGitHubStandIn, type GitHubStandIn } from './fixtures/bot/github-stand-in.js';
import { issueComment, REPOSITORY } from './fixtures/bot/harness.js';
import { ENV_PAGE, OPTIONS_PAGE } from './fixtures/sync-pages.js';
import { serveOpenAIStandIn } from './helpers/openai-stand-in.js';

const DIST = path.resolve('dist/index.js');
const TOKEN = `ghs_${'w'.repeat(36)}`;
const hasNodeSqlite = Boolean(
  (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule?.('node:sqlite'),
);
const REPLACE = '/docs replace "an empty account" with "a brand-new account"';
// $1,000 a million input tokens: the stand-in's 400 input tokens cost $0.40 a call.
const PRICES = JSON.stringify({ 'openai:gpt-4o-mini': { input: 1000, output: 0 } });

let github: FakeGitHub;
let bare: BareGit;
let standIn: GitHubStandIn;
let dir: string;

beforeAll(() => {
  if (!existsSync(DIST)) throw new Error('dist/index.js is missing: run `npm run package` first.');
});

beforeEach(async () => {
  bare = new BareGit(FakeGit.readFolder(SAMPLE_DOCS_DIR), 'main');
  github = new FakeGitHub(REPOSITORY, bare);
  github.permissions.set('maintainer', 'write');
  standIn = await serveGitHubStandIn(github);
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-runner-e2e-'));
});

afterEach(async () => {
  await standIn.close();
  bare.dispose();
  await fs.rm(dir, { recursive: true, force: true });
});

/** Runs the bundle on one event as the runner would, and reads back what it reported. */
async function runAction(
  payload: unknown,
  inputs: Record<string, string> = {},
  extra: { eventName?: string; env?: NodeJS.ProcessEnv; started?: (pid: number | undefined) => void } = {},
) {
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const eventPath = path.join(dir, `event-${stamp}.json`);
  const outputPath = path.join(dir, `output-${stamp}`);
  const summaryPath = path.join(dir, `summary-${stamp}`);
  await fs.writeFile(eventPath, JSON.stringify(payload));
  await fs.writeFile(outputPath, '');
  await fs.writeFile(summaryPath, '');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GITHUB_EVENT_NAME: extra.eventName ?? 'issue_comment',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: REPOSITORY,
    GITHUB_API_URL: `${standIn.webUrl}/api/v3`,
    GITHUB_SERVER_URL: standIn.webUrl,
    GITHUB_RUN_ID: '42',
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    // The defaults action.yml gives, as the runner passes them.
    'INPUT_GITHUB-TOKEN': TOKEN,
    INPUT_COMMAND: '/docs',
    INPUT_PERMISSION: 'write',
    INPUT_WAIT: 'true',
    INPUT_COMMENT: 'true',
    'INPUT_TIMEOUT-MINUTES': '5',
    'INPUT_POLL-INTERVAL-SECONDS': '10',
    ...Object.fromEntries(
      Object.entries(inputs).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value]),
    ),
    ...extra.env,
  };
  const result = await new Promise<{ code: number; stdout: string }>((resolve, reject) => {
    const child = execFile(process.execPath, [DIST], { env }, (error, stdout) => {
      if (error && typeof error.code !== 'number') reject(new Error(error.message));
      else resolve({ code: error ? Number(error.code) : 0, stdout });
    });
    extra.started?.(child.pid);
  });
  return {
    ...result,
    outputs: parseOutputs(await fs.readFile(outputPath, 'utf8')),
    summary: await fs.readFile(summaryPath, 'utf8'),
  };
}

/** GITHUB_OUTPUT holds `name<<delimiter`, the value, `delimiter` blocks. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const match of text.matchAll(/^(.+?)<<(.+)\n([\s\S]*?)\n\2$/gm)) outputs[match[1]!] = match[3]!;
  return outputs;
}

/** GitHub requests from the `from`-th on, as `METHOD path` with the repository's prefix cut. */
const requestsSince = (from: number) =>
  github
    .apiCalls()
    .slice(from)
    .map((call) => `${call.method} ${call.path.replace(/^api\.github\.com(\/repos\/[^/]+\/[^/]+)?/, '')}`);
const refs = () => bare.git(['for-each-ref', '--format=%(refname) %(objectname)']);
const statusComments = (issue: number) =>
  github.comments.filter((comment) => comment.issue === issue && findJobMarker(comment.body) !== null);

describe('the bundled Action with no server', () => {
  it('turns a /docs comment into a branch, a commit and a pull request, and a follow-up on the pull request into a second commit on the same branch', async () => {
    const before = github.apiCalls().length;
    const first = await runAction(issueComment(REPLACE));
    expect(first.code, first.stdout).toBe(0);
    const { outputs } = first;
    // What the step asks GitHub: the settings, the permission, 👀, the thread's comments, the
    // archive, one commit mutation (the repository's id came with the settings), the pull request,
    // and the status comment twice. The base branch's head came with the settings, and the files
    // of the comment are the run's own.
    expect(requestsSince(before)).toEqual([
      'POST /graphql',
      'GET /collaborators/maintainer/permission',
      'POST /issues/comments/900001/reactions',
      'GET /issues/12/comments',
      expect.stringMatching(/^GET \/tarball\//),
      'POST /issues/12/comments',
      'POST /graphql',
      'POST /pulls',
      expect.stringMatching(/^PATCH \/issues\/comments\//),
    ]);
    expect(outputs).toMatchObject({ status: 'completed', created: 'true', changed: 'true' });
    expect(outputs['job-id']).toMatch(/^\w{20}$/);
    const branch = `docwright/job-${outputs['job-id']}`;

    // One pull request, from the job's branch to main, with one commit that git itself reads.
    expect(github.pulls).toHaveLength(1);
    const pull = github.pulls[0]!;
    expect(pull).toMatchObject({ head: branch, base: 'main', state: 'open' });
    expect(outputs['pr-link']).toBe(`${standIn.webUrl}/${REPOSITORY}/pull/${pull.number}`);
    expect(bare.git(['rev-list', '--count', `main..${branch}`])).toBe('1');
    expect(bare.git(['show', `${branch}:quickstart.mdx`])).toContain('a brand-new account');
    expect(bare.git(['log', '-1', '--format=%B', branch])).toContain(`Docwright-Job: ${outputs['job-id']}`);
    expect(findJobMarker(pull.body)).toBe(outputs['job-id']);

    // The 👀 reaction, and one status comment that ends with the pull request's link.
    expect(github.reactions).toContainEqual(expect.objectContaining({ content: 'eyes' }));
    const [status] = statusComments(12);
    expect(statusComments(12)).toHaveLength(1);
    expect(status!.body).toContain(`Pull request ready:** ${outputs['pr-link']}`);
    expect(String(status!.id)).toBe(outputs['comment-id']);
    expect(first.summary).toContain('| Pull request |');
    // The token never reaches the log (but for the line that tells the runner to mask it) or GitHub.
    expect(first.stdout.replace(`::add-mask::${TOKEN}`, '')).not.toContain(TOKEN);
    expect(JSON.stringify(github.comments)).not.toContain(TOKEN);

    // A follow-up on the pull request, in a later workflow run that starts from nothing.
    const beforeFollowUp = github.apiCalls().length;
    const followUp = await runAction(
      issueComment('/docs replace "a running web service" with "a live web service"', {
        issue: pull.number,
        pullRequest: { body: pull.body },
      }),
    );
    expect(followUp.code, followUp.stdout).toBe(0);
    expect(followUp.outputs).toMatchObject({
      'job-id': outputs['job-id'],
      created: 'false',
      changed: 'true',
      status: 'completed',
      'pr-link': outputs['pr-link'],
    });
    expect(github.pulls).toHaveLength(1);
    expect(bare.git(['rev-list', '--count', `main..${branch}`])).toBe('2');
    const quickstart = bare.git(['show', `${branch}:quickstart.mdx`]);
    expect(quickstart).toContain('a brand-new account');
    expect(quickstart).toContain('a live web service');
    // The description still holds both requests, and still links the issue the job began in.
    expect(github.pulls[0]!.body).toContain('1. replace "an empty account"');
    expect(github.pulls[0]!.body).toContain('2. replace "a running web service"');
    expect(github.pulls[0]!.body).toContain(`${REPOSITORY}#12`);
    expect(statusComments(pull.number)).toHaveLength(1);
    // The job is read back from its pull request and one page of its branch's history; its pull
    // request is updated, never opened again.
    const followUpRequests = requestsSince(beforeFollowUp);
    expect(followUpRequests.filter((line) => line.includes('/commits'))).toEqual([
      expect.stringMatching(/^GET \/commits\/docwright%2Fjob-/),
      'GET /commits',
    ]);
    expect(followUpRequests.filter((line) => line.includes('/pulls'))).toEqual([
      'GET /pulls',
      `PATCH /pulls/${pull.number}`,
      `GET /pulls/${pull.number}/files`,
    ]);
    expect(followUpRequests.length).toBeLessThanOrEqual(13);
  }, 120_000);

  it('takes a second /docs in the same issue as a follow-up: the same branch, pull request and status comment', async () => {
    const first = await runAction(issueComment(REPLACE));
    expect(first.code, first.stdout).toBe(0);
    const followUp = await runAction(
      issueComment('/docs replace "a running web service" with "a live web service"'),
    );
    expect(followUp.code, followUp.stdout).toBe(0);
    expect(followUp.outputs).toMatchObject({
      'job-id': first.outputs['job-id'],
      created: 'false',
      changed: 'true',
      'pr-link': first.outputs['pr-link'],
      'comment-id': first.outputs['comment-id'],
    });
    const branch = `docwright/job-${first.outputs['job-id']}`;
    expect(bare.git(['rev-list', '--count', `main..${branch}`])).toBe('2');
    expect(github.pulls).toHaveLength(1);
    expect(statusComments(12)).toHaveLength(1);
    expect(statusComments(12)[0]!.body).toContain(`Pull request ready:** ${first.outputs['pr-link']}`);
  }, 120_000);

  it('fails the step and moves no ref when the edit breaks MDX, saying why in the status comment', async () => {
    const before = refs();
    const result = await runAction(issueComment('/docs replace "an empty account" with "an <Note> account"'));
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/::error::Job \w+ failed: Nothing was committed[\s\S]*MDX does not parse/);
    expect(result.outputs).toMatchObject({ status: 'failed', changed: 'false' });
    expect(refs()).toBe(before);
    expect(github.pulls).toHaveLength(0);
    const [status] = statusComments(12);
    expect(status!.body).toMatch(/The job failed\.\*\* Nothing was committed[\s\S]*the MDX does not parse/);
  }, 120_000);

  it('says so in a warning, the summary, the comment and the `changed` output when nothing changed', async () => {
    const before = refs();
    const result = await runAction(issueComment('/docs please make the docs nicer'));
    expect(result.code, result.stdout).toBe(0);
    expect(result.outputs).toMatchObject({ status: 'completed', changed: 'false', 'pr-link': '' });
    expect(result.stdout).toMatch(
      /::warning::Job \w+ completed without changing anything\. The agent said: /,
    );
    expect(result.summary).toContain('| Changed | no: nothing was committed |');
    expect(result.summary).toContain('| Reply |');
    expect(statusComments(12)[0]!.body).toContain('Nothing was changed');
    expect(refs()).toBe(before);
  }, 120_000);

  it('starts nothing for a commenter without write permission', async () => {
    const result = await runAction(issueComment(REPLACE, { login: 'passer-by' }));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('passer-by has none permission');
    expect(result.outputs).toEqual({});
    expect(github.comments).toHaveLength(0);
    expect(github.reactions).toHaveLength(0);
  }, 60_000);

  it('redoes a follow-up on the new head when the branch moved while it ran', async () => {
    const first = await runAction(issueComment(REPLACE));
    expect(first.code, first.stdout).toBe(0);
    const branch = `docwright/job-${first.outputs['job-id']}`;
    const pull = github.pulls[0]!;
    // The follow-up's snapshot download waits until someone else has pushed to the job's branch.
    const held = github.hold('GET', /\/tarball\//);
    const followUp = runAction(
      issueComment('/docs replace "a running web service" with "a live web service"', {
        issue: pull.number,
        pullRequest: { body: pull.body },
      }),
    );
    await held.reached;
    const theirs = bare.writeCommit({
      tree: bare.applyTree(bare.git(['rev-parse', `${branch}^{tree}`]), [
        { path: 'NOTES.md', content: 'A teammate was here.\n' },
      ]),
      message: 'A teammate pushes to the branch',
      parents: [bare.resolve(branch)!],
    });
    bare.refs.set(branch, theirs);
    const call = github.calls.at(-1)!;
    held.release(await github.answer('GET', `${call.path}${call.query}`, '', undefined));
    const result = await followUp;
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(/The run did not go through \(.*\); trying again in 1 s\./);
    // Ours, theirs, ours: nothing of the teammate's commit was lost, and the request was made.
    expect(bare.history(bare.resolve(branch)!).slice(0, 3)[1]).toBe(theirs);
    expect(bare.git(['rev-list', '--count', `main..${branch}`])).toBe('3');
    expect(bare.git(['show', `${branch}:NOTES.md`])).toBe('A teammate was here.');
    expect(bare.git(['show', `${branch}:quickstart.mdx`])).toContain('a live web service');
    expect(github.pulls).toHaveLength(1);
  }, 120_000);

  it('takes the command and the branch prefix from .github/docwright.yml, and never commits to the default branch', async () => {
    github.settingsFiles.set('.github/docwright.yml', 'command: /write\nbranch_prefix: ""\n');
    const before = refs();
    // A workflow_dispatch follow-up to a job named `main` would make its branch the default branch.
    const dispatched = await runAction(
      { inputs: {} },
      { prompt: 'replace "an empty account" with "a brand-new account"', 'job-id': 'main' },
      { eventName: 'workflow_dispatch' },
    );
    expect(dispatched.code).toBe(1);
    expect(dispatched.stdout).toContain(
      "::error::Job main would commit to main, the repository's default branch; docwright only commits to a branch of its own (change `branch_prefix`).",
    );
    expect(refs()).toBe(before);

    // The file's command is the one a comment must start with when the workflow keeps the default.
    const ignored = await runAction(issueComment(REPLACE));
    expect(ignored.stdout).toContain('The comment does not start with /write.');
    const written = await runAction(
      issueComment('/write replace "an empty account" with "a brand-new account"'),
    );
    expect(written.code, written.stdout).toBe(0);
    expect(github.pulls[0]!.head).toBe(written.outputs['job-id']);
  }, 120_000);

  it('fails before anything is written when the model has no key in the environment', async () => {
    const result = await runAction(issueComment(REPLACE), { model: 'openai:gpt-5-mini' });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '::error::The model openai:gpt-5-mini cannot be used: openai:gpt-5-mini needs OPENAI_API_KEY',
    );
    expect(github.comments).toHaveLength(0);
    expect(github.pulls).toHaveLength(0);
  }, 60_000);

  // The Action runs on node24, whose own node:sqlite holds the docs index the bundle cannot bring.
  it.skipIf(!hasNodeSqlite)(
    'gives a model the full-text search of the docs, then commits its edit, on Node’s own SQLite',
    async () => {
      const model = await serveOpenAIStandIn([
        { calls: [['search_docs', { query: 'empty account' }]] },
        {
          calls: [
            ['edit_file', { path: 'quickstart.mdx', oldText: 'an empty account', newText: 'a new account' }],
          ],
        },
        { text: 'The quickstart now starts from a new account.' },
      ]);
      try {
        const result = await runAction(
          issueComment('/docs the quickstart should say "a new account"'),
          { model: 'openai:gpt-4o-mini' },
          {
            env: {
              OPENAI_API_KEY: `sk-${'k'.repeat(40)}`,
              OPENAI_BASE_URL: model.url,
              DOCWRIGHT_MODEL_PRICES: PRICES,
            },
          },
        );
        expect(result.code, result.stdout).toBe(0);
        const hits = String(model.toolResult('call_1_0'));
        expect(hits).toMatch(/^1\. quickstart\.mdx/);
        expect(hits).not.toContain('not available');
        expect(result.outputs).toMatchObject({ status: 'completed', changed: 'true' });
        // What the run spent: the stand-in's 400 input and 30 output tokens a call, priced.
        expect(JSON.parse(result.outputs.usage!)).toMatchObject({
          inputTokens: 1200,
          outputTokens: 90,
          modelCalls: 3,
          toolCalls: 2,
          costUsd: 1.2,
        });
        expect(statusComments(12)[0]!.body).toContain('1,290 tokens in 3 model calls, about $1.20');
        expect(result.summary).toMatch(
          /\| Usage \| 1,290 tokens \(1,200 in, 90 out\) in 3 model calls and 2 tool calls, [\d.]+ s, about \$1\.20 \|/,
        );
        const branch = `docwright/job-${result.outputs['job-id']}`;
        expect(bare.git(['show', `${branch}:quickstart.mdx`])).toContain('from a new account');
        // The key is masked for the runner, and never printed otherwise.
        expect(result.stdout).toContain(`::add-mask::sk-${'k'.repeat(40)}`);
        expect(result.stdout.replace(/^::add-mask::.*$/gm, '')).not.toContain('k'.repeat(40));
      } finally {
        await model.close();
      }
    },
    120_000,
  );

  it.each([
    ['max-turns', '3', /turn limit \(max_turns: 3 model calls\)/],
    ['max-cost', '1', /cost limit \(max_cost: \$1\.00\)/],
  ])(
    'stops a model that never finishes at %s, commits nothing and says so in the step, the outputs and the comment',
    async (input, value, limit) => {
      const model = await serveOpenAIStandIn([
        { calls: [['edit_file', { path: 'quickstart.mdx', oldText: 'an empty account', newText: 'x' }]] },
        ...Array.from({ length: 20 }, () => ({
          calls: [['list_files', {}]] as [string, Record<string, unknown>][],
        })),
      ]);
      try {
        const before = refs();
        const result = await runAction(
          issueComment('/docs the quickstart should say "a new account"'),
          { model: 'openai:gpt-4o-mini', [input]: value },
          {
            env: {
              OPENAI_API_KEY: `sk-${'k'.repeat(40)}`,
              OPENAI_BASE_URL: model.url,
              DOCWRIGHT_MODEL_PRICES: PRICES,
            },
          },
        );
        expect(result.code).toBe(1);
        // Three calls: $1.20 passes $1.00 at the third, as three turns end at the third.
        expect(model.bodies).toHaveLength(3);
        expect(result.stdout).toMatch(
          new RegExp(`::error::Job \\w+ failed: The run stopped at its ${limit.source}`),
        );
        expect(result.stdout).toContain('so nothing was committed');
        expect(result.outputs).toMatchObject({ status: 'failed', changed: 'false' });
        expect(JSON.parse(result.outputs.usage!)).toMatchObject({ modelCalls: 3, inputTokens: 1200 });
        expect(refs()).toBe(before);
        expect(github.pulls).toHaveLength(0);
        const [status] = statusComments(12);
        expect(status!.body).toMatch(limit);
        expect(status!.body).toContain('1,290 tokens in 3 model calls');
      } finally {
        await model.close();
      }
    },
    120_000,
  );

  it("reports GitHub's refusal when workflows may not open pull requests", async () => {
    github.fail('POST', /\/pulls$/, [
      403,
      { message: 'GitHub Actions is not permitted to create or approve pull requests.' },
    ]);
    const result = await runAction(issueComment(REPLACE));
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /::error::Job \w+ failed: .*GitHub Actions is not permitted to create or approve pull requests/,
    );
    expect(statusComments(12)[0]!.body).toContain(
      'GitHub Actions is not permitted to create or approve pull requests',
    );
  }, 120_000);

  it('takes the prompt input on workflow_dispatch, and job-id for a follow-up on the same branch', async () => {
    const dispatch = { eventName: 'workflow_dispatch' };
    const first = await runAction(
      { inputs: {} },
      { prompt: 'replace "an empty account" with "a brand-new account"' },
      dispatch,
    );
    expect(first.code, first.stdout).toBe(0);
    expect(first.outputs).toMatchObject({ created: 'true', changed: 'true', 'comment-id': '' });
    const jobId = first.outputs['job-id']!;
    const followUp = await runAction(
      { inputs: {} },
      { prompt: 'replace "a running web service" with "a live web service"', 'job-id': jobId },
      dispatch,
    );
    expect(followUp.code, followUp.stdout).toBe(0);
    expect(followUp.outputs).toMatchObject({ 'job-id': jobId, created: 'false', changed: 'true' });
    expect(followUp.outputs['pr-link']).toBe(first.outputs['pr-link']);
    expect(bare.git(['rev-list', '--count', `main..docwright/job-${jobId}`])).toBe('2');
    expect(github.pulls).toHaveLength(1);
    // No thread, so no comment: the outputs and the summary carry the result.
    expect(github.comments).toHaveLength(0);
    expect(followUp.summary).toContain('(run in this workflow)');
  }, 120_000);
});

describe('/docs sync in the bundled Action with no server', () => {
  const OPTIONS_CODE = 'export const defaults = {\n  maxRetries: 3,\n  token: process.env.APP_TOKEN,\n};\n';

  beforeEach(async () => {
    // A repository of code with its docs in docs/, in place of the docs-only one.
    await standIn.close();
    bare.dispose();
    bare = new BareGit(
      new Map(
        Object.entries({
          'docs/docs.json': JSON.stringify({
            name: 'Client',
            navigation: { pages: ['reference/options', 'environment'] },
          }),
          'docs/reference/options.mdx': OPTIONS_PAGE,
          'docs/environment.mdx': ENV_PAGE,
          'src/options.ts': OPTIONS_CODE,
        }).map(([file, text]) => [file, Buffer.from(text)]),
      ),
      'main',
    );
    github = new FakeGitHub(REPOSITORY, bare);
    github.permissions.set('maintainer', 'write');
    github.settingsFiles.set('.github/docwright.yml', 'docs_root: docs\n');
    standIn = await serveGitHubStandIn(github);
  });

  /** A branch with `code` as src/options.ts over main, and a pull request from it. */
  function codePullRequest(branch: string, code: string, title: string) {
    const base = bare.resolve('main')!;
    const tree = new Map(bare.filesAt(base));
    tree.set('src/options.ts', Buffer.from(code));
    bare.refs.set(branch, bare.writeCommit({ tree: bare.writeTree(tree), message: title, parents: [base] }));
    return github.openPullRequest({ head: branch, base: 'main', title, body: '' });
  }

  // The impact of a change searches the docs with SQLite, which the bundle has on node24 only.
  it.skipIf(!hasNodeSqlite)(
    'opens a docs pull request for a code pull request, with the provable rename made and the link in the code pull request',
    async () => {
      const code = codePullRequest(
        'rename-retries',
        OPTIONS_CODE.replace('maxRetries', 'retryLimit'),
        'Rename maxRetries to retryLimit',
      );
      const result = await runAction(
        issueComment('/docs sync', { issue: code.number, pullRequest: { body: '' } }),
      );
      expect(result.code, result.stdout).toBe(0);
      expect(result.outputs).toMatchObject({ status: 'completed', created: 'true', changed: 'true' });
      const branch = `docwright/job-${result.outputs['job-id']}`;
      expect(bare.git(['show', `${branch}:docs/reference/options.mdx`])).toBe(
        OPTIONS_PAGE.replace('## maxRetries', '## retryLimit').trimEnd(),
      );
      const docs = github.pulls.find((pull) => pull.head === branch)!;
      expect(docs.title).toBe('docs: follow "Rename maxRetries to retryLimit"');
      expect(docs.body).toContain(`(${code.html_url})`);
      expect(statusComments(code.number)[0]!.body).toContain(
        `Pull request ready:** ${result.outputs['pr-link']}`,
      );
    },
    120_000,
  );

  it.skipIf(!hasNodeSqlite)(
    'says that no docs page is affected, and opens nothing',
    async () => {
      const code = codePullRequest('comment-only', `// Options of the client.\n${OPTIONS_CODE}`, 'A comment');
      const before = refs();
      const result = await runAction(
        issueComment('/docs sync', { issue: code.number, pullRequest: { body: '' } }),
      );
      expect(result.code, result.stdout).toBe(0);
      expect(result.outputs).toMatchObject({ status: 'completed', changed: 'false', 'pr-link': '' });
      expect(github.pulls).toHaveLength(1);
      expect(refs()).toBe(before);
      const status = statusComments(code.number)[0]!.body;
      expect(status).toContain('Nothing was changed');
      expect(status).toContain(`no docs page is affected by "A comment" (${code.html_url})`);
    },
    120_000,
  );

  it('refuses, in words, a sync whose docs live in another repository, and moves nothing', async () => {
    github.settingsFiles.set('.github/docwright.yml', 'sync:\n  docs_repository: octo-org/handbook\n');
    const code = codePullRequest('rename', OPTIONS_CODE.replace('maxRetries', 'retryLimit'), 'Rename');
    const before = refs();
    const result = await runAction(
      issueComment('/docs sync', { issue: code.number, pullRequest: { body: '' } }),
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '::error::`sync.docs_repository` in .github/docwright.yml names octo-org/handbook, and the Action with no server works on the repository of its workflow only, so nothing was started.',
    );
    expect(github.comments.at(-1)!.body).toContain('names octo-org/handbook');
    expect(refs()).toBe(before);
    expect(github.pulls).toHaveLength(1);
  }, 60_000);

  it('in an issue, explains that it follows a pull request and starts nothing', async () => {
    const before = refs();
    const result = await runAction(issueComment('/docs sync'));
    expect(result.code, result.stdout).toBe(0);
    expect(result.outputs).toEqual({});
    expect(github.comments.map((item) => item.body)).toEqual([
      "@maintainer, `/docs sync` brings the docs up to date with a code change, so it works in a pull request's conversation; nothing was started. In an issue, say what to change after `/docs`.",
    ]);
    expect(refs()).toBe(before);
  }, 60_000);
});
