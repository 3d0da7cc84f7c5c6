/**
 * `/docs sync` in the GitHub App, end to end: a signed comment on a code pull request (a real
 * payload of @octokit/webhooks-examples) reaches the real service, which reads the pull request
 * and its diff from the fake GitHub, runs the built-in agent on the docs and opens a docs pull
 * request, or says in the thread that nothing is affected. With `sync.check`, a signed
 * `pull_request` delivery gets a check run listing the affected pages instead, with no job.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { sign } from '@octokit/webhooks-methods';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { findJobMarker } from '../src/github/index.js';
import { hostOf } from '../src/github-api/hosts.js';
import { parseSettings } from '../src/github/settings.js';
import { DOCS_CHECK_NAME, docsCheckOutput } from '../src/bot/docs-check-output.js';
import { createLogger, type Logger } from '../src/core/logger.js';
import { parseDocsRoot } from '../src/write-policy/index.js';
import { FakeGitHub } from './fixtures/bot/fake-github.js';
import {
  checkRunRerequested,
  checkSuiteRerequested,
  closedPullRequest,
  INSTALLATION_ID,
  issueComment,
  pullRequestEvent,
  REPOSITORY,
  startBotHarness,
  WEBHOOK_SECRET,
  type BotHarness,
} from './fixtures/bot/harness.js';
import { interceptRepositories } from './fixtures/bot/two-repositories.js';
import { ENV_PAGE, OPTIONS_PAGE } from './fixtures/sync-pages.js';

const OPTIONS_CODE = `export const defaults = {
  maxRetries: 3,
  timeout: 10,
  token: process.env.APP_TOKEN,
};
`;

const files = new Map(
  Object.entries({
    'docs/docs.json': JSON.stringify({
      $schema: 'https://mintlify.com/docs.json',
      name: 'Client',
      navigation: { pages: ['intro', 'reference/options', 'environment'] },
    }),
    'docs/intro.mdx': '---\ntitle: Intro\n---\n\nWelcome to the client.\n',
    'docs/reference/options.mdx': OPTIONS_PAGE,
    'docs/environment.mdx': ENV_PAGE,
    'src/options.ts': OPTIONS_CODE,
    'test/options.test.ts': 'expect(defaults.maxRetries).toBe(3);\n',
  }).map(([path, text]) => [path, Buffer.from(text)]),
);

let t: BotHarness;
let github: FakeGitHub;
let removeInterceptors: (() => void) | undefined;

async function start(
  settings: string,
  others: FakeGitHub[] = [],
  mode: 'app' | 'token' = 'app',
  logger?: Logger,
) {
  github = new FakeGitHub(REPOSITORY, files);
  github.settingsFiles.set('.github/docwright.yml', settings);
  removeInterceptors = interceptRepositories([github, ...others]);
  t = await startBotHarness({ github, mode, logger });
  github.permissions.set('maintainer', 'write');
}

afterEach(async () => {
  if (!removeInterceptors) return;
  await t.close();
  removeInterceptors();
  removeInterceptors = undefined;
  nock.cleanAll();
  expect(github.pendingFaults()).toEqual([]);
});

/** A branch with `changes` over main, and a pull request from it. */
function codePullRequest(branch: string, changes: Record<string, string>, title: string, body = '') {
  const base = github.git.resolve('main')!;
  const tree = new Map(github.git.filesAt(base));
  for (const [path, text] of Object.entries(changes)) tree.set(path, Buffer.from(text));
  const head = github.git.writeCommit({ tree: github.git.writeTree(tree), message: title, parents: [base] });
  github.git.refs.set(branch, head);
  return github.openPullRequest({ head: branch, base: 'main', title, body });
}

/** Delivers an event as GitHub does: the JSON body signed with the webhook secret. */
async function deliver(name: 'issue_comment' | 'pull_request' | 'check_run' | 'check_suite', body: unknown) {
  const payload = JSON.stringify(body);
  await t.probot.webhooks.verifyAndReceive({
    id: randomUUID(),
    name,
    payload,
    signature: await sign(WEBHOOK_SECRET, payload),
  });
}

/** Delivers a comment, signed. */
async function comment(body: string, issue: number, pullRequest?: { body: string }) {
  await deliver('issue_comment', issueComment(body, { issue, ...(pullRequest ? { pullRequest } : {}) }));
}

