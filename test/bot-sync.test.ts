/**
 * `/docs sync` in the GitHub App, end to end: a signed comment on a code pull request (a real
 * payload of @octokit/webhooks-examples) reaches the real service, which reads the pull request
 * and its diff from the fake GitHub, runs the built-in agent on the docs and opens a docs pull
 * request, or says in the thread that nothing is affected.
 */
import { randomUUID } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findJobMarker } from '../src/github/index.js';
import { hostOf } from '../src/github/hosts.js';
import { parseSettings } from '../src/github/settings.js';
import { parseDocsRoot } from '../src/write-policy/index.js';
import { FakeGitHub } from './fixtures/bot/fake-github.js';
import {
  closedPullRequest,
  INSTALLATION_ID,
  issueComment,
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

async function start(settings: string, others: FakeGitHub[] = []) {
  github = new FakeGitHub(REPOSITORY, files);
  github.settingsFiles.set('.github/docwright.yml', settings);
  removeInterceptors = interceptRepositories([github, ...others]);
  t = await startBotHarness({ github });
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

/** Delivers a comment as GitHub does: the JSON body signed with the webhook secret. */
async function comment(body: string, issue: number, pullRequest?: { body: string }) {
  const payload = JSON.stringify(issueComment(body, { issue, ...(pullRequest ? { pullRequest } : {}) }));
  await t.probot.webhooks.verifyAndReceive({
    id: randomUUID(),
    name: 'issue_comment',
    payload,
    signature: await sign(WEBHOOK_SECRET, payload),
  });
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

describe('docs in another repository', () => {
  let handbook: FakeGitHub;
  beforeEach(async () => {
    const docsOnly = new Map([...files].filter(([path]) => path.startsWith('docs/')));
    handbook = new FakeGitHub(HANDBOOK, docsOnly);
    handbook.settingsFiles.set('.github/docwright.yml', 'docs_root: docs\n');
    await start(`sync:\n  docs_repository: ${HANDBOOK}\n`, [handbook]);
  });

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
    const payload = JSON.stringify(closedPullRequest({ number, head, body: '', merged: true }));
    await t.probot.webhooks.verifyAndReceive({
      id: randomUUID(),
      name: 'pull_request',
      payload,
      signature: await sign(WEBHOOK_SECRET, payload),
    });
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
    expect(parseSettings(null).sync).toEqual({ docsRepository: null, onMerge: false });
    expect(parseSettings({ sync: { docs_repository: 'octo-org/handbook', on_merge: true } }).sync).toEqual({
      docsRepository: 'octo-org/handbook',
      onMerge: true,
    });
    expect(() => parseSettings({ sync: { docs_repository: 'handbook' } })).toThrow(
      '.github/docwright.yml is not valid (sync.docs_repository): must be owner/name, e.g. octo-org/docs',
    );
    expect(() => parseSettings({ sync: { check: true } })).toThrow(/\(sync\)/);
  });
});