function statusOf(issue: number) {
  const [status] = github.comments.filter((item) => item.issue === issue && findJobMarker(item.body));
  return status;
}

describe('/docs sync on a code pull request', () => {
  beforeEach(() => start('docs_root: docs\n'));

  it('renames what the diff renames, lists the other affected pages, and links the two pull requests', async () => {
    const code = codePullRequest(
      'rename-retries',
      {
        'src/options.ts': OPTIONS_CODE.replace('maxRetries', 'retryLimit').replace(
          'process.env.APP_TOKEN',
          'readTokenFile()',
        ),
      },
      'Rename maxRetries to retryLimit',
      'The token now comes from a file.',
    );
    await comment('/docs sync', code.number, { body: 'The token now comes from a file.' });
    const jobId = findJobMarker(statusOf(code.number)!.body)!;
    const job = await t.settle(jobId);
    expect(job.status).toBe('completed');

    // The prompt is the pull request: its link, title, description and diff.
    const [prompt] = (await t.service.store.jobs.messages(jobId)).map((message) => message.content);
    expect(prompt).toContain(`Code pull request: ${code.html_url}`);
    expect(prompt).toContain('Title: Rename maxRetries to retryLimit');
    expect(prompt).toContain('+  retryLimit: 3,');

    // The provable edit, on the job's branch; the other affected page is left to people.
    expect(github.fileAt(job.branch, 'docs/reference/options.mdx')).toBe(
      OPTIONS_PAGE.replace('## maxRetries', '## retryLimit'),
    );
    expect(github.fileAt(job.branch, 'docs/environment.mdx')).toBe(ENV_PAGE);
    const docs = github.pulls.find((pull) => pull.head === job.branch)!;
    expect(docs.title).toBe('docs: follow "Rename maxRetries to retryLimit"');
    expect(docs.body).toContain(`Docs sync for "Rename maxRetries to retryLimit" (${code.html_url}).`);
    expect(docs.body).toContain('- `reference/options.mdx`: `maxRetries` → `retryLimit` (1 occurrence)');
    expect(docs.body).toMatch(
      /- `environment\.mdx` \(0\.\d\d\)\n {2}- APP_TOKEN removed \(src\/options\.ts:4\)/,
    );
    expect(docs.body).toContain(`[${REPOSITORY}#${code.number}]`);
    // The code pull request's thread gets the docs pull request's link.
    expect(statusOf(code.number)!.body).toContain(`Pull request ready:** ${job.pr_link}`);
  });

  it('takes a second /docs sync on the same pull request as a new commit on the same docs branch', async () => {
    const code = codePullRequest(
      'rename-retries',
      { 'src/options.ts': OPTIONS_CODE.replace('maxRetries', 'retryLimit') },
      'Rename maxRetries to retryLimit',
    );
    await comment('/docs sync', code.number, { body: '' });
    const jobId = findJobMarker(statusOf(code.number)!.body)!;
    const first = await t.settle(jobId);
    // The pull request moves on: the token's variable is renamed too.
    const head = github.git.resolve('rename-retries')!;
    const tree = new Map(github.git.filesAt(head));
    tree.set(
      'src/options.ts',
      Buffer.from(OPTIONS_CODE.replace('maxRetries', 'retryLimit').replace('APP_TOKEN', 'CLIENT_TOKEN')),
    );
    github.git.refs.set(
      'rename-retries',
      github.git.writeCommit({ tree: github.git.writeTree(tree), message: 'token', parents: [head] }),
    );
    await comment('/docs sync', code.number, { body: '' });
    const second = await t.settle(jobId);
    expect(second.branch).toBe(first.branch);
    expect(github.pulls.filter((pull) => pull.head === first.branch)).toHaveLength(1);
    expect(github.git.history(github.git.resolve(first.branch)!)).toHaveLength(3);
    expect(github.fileAt(first.branch, 'docs/environment.mdx')).toBe(
      ENV_PAGE.replace('APP_TOKEN', 'CLIENT_TOKEN'),
    );
    expect(await t.service.store.jobs.messages(jobId)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          role: 'user',
          content: expect.stringContaining('+  token: process.env.CLIENT_TOKEN,'),
        }),
      ]),
    );
  });

  it('says in the thread that no page is affected, and opens nothing', async () => {
    const code = codePullRequest(
      'test-only',
      {
        'test/options.test.ts': 'expect(defaults.maxRetries).toBe(3);\nexpect(defaults.timeout).toBe(10);\n',
      },
      'More tests',
    );
    await comment('/docs sync', code.number, { body: '' });
    const jobId = findJobMarker(statusOf(code.number)!.body)!;
    const job = await t.settle(jobId);
    expect(job.status).toBe('completed');
    expect(github.pulls).toHaveLength(1);
    expect(github.git.resolve(job.branch)).toBeUndefined();
    const status = statusOf(code.number)!.body;
    expect(status).toContain('Nothing was changed');
    expect(status).toContain(`no docs page is affected by "More tests" (${code.html_url})`);
  });

  it('in an issue, explains that it follows a pull request and starts nothing', async () => {
    await comment('/docs SYNC', 12);
    expect(github.comments.filter((item) => item.issue === 12).map((item) => item.body)).toEqual([
      "@maintainer, `/docs sync` brings the docs up to date with a code change, so it works in a pull request's conversation; nothing was started. In an issue, say what to change after `/docs`.",
    ]);
    expect(
      await t.service.store.jobs.list((await t.service.store.projects.list())[0]!.id, { limit: 5 }),
    ).toEqual([]);
  });
});

/** The docs of the code repository's change, in a repository of their own. */
const HANDBOOK = 'octo-org/handbook';

/** Installs the app on the docs repository too, with its docs in docs/. */
async function installOnHandbook() {
  const { project } = await t.service.store.projects.upsertOnGitHub({
    host: hostOf(t.config.github.hosts),
    repository: HANDBOOK,
    baseRef: 'main',
    installationId: INSTALLATION_ID,
  });
  await t.service.store.projects.applySettings(project.id, {
    baseRef: 'main',
    docsRoot: parseDocsRoot('docs'),
    model: null,
    writable: [],
  });
}

describe('docs in another repository', () => {
  let handbook: FakeGitHub;
  beforeEach(async () => {
    const docsOnly = new Map([...files].filter(([path]) => path.startsWith('docs/')));
    handbook = new FakeGitHub(HANDBOOK, docsOnly);
    handbook.settingsFiles.set('.github/docwright.yml', 'docs_root: docs\n');
    await start(`sync:\n  docs_repository: ${HANDBOOK}\n`, [handbook]);
  });

  it('opens the docs pull request in the docs repository, each pull request linking the other', async () => {
    await installOnHandbook();
    const code = codePullRequest(
      'rename-retries',
      { 'src/options.ts': OPTIONS_CODE.replace('maxRetries', 'retryLimit') },
      'Rename maxRetries to retryLimit',
    );
    await comment('/docs sync', code.number, { body: '' });
    const job = await t.settle(findJobMarker(statusOf(code.number)!.body)!);
    expect(job.status).toBe('completed');
    expect(handbook.fileAt(job.branch, 'docs/reference/options.mdx')).toBe(
      OPTIONS_PAGE.replace('## maxRetries', '## retryLimit'),
    );
    expect(github.git.resolve(job.branch)).toBeUndefined();
    const [docs] = handbook.pulls;
    expect(job.pr_link).toBe(`https://github.com/${HANDBOOK}/pull/${docs!.number}`);
    expect(docs!.body).toContain(code.html_url);
    expect(docs!.body).toContain(
      `[${REPOSITORY}#${code.number}](https://github.com/${REPOSITORY}/pull/${code.number})`,
    );
    expect(statusOf(code.number)!.body).toContain(`Pull request ready:** ${job.pr_link}`);
  });

  it('says so when the app is not installed on the docs repository', async () => {
    const code = codePullRequest('rename', { 'src/options.ts': 'export {};\n' }, 'Drop options');
    await comment('/docs sync', code.number, { body: '' });
    expect(github.comments.filter((item) => item.issue === code.number).map((item) => item.body)).toEqual([
      `docwright is not installed on ${HANDBOOK}, the docs repository that \`sync.docs_repository\` in .github/docwright.yml names, so nothing was started. Install the app on it too.`,
    ]);
  });
});

describe('sync.on_merge', () => {
  /** Delivers \`pull_request.closed\` for a merged pull request, signed. */
  async function merged(number: number, head: string) {
    await deliver('pull_request', closedPullRequest({ number, head, body: '', merged: true }));
  }

  it('runs the docs sync of a merged pull request, with its status in the pull request', async () => {
    await start('docs_root: docs\nsync:\n  on_merge: true\n');
    const code = codePullRequest(
      'rename-retries',
      { 'src/options.ts': OPTIONS_CODE.replace('maxRetries', 'retryLimit') },
      'Rename maxRetries to retryLimit',
    );
    await merged(code.number, 'rename-retries');
    const job = await t.settle(findJobMarker(statusOf(code.number)!.body)!);
    expect(github.fileAt(job.branch, 'docs/reference/options.mdx')).toContain('## retryLimit');
    expect(statusOf(code.number)!.body).toContain(`Pull request ready:** ${job.pr_link}`);
  });

  it('does nothing on a merge unless the settings ask for it', async () => {
    await start('docs_root: docs\n');
    const code = codePullRequest('rename-retries', { 'src/options.ts': 'export {};\n' }, 'Drop options');
    await merged(code.number, 'rename-retries');
    expect(github.comments).toEqual([]);
    expect(github.pulls).toHaveLength(1);
  });
});

describe('the sync settings', () => {
  it('are off and point at the repository itself by default, and name the key that is wrong', () => {
    expect(parseSettings(null).sync).toEqual({ docsRepository: null, onMerge: false, check: false });
    expect(
      parseSettings({ sync: { docs_repository: 'octo-org/handbook', on_merge: true, check: true } }).sync,
    ).toEqual({
      docsRepository: 'octo-org/handbook',
      onMerge: true,
      check: true,
    });
    expect(() => parseSettings({ sync: { docs_repository: 'handbook' } })).toThrow(
      '.github/docwright.yml is not valid (sync.docs_repository): must be owner/name, e.g. octo-org/docs',
    );
    expect(() => parseSettings({ sync: { check: 'yes' } })).toThrow(/\(sync\.check\)/);
    expect(() => parseSettings({ sync: { checks: true } })).toThrow(/\(sync\)/);
  });
});

describe('sync.check', () => {
  const CHECK_ON = 'docs_root: docs\nsync:\n  check: true\n';
  const RENAMED = OPTIONS_CODE.replace('maxRetries', 'retryLimit');
  const OPTIONS_LINK = `https://github.com/${REPOSITORY}/blob/main/docs/reference/options.mdx`;

  /** Delivers `pull_request.<action>` for a pull request at its branch's head, signed. */
  async function pullRequest(action: 'opened' | 'reopened' | 'synchronize', number: number, head: string) {
    const sha = github.git.resolve(head)!;
    await deliver('pull_request', pullRequestEvent(action, { number, head, sha }));
    return sha;
  }

  /** A new commit on `branch` with `changes`. */
  function push(branch: string, changes: Record<string, string>) {
    const head = github.git.resolve(branch)!;
    const tree = new Map(github.git.filesAt(head));
    for (const [path, text] of Object.entries(changes)) tree.set(path, Buffer.from(text));
    github.git.refs.set(
      branch,
      github.git.writeCommit({ tree: github.git.writeTree(tree), message: 'more', parents: [head] }),
    );
  }

  it('warns on a pull request that renames a documented option, naming the page and the evidence', async () => {
    await start(CHECK_ON);
    const code = codePullRequest('rename-retries', { 'src/options.ts': RENAMED }, 'Rename maxRetries');
    const sha = await pullRequest('opened', code.number, 'rename-retries');

    expect(github.checkRuns).toHaveLength(1);
    const [run] = github.checkRuns;
    expect(run).toMatchObject({
      name: 'docwright: docs follow code',
      head_sha: sha,
      status: 'completed',
      conclusion: 'neutral',
      output: { title: '1 docs page may be stale' },
    });
    const summary = run!.output!.summary;
    expect(summary).toContain(
      'This pull request changes what these docs pages describe, and leaves them as they are:',
    );
    expect(summary).toContain(`- [\`reference/options.mdx\`](${OPTIONS_LINK}) (0.`);
    expect(summary).toContain(
      '  - maxRetries renamed to retryLimit (src/options.ts:2); page line 5: ## maxRetries',
    );
    expect(summary).not.toContain('environment.mdx');
    expect(summary).toContain(
      'Comment `/docs sync` on this pull request, and docwright brings it up to date in a docs pull request.',
    );
    // No job, no model, nothing written in the thread.
    const [project] = await t.service.store.projects.list();
    expect(await t.service.store.jobs.list(project!.id, { limit: 5 })).toEqual([]);
    expect(github.comments).toEqual([]);
  });

  it('passes once a push to the pull request changes the page too', async () => {
    await start(CHECK_ON);
    const code = codePullRequest('rename-retries', { 'src/options.ts': RENAMED }, 'Rename maxRetries');
    await pullRequest('opened', code.number, 'rename-retries');
    push('rename-retries', {
      'docs/reference/options.mdx': OPTIONS_PAGE.replace('## maxRetries', '## retryLimit'),
    });
    const sha = await pullRequest('synchronize', code.number, 'rename-retries');

    expect(github.checkRuns.map((run) => run.conclusion)).toEqual(['neutral', 'success']);
    const run = github.checkRuns[1]!;
    expect(run.head_sha).toBe(sha);
    expect(run.output).toEqual({
      title: '1 affected docs page is changed too',
      summary: expect.stringContaining(
        'This pull request changes what these docs pages describe, and changes them too:',
      ),
    });
    expect(run.output!.summary).toContain(`[\`reference/options.mdx\`](${OPTIONS_LINK})`);
  });

  it('passes with "no docs page" when the change touches no documented name, or no code', async () => {
    await start(CHECK_ON);
    const code = codePullRequest(
      'longer-timeout',
      { 'src/options.ts': OPTIONS_CODE.replace('timeout: 10', 'timeout: 10,\n  verbose: false') },
      'Add verbose',
    );
    await pullRequest('reopened', code.number, 'longer-timeout');
    const tests = codePullRequest(
      'test-only',
      { 'test/options.test.ts': 'expect(defaults.timeout).toBe(10);\n' },
      'More tests',
    );
    const before = github.calls.length;
    await pullRequest('opened', tests.number, 'test-only');

    expect(github.checkRuns.map((run) => [run.conclusion, run.output])).toEqual([
      [
        'success',
        {
          title: 'No docs page is affected',
          summary:
            'No docs page is affected by this change. The pages read: `docs/` of octo-org/docs-site at `main`.',
        },
      ],
      [
        'success',
        {
          title: 'No docs page is affected',
          summary: 'No docs page is affected by this change: it changes no code.',
        },
      ],
    ]);
    // A change without code needs no docs: nothing is downloaded for it.
    expect(github.calls.slice(before).filter((call) => call.path.includes('tarball'))).toEqual([]);
  });

  it('does nothing without the setting: no check run, no request but the settings read', async () => {
    await start('docs_root: docs\n');
    const code = codePullRequest('rename-retries', { 'src/options.ts': RENAMED }, 'Rename maxRetries');
    const before = github.calls.length;
    await pullRequest('opened', code.number, 'rename-retries');
    expect(github.checkRuns).toEqual([]);
    expect(github.calls.slice(before).map((call) => `${call.method} ${call.path}`)).toEqual([
      `POST api.github.com/app/installations/${INSTALLATION_ID}/access_tokens`,
      'POST api.github.com/graphql',
    ]);
  });

  it('writes no check run in token mode, where GitHub refuses check runs to anything but an app, and says so once', async () => {
    const lines: string[] = [];
    const sink = new PassThrough();
    sink.on('data', (chunk: Buffer) => lines.push(...chunk.toString().trim().split('\n')));
    await start(CHECK_ON, [], 'token', createLogger({ level: 'warn', destination: sink, format: 'json' }));
    const code = codePullRequest('rename-retries', { 'src/options.ts': RENAMED }, 'Rename maxRetries');
    const before = github.calls.length;
    await pullRequest('opened', code.number, 'rename-retries');
    expect(github.checkRuns).toEqual([]);
    expect(github.calls.slice(before).map((call) => `${call.method} ${call.path}`)).toEqual([
      'POST api.github.com/graphql',
    ]);
    // Every later pull request of the repository is checked no more, and not said again.
    await pullRequest('synchronize', code.number, 'rename-retries');
    await pullRequest('reopened', code.number, 'rename-retries');
    expect(github.checkRuns).toEqual([]);
    const warnings = lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(warnings).toEqual([
      'sync.check is set, but only the GitHub App writes check runs: no docs check in token mode',
    ]);
  });

  it('warns, saying why, when the change cannot be read, and the delivery still succeeds', async () => {
    await start(CHECK_ON);
    const code = codePullRequest('rename-retries', { 'src/options.ts': RENAMED }, 'Rename maxRetries');
    github.fail('GET', /\/pulls\/\d+\/files$/, [403, { message: 'Resource not accessible by integration' }]);
    await pullRequest('synchronize', code.number, 'rename-retries');
    expect(github.checkRuns).toHaveLength(1);
    expect(github.checkRuns[0]).toMatchObject({
      conclusion: 'neutral',
      output: {
        title: 'The docs could not be checked',
        summary: `The docs pages this pull request affects could not be listed: GitHub answered GET /repos/${REPOSITORY}/pulls/${code.number}/files with HTTP 403 (Resource not accessible by integration).`,
      },
    });
  });

  /** Delivers `check_run.rerequested`, signed: someone chose "Re-run" on a check run. */
  async function rerun(options: Parameters<typeof checkRunRerequested>[0]) {
    await deliver('check_run', checkRunRerequested(options));
  }

  it('checks the same commit again when someone re-runs the check, for the pull request it was written for', async () => {
    await start(CHECK_ON);
    const code = codePullRequest('rename-retries', { 'src/options.ts': RENAMED }, 'Rename maxRetries');
    // Refused until the installation accepts the permissions the app asks for; then someone re-runs.
    github.fail('GET', /\/pulls\/\d+\/files$/, [403, { message: 'Resource not accessible by integration' }]);
    const sha = await pullRequest('opened', code.number, 'rename-retries');
    expect(github.checkRuns[0]).toMatchObject({
      head_sha: sha,
      external_id: String(code.number),
      output: { title: 'The docs could not be checked' },
    });

    // GitHub lists no pull request with a run of a fork's pull request: the run's own id says it.
    await rerun({ name: DOCS_CHECK_NAME, sha, externalId: String(code.number), pullRequests: [] });
    expect(github.checkRuns).toHaveLength(2);
    expect(github.checkRuns[1]).toMatchObject({
      name: DOCS_CHECK_NAME,
      head_sha: sha,
      external_id: String(code.number),
      conclusion: 'neutral',
      output: { title: '1 docs page may be stale' },
    });
    expect(github.checkRuns[1]!.output!.summary).toContain(`[\`reference/options.mdx\`](${OPTIONS_LINK})`);

    // A run without the id (written by an earlier version) goes by the pull request GitHub lists.
    await rerun({ name: DOCS_CHECK_NAME, sha, externalId: '', pullRequests: [code.number] });
    expect(github.checkRuns.map((run) => [run.head_sha, run.output?.title])).toEqual([
      [sha, 'The docs could not be checked'],
      [sha, '1 docs page may be stale'],
      [sha, '1 docs page may be stale'],
    ]);
  });

  it('checks each pull request of the suite again on "Re-run all checks", one from a fork too', async () => {
    await start(CHECK_ON);
    const code = codePullRequest('rename-retries', { 'src/options.ts': RENAMED }, 'Rename maxRetries');
    github.fail('GET', /\/pulls\/\d+\/files$/, [403, { message: 'Resource not accessible by integration' }]);
    const sha = await pullRequest('opened', code.number, 'rename-retries');
    const suiteId = github.suiteOf(sha);

    // A fork's pull request is not listed with the suite: its docs check run says which it was.
    await deliver('check_suite', checkSuiteRerequested({ suiteId, sha, pullRequests: [] }));
    await deliver('check_suite', checkSuiteRerequested({ suiteId, sha, pullRequests: [code.number] }));
    expect(github.checkRuns.map((run) => [run.head_sha, run.external_id, run.output?.title])).toEqual([
      [sha, String(code.number), 'The docs could not be checked'],
      [sha, String(code.number), '1 docs page may be stale'],
      [sha, String(code.number), '1 docs page may be stale'],
    ]);

    // When the suite's runs cannot be listed, the delivery still succeeds and nothing is written.
    github.fail('GET', /\/check-suites\/\d+\/check-runs$/, [403, { message: 'Forbidden' }]);
    await deliver('check_suite', checkSuiteRerequested({ suiteId, sha, pullRequests: [] }));
    expect(github.checkRuns).toHaveLength(3);
  });

  it("leaves alone the re-runs of other apps' check runs and suites, which GitHub sends every app with the Checks permission", async () => {
    await start(CHECK_ON);
    const code = codePullRequest('rename-retries', { 'src/options.ts': RENAMED }, 'Rename maxRetries');
    const sha = github.git.resolve('rename-retries')!;
    const before = github.calls.length;
    await rerun({ name: DOCS_CHECK_NAME, sha, externalId: '1', pullRequests: [code.number], appId: 99 });
    await rerun({ name: 'lint', sha, externalId: '', pullRequests: [code.number] });
    await deliver('check_suite', checkSuiteRerequested({ suiteId: 5, sha, pullRequests: [], appId: 99 }));
    expect(github.checkRuns).toEqual([]);
    expect(github.calls.slice(before)).toEqual([]);
  });

  it('lists the pages of the docs repository that sync.docs_repository names', async () => {
    const docsOnly = new Map([...files].filter(([path]) => path.startsWith('docs/')));
    const handbook = new FakeGitHub(HANDBOOK, docsOnly);
    await start(`sync:\n  docs_repository: ${HANDBOOK}\n  check: true\n`, [handbook]);
    // The code repository keeps no docs: a page listed can only be the handbook's.
    github.git.refs.set(
      'main',
      github.git.writeCommit({
        tree: github.git.writeTree(new Map([...files].filter(([path]) => !path.startsWith('docs/')))),
        message: 'docs moved to the handbook',
        parents: [github.git.resolve('main')!],
      }),
    );
    const code = codePullRequest('rename-retries', { 'src/options.ts': RENAMED }, 'Rename maxRetries');

    await pullRequest('opened', code.number, 'rename-retries');
    expect(github.checkRuns[0]!.output).toEqual({
      title: 'The docs could not be checked',
      summary: `docwright is not installed on ${HANDBOOK}, the docs repository that \`sync.docs_repository\` in .github/docwright.yml names, so its pages could not be read. Install the app on it too.`,
    });

    await installOnHandbook();
    await pullRequest('synchronize', code.number, 'rename-retries');
    const run = github.checkRuns[1]!;
    expect(run.conclusion).toBe('neutral');
    expect(run.output!.summary).toContain(
      `This pull request changes what these pages of ${HANDBOOK} describe:`,
    );
    expect(run.output!.summary).toContain(
      `- [\`reference/options.mdx\`](https://github.com/${HANDBOOK}/blob/main/docs/reference/options.mdx)`,
    );
    expect(run.output!.summary).toContain('maxRetries renamed to retryLimit (src/options.ts:2)');
    expect(handbook.checkRuns).toEqual([]);
  });

  it('is asked for by the app manifest: the pull_request, check_run and check_suite events and the Checks permission, as the docs list them', () => {
    const manifest = parseYaml(readFileSync('app.yml', 'utf8')) as {
      default_events: string[];
      default_permissions: Record<string, string>;
    };
    expect(manifest.default_events).toEqual(
      expect.arrayContaining(['pull_request', 'check_run', 'check_suite']),
    );
    expect(manifest.default_permissions.checks).toBe('write');
    const page = readFileSync('docs/github-app.mdx', 'utf8');
    expect(page).toMatch(/\n\| permission: Checks +\| read and write: the docs check run on pull requests/);
    expect(page).toMatch(/\n\| events +\| `check_run`, `check_suite`, `issue_comment`, `pull_request`,/);
  });

  it('keeps the summary within GitHub’s 65,535 characters however many pages are affected', () => {
    const evidence = {
      kind: 'name' as const,
      name: 'maxRetries',
      change: 'removed' as const,
      diffLine: { file: 'src/options.ts', line: 2, text: 'maxRetries: 3,' },
      pageLine: { line: 5, text: `## maxRetries ${'x'.repeat(1_000)}` },
      weight: 0.8,
    };
    const pages = Array.from({ length: 2_000 }, (_, index) => ({
      path: `reference/page-${index}.mdx`,
      score: 0.8,
      affected: true,
      evidence: [evidence, evidence, evidence, evidence],
    }));
    const place = {
      repository: REPOSITORY,
      branch: 'main',
      docsRoot: 'docs',
      webUrl: 'https://github.com',
      ownRepository: true,
    };
    const { summary } = docsCheckOutput(pages, pages, place, '/docs');
    expect(summary.length).toBeLessThanOrEqual(65_535);
    expect(summary).toMatch(/\n- …and \d+ more pages\n\nComment `\/docs sync` on this pull request/);
    // Each page listed shows its three strongest pieces of evidence.
    const lines = summary.split('\n');
    const listed = lines.filter((line) => line.startsWith('- [')).length;
    expect(listed).toBeGreaterThan(0);
    expect(lines.filter((line) => line.startsWith('  - '))).toHaveLength(3 * listed);
  });
});
