import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Octokit } from '@octokit/rest';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DocwrightError } from '../src/core/errors.js';
import { findPullRequestByHead, GitHubForge } from '../src/forge/github/github-forge.js';
import { parseRepository } from '../src/github-api/repository-name.js';
import { BranchMovedError } from '../src/forge/local-git.js';
import { Overlay } from '../src/forge/overlay.js';
import type { FileChange } from '../src/forge/types.js';
import { createOctokit } from '../src/github-api/octokit.js';
import { githubTarball, type ArchiveEntry } from './fixtures/github/tarball.js';

const API = 'https://api.github.com';
const REPO = 'octo-org/docs-site';
const REPO_PATH = '/repos/octo-org/docs-site';
const TOKEN = `ghp_${'A1b2C3d4'.repeat(4)}abcd`;
const BRANCH = 'docwright/job-1';
const MESSAGE =
  'docs: fix the quickstart link\n\nFixed the link.\n\nDocwright-Job: job-1\nDocwright-Run: job-1/1\n';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/github/${name}.json`, import.meta.url), 'utf8'));
const errors = fixture('errors');
const BASE = fixture('get-commit').sha as string;
const BASE_TREE = fixture('get-commit').commit.tree.sha as string;
const NEW_TREE = fixture('create-tree').sha as string;
const NEW_COMMIT = fixture('create-commit').sha as string;
const BLOB = fixture('create-blob').sha as string;
const HEAD = 'aa218f56b14c9653891f9e74264a383fa43fefbd';
const OTHER = '553c2077f0edc3d5dc5d17262f6aa498e69d6f8e';

const BINARY = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0xff]), randomBytes(70_000)]);
const LONG_NAME = `docs/reference/${'configuration-option-'.repeat(6)}explained.md`;
const FILES: ArchiveEntry[] = [
  { name: 'README.md', content: '# Docs site\n' },
  { name: 'docs', type: 'directory' },
  { name: 'docs/index.md', content: '# Docs\n\nSee the [guide](guides/deep/page.md).\n' },
  { name: 'docs/old.md', content: '# Old\n' },
  { name: 'docs/latest', type: 'symlink', linkname: 'v2' },
  { name: 'docs/guides', type: 'directory' },
  { name: 'docs/guides/deep', type: 'directory' },
  { name: 'docs/guides/deep/page.md', content: '# Deep\n' },
  { name: 'docs/assets', type: 'directory' },
  { name: 'docs/assets/logo.png', content: BINARY },
  { name: 'docs/reference', type: 'directory' },
  { name: LONG_NAME, content: '# Options\n' },
  { name: 'scripts', type: 'directory' },
  { name: 'scripts/build.sh', content: '#!/bin/sh\necho build\n', mode: 0o775 },
];

interface Recorded {
  method: string;
  path: string;
  body?: unknown;
}
let requests: Recorded[] = [];

/** A nock scope on api.github.com that records every request it answers, body parsed. */
function api(): nock.Scope {
  const scope = nock(API);
  scope.on('request', (request: { method: string; path: string }, _interceptor: unknown, body: string) => {
    requests.push({
      method: request.method,
      path: request.path,
      ...(body ? { body: JSON.parse(body) } : {}),
    });
  });
  return scope;
}

/** Octokit without the retry and throttling plugins: one request per call, no write spacing. */
const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const plainOctokit = () => new Octokit({ auth: TOKEN, log: quiet });
const forgeWith = (octokit: Octokit, auth: 'app' | 'token' = 'app') =>
  new GitHubForge({ octokitFor: () => Promise.resolve(octokit), auth });
const text = (path: string, content: string): FileChange => ({ path, content: Buffer.from(content) });

/** GitHub's tarball route answers with a redirect to codeload, which must not receive the token. */
async function mockTarball(commit: string, entries: ArchiveEntry[] = FILES): Promise<void> {
  const archive = await githubTarball(`octo-org-docs-site-${commit.slice(0, 7)}`, commit, entries);
  const location = `https://codeload.github.com/octo-org/docs-site/legacy.tar.gz/${commit}`;
  api().get(`${REPO_PATH}/tarball/${commit}`).reply(302, '', { location });
  nock('https://codeload.github.com', { badheaders: ['authorization'] })
    .get(`/octo-org/docs-site/legacy.tar.gz/${commit}`)
    .reply(200, archive, { 'content-type': 'application/x-gzip' });
}

/** The forge after a run's reads: base resolved and snapshotted, so the commit needs no lookups. */
async function forgeAfterSnapshot(forge = forgeWith(plainOctokit())) {
  api().get(`${REPO_PATH}/commits/main`).query({ per_page: '1' }).reply(200, fixture('get-commit'));
  await mockTarball(BASE);
  const snapshot = await forge.snapshot(REPO, (await forge.resolveRef(REPO, 'main'))!);
  requests = [];
  return { forge, snapshot };
}

function mockWrites(options: { ref: 'create' | 'update' } = { ref: 'create' }) {
  const scope = api()
    .post(`${REPO_PATH}/git/trees`)
    .reply(201, fixture('create-tree'))
    .post(`${REPO_PATH}/git/commits`)
    .reply(201, fixture('create-commit'));
  if (options.ref === 'create') scope.post(`${REPO_PATH}/git/refs`).reply(201, fixture('ref'));
  else scope.patch(`${REPO_PATH}/git/refs/heads%2Fdocwright%2Fjob-1`).reply(200, fixture('ref'));
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  const pending = nock.pendingMocks();
  const done = nock.isDone();
  nock.cleanAll();
  requests = [];
  expect(pending).toEqual([]);
  expect(done).toBe(true);
});
afterAll(() => nock.enableNetConnect());

describe('snapshot', () => {
  it('reads the tarball in one request: top folder stripped, long names, symlinks remembered', async () => {
    const forge = forgeWith(plainOctokit());
    await mockTarball(BASE);
    const snapshot = await forge.snapshot(REPO, BASE);
    expect(snapshot.commit).toBe(BASE);
    expect(snapshot.paths()).toEqual(
      [
        'README.md',
        'docs/assets/logo.png',
        'docs/guides/deep/page.md',
        'docs/index.md',
        'docs/old.md',
        LONG_NAME,
        'scripts/build.sh',
      ].sort(),
    );
    expect(LONG_NAME.length).toBeGreaterThan(100);
    expect((await snapshot.read(LONG_NAME)).toString()).toBe('# Options\n');
    expect((await snapshot.read('docs/assets/logo.png')).equals(BINARY)).toBe(true);
    expect((await snapshot.read('docs/guides/deep/page.md')).toString()).toBe('# Deep\n');
    expect(snapshot.has('docs/latest')).toBe(false);
    expect(snapshot.isSymlink('docs/latest')).toBe(true);
    expect(snapshot.isSymlink('docs/index.md')).toBe(false);
    expect(requests).toEqual([{ method: 'GET', path: `${REPO_PATH}/tarball/${BASE}` }]);
  });

  it('refuses a repository larger than the memory cap, in words', async () => {
    const forge = new GitHubForge({
      octokitFor: () => Promise.resolve(plainOctokit()),
      maxSnapshotBytes: 50_000,
    });
    await mockTarball(BASE);
    const error = await forge.snapshot(REPO, BASE).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DocwrightError);
    expect(error).toMatchObject({ code: 'payload_too_large', retryable: false });
    expect((error as Error).message).toMatch(
      /octo-org\/docs-site at 6dcb09b5b578 holds more than 50 kB of files/,
    );
  });
});

describe('resolveRef and readCommit', () => {
  it('resolves a branch in one request and reads its commit from what that request returned', async () => {
    const forge = forgeWith(plainOctokit());
    api().get(`${REPO_PATH}/commits/main`).query({ per_page: '1' }).reply(200, fixture('get-commit'));
    expect(await forge.resolveRef(REPO, 'main')).toBe(BASE);
    expect(await forge.readCommit(REPO, BASE)).toEqual({ sha: BASE, message: 'Fix all the bugs' });
    expect(requests).toHaveLength(1);
  });

  it('reads an unknown commit through the git commits API', async () => {
    const forge = forgeWith(plainOctokit());
    api().get(`${REPO_PATH}/git/commits/${BASE}`).reply(200, fixture('git-commit'));
    expect(await forge.readCommit(REPO, BASE)).toEqual({ sha: BASE, message: 'Fix all the bugs' });
  });

  it('returns null for a branch that does not exist (GitHub answers 422)', async () => {
    const forge = forgeWith(plainOctokit());
    api()
      .get(`${REPO_PATH}/commits/docwright%2Fjob-1`)
      .query({ per_page: '1' })
      .reply(422, errors.noCommitFound);
    expect(await forge.resolveRef(REPO, BRANCH)).toBeNull();
  });

  it('returns null on 404 when the repository is visible, and says why when it is not', async () => {
    const forge = forgeWith(plainOctokit());
    const lookup = () =>
      api().get(`${REPO_PATH}/commits/gone`).query({ per_page: '1' }).reply(404, errors.notFound);
    lookup();
    api().get(REPO_PATH).reply(200, fixture('repository'));
    expect(await forge.resolveRef(REPO, 'gone')).toBeNull();
    lookup();
    api().get(REPO_PATH).reply(404, errors.notFound);
    await expect(forge.resolveRef(REPO, 'gone')).rejects.toThrow(
      'The GitHub App cannot read octo-org/docs-site: it may not be installed on it',
    );
  });
});

describe('commit', () => {
  it('writes a single-file change as a tree, a commit and a new ref: three requests', async () => {
    const { forge, snapshot } = await forgeAfterSnapshot();
    const overlay = new Overlay(snapshot);
    overlay.write('docs/index.md', '# Docs\n\nFixed.\n');
    mockWrites();
    const result = await forge.commit({
      repository: REPO,
      branch: BRANCH,
      parent: BASE,
      expectedHead: null,
      changes: await overlay.changes(),
      message: MESSAGE,
    });
    expect(result).toEqual({ sha: NEW_COMMIT, message: MESSAGE.replace(/\n$/, '') });
    expect(requests).toEqual([
      {
        method: 'POST',
        path: `${REPO_PATH}/git/trees`,
        body: {
          base_tree: BASE_TREE,
          tree: [{ path: 'docs/index.md', mode: '100644', type: 'blob', content: '# Docs\n\nFixed.\n' }],
        },
      },
      {
        method: 'POST',
        path: `${REPO_PATH}/git/commits`,
        body: { message: MESSAGE, tree: NEW_TREE, parents: [BASE] },
      },
      {
        method: 'POST',
        path: `${REPO_PATH}/git/refs`,
        body: { ref: 'refs/heads/docwright/job-1', sha: NEW_COMMIT },
      },
    ]);
  });

  it('adds, modifies and deletes on an existing branch, keeping modes, and fast-forwards it', async () => {
    // No snapshot of HEAD was read by this forge: its tree and entries are asked for.
    const forge = forgeWith(plainOctokit());
    api()
      .get(`${REPO_PATH}/git/commits/${HEAD}`)
      .reply(200, { ...fixture('git-commit'), sha: HEAD })
      .get(`${REPO_PATH}/git/trees/${BASE_TREE}`)
      .query({ recursive: 'true' })
      .reply(200, fixture('get-tree-recursive'))
      .post(`${REPO_PATH}/git/blobs`)
      .reply(201, fixture('create-blob'));
    mockWrites({ ref: 'update' });
    await forge.commit({
      repository: REPO,
      branch: BRANCH,
      parent: HEAD,
      expectedHead: HEAD,
      changes: [
        { path: 'docs/assets/logo.png', content: BINARY },
        text('docs/new.md', '# New — café\r\n'),
        text('scripts/build.sh', '#!/bin/sh\necho built\n'),
        { path: 'docs/old.md', content: null },
      ],
      message: MESSAGE,
    });
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET ${REPO_PATH}/git/commits/${HEAD}`,
      `GET ${REPO_PATH}/git/trees/${BASE_TREE}?recursive=true`,
      `POST ${REPO_PATH}/git/blobs`,
      `POST ${REPO_PATH}/git/trees`,
      `POST ${REPO_PATH}/git/commits`,
      `PATCH ${REPO_PATH}/git/refs/heads%2Fdocwright%2Fjob-1`,
    ]);
    expect(requests[2]!.body).toEqual({ content: BINARY.toString('base64'), encoding: 'base64' });
    expect(requests[3]!.body).toEqual({
      base_tree: BASE_TREE,
      tree: [
        { path: 'docs/old.md', mode: '100644', type: 'blob', sha: null },
        { path: 'docs/assets/logo.png', mode: '100644', type: 'blob', sha: BLOB },
        { path: 'docs/new.md', mode: '100644', type: 'blob', content: '# New — café\r\n' },
        { path: 'scripts/build.sh', mode: '100755', type: 'blob', content: '#!/bin/sh\necho built\n' },
      ],
    });
    expect(requests[4]!.body).toEqual({ message: MESSAGE, tree: NEW_TREE, parents: [HEAD] });
    expect(requests[5]!.body).toEqual({ sha: NEW_COMMIT, force: false });
  });

  it('sends 250 changes as three chained tree requests of at most 100 entries', async () => {
    const { forge } = await forgeAfterSnapshot();
    const trees = ['1'.repeat(40), '2'.repeat(40), NEW_TREE];
    const scope = api();
    for (const sha of trees)
      scope.post(`${REPO_PATH}/git/trees`).reply(201, { ...fixture('create-tree'), sha });
    scope.post(`${REPO_PATH}/git/commits`).reply(201, fixture('create-commit'));
    scope.post(`${REPO_PATH}/git/refs`).reply(201, fixture('ref'));
    const changes = Array.from({ length: 250 }, (_, index) =>
      text(`docs/generated/page-${index}.md`, `# ${index}\n`),
    );
    await forge.commit({
      repository: REPO,
      branch: BRANCH,
      parent: BASE,
      expectedHead: null,
      changes,
      message: MESSAGE,
    });
    const treeBodies = requests
      .slice(0, 3)
      .map((request) => request.body as { base_tree: string; tree: unknown[] });
    expect(treeBodies.map((body) => [body.base_tree, body.tree.length])).toEqual([
      [BASE_TREE, 100],
      [trees[0], 100],
      [trees[1], 50],
    ]);
    expect(requests[3]!.body).toMatchObject({ tree: NEW_TREE, parents: [BASE] });
    expect(requests).toHaveLength(5);
  });

  it('reports a branch that appeared meanwhile as BranchMovedError', async () => {
    const { forge } = await forgeAfterSnapshot();
    api()
      .post(`${REPO_PATH}/git/trees`)
      .reply(201, fixture('create-tree'))
      .post(`${REPO_PATH}/git/commits`)
      .reply(201, fixture('create-commit'))
      .post(`${REPO_PATH}/git/refs`)
      .reply(422, errors.referenceExists)
      .get(`${REPO_PATH}/commits/docwright%2Fjob-1`)
      .query({ per_page: '1' })
      .reply(200, { ...fixture('get-commit'), sha: OTHER });
    const error = await forge
      .commit({
        repository: REPO,
        branch: BRANCH,
        parent: BASE,
        expectedHead: null,
        changes: [text('docs/a.md', 'a')],
        message: MESSAGE,
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BranchMovedError);
    expect(error).toMatchObject({
      code: 'conflict',
      retryable: true,
      branch: BRANCH,
      expectedHead: null,
      actualHead: OTHER,
    });
  });

  it('reports a branch that moved on as BranchMovedError (not a fast forward)', async () => {
    const forge = forgeWith(plainOctokit());
    api()
      .get(`${REPO_PATH}/commits/docwright%2Fjob-1`)
      .query({ per_page: '1' })
      .reply(200, { ...fixture('get-commit'), sha: HEAD });
    await mockTarball(HEAD);
    await forge.snapshot(REPO, (await forge.resolveRef(REPO, BRANCH))!);
    api()
      .post(`${REPO_PATH}/git/trees`)
      .reply(201, fixture('create-tree'))
      .post(`${REPO_PATH}/git/commits`)
      .reply(201, fixture('create-commit'))
      .patch(`${REPO_PATH}/git/refs/heads%2Fdocwright%2Fjob-1`)
      .reply(422, errors.notFastForward)
      .get(`${REPO_PATH}/commits/docwright%2Fjob-1`)
      .query({ per_page: '1' })
      .reply(200, { ...fixture('get-commit'), sha: OTHER });
    const error = await forge
      .commit({
        repository: REPO,
        branch: BRANCH,
        parent: HEAD,
        expectedHead: HEAD,
        changes: [text('docs/a.md', 'a')],
        message: MESSAGE,
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BranchMovedError);
    expect(error).toMatchObject({ expectedHead: HEAD, actualHead: OTHER });
  });

  it.each([
    ['.github/workflows/ci.yml', /\.github\/ is never written/],
    ['.GitHub/settings.yml', /\.GitHub\/ is never written/],
    ['../escape.md', /may not contain "\.\."/],
    ['/etc/passwd', /absolute paths are not allowed/],
    ['docs/latest', /Refusing to write to symlink docs\/latest/],
    ['docs/latest/page.md', /Refusing to write through symlink docs\/latest/],
    ['docs/index.md/child.md', /docs\/index\.md is a file/],
  ])('refuses %s before any request', async (path, message) => {
    const { forge } = await forgeAfterSnapshot();
    const error = await forge
      .commit({
        repository: REPO,
        branch: BRANCH,
        parent: BASE,
        expectedHead: null,
        changes: [text(path, 'x')],
        message: MESSAGE,
      })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'invalid_request', retryable: false });
    expect((error as Error).message).toMatch(message);
    expect(requests).toEqual([]);
  });
});

describe('commit through GraphQL', () => {
  const REPOSITORY_ID = 'R_kgDOtest';
  const COMMIT_TREE = 'b91a2f8c7e1d4a6f0c3b5e9d8a7f6e5d4c3b2a19';

  /** GitHub's GraphQL endpoint, answering the commit mutation with `answer` and recording it. */
  function mockMutation(answer: object) {
    api().post('/graphql').reply(200, answer);
  }

  it('writes a new branch and its commit in one request when the node id is known', async () => {
    const { forge, snapshot } = await forgeAfterSnapshot();
    forge.sawRepository(REPO, REPOSITORY_ID);
    const overlay = new Overlay(snapshot);
    overlay.write('docs/index.md', '# Docs\n\nFixed.\n');
    overlay.delete('docs/old.md');
    mockMutation({
      data: {
        branch: { ref: { name: `refs/heads/${BRANCH}` } },
        commit: { commit: { oid: NEW_COMMIT, tree: { oid: COMMIT_TREE } } },
      },
    });
    const result = await forge.commit({
      repository: REPO,
      branch: BRANCH,
      parent: BASE,
      expectedHead: null,
      changes: await overlay.changes(),
      message: MESSAGE,
    });
    expect(result).toEqual({ sha: NEW_COMMIT, message: MESSAGE.replace(/\n$/, '') });
    expect(requests).toHaveLength(1);
    const { query, variables } = requests[0]!.body as { query: string; variables: Record<string, unknown> };
    expect(query).toMatch(/createRef[\s\S]*createCommitOnBranch/);
    expect(variables).toEqual({
      repositoryId: REPOSITORY_ID,
      ref: `refs/heads/${BRANCH}`,
      repository: REPO,
      branch: BRANCH,
      parent: BASE,
      message: {
        headline: 'docs: fix the quickstart link',
        body: 'Fixed the link.\n\nDocwright-Job: job-1\nDocwright-Run: job-1/1',
      },
      changes: {
        additions: [
          { path: 'docs/index.md', contents: Buffer.from('# Docs\n\nFixed.\n').toString('base64') },
        ],
        deletions: [{ path: 'docs/old.md' }],
      },
    });
  });

  it('reports a branch that moved (STALE_DATA) as BranchMovedError, as the REST path does', async () => {
    const { forge, snapshot } = await forgeAfterSnapshot();
    forge.sawRepository(REPO, REPOSITORY_ID);
    const overlay = new Overlay(snapshot);
    overlay.write('docs/index.md', '# Moved\n');
    mockMutation({
      data: { commit: null },
      errors: [
        {
          type: 'STALE_DATA',
          path: ['commit'],
          message: `Expected branch to point to "${BASE}" but it did not.  Pull and try again.`,
        },
      ],
    });
    const error = await forge
      .commit({
        repository: REPO,
        branch: BRANCH,
        parent: BASE,
        expectedHead: BASE,
        changes: await overlay.changes(),
        message: MESSAGE,
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BranchMovedError);
    expect(error).toMatchObject({ code: 'conflict', retryable: true });
  });

  it('writes through the Git Data API where GitHub offers no such mutation, or the change has an executable file', async () => {
    const { forge, snapshot } = await forgeAfterSnapshot();
    forge.sawRepository(REPO, REPOSITORY_ID);
    const overlay = new Overlay(snapshot);
    overlay.write('docs/index.md', '# Docs\n\nFixed.\n');
    api()
      .post('/graphql')
      .reply(200, { errors: [{ message: "Field 'createCommitOnBranch' doesn't exist on type 'Mutation'" }] });
    mockWrites();
    const request = { repository: REPO, branch: BRANCH, parent: BASE, expectedHead: null, message: MESSAGE };
    expect(await forge.commit({ ...request, changes: await overlay.changes() })).toMatchObject({
      sha: NEW_COMMIT,
    });
    expect(requests.map((request) => request.path)).toEqual([
      '/graphql',
      `${REPO_PATH}/git/trees`,
      `${REPO_PATH}/git/commits`,
      `${REPO_PATH}/git/refs`,
    ]);

    requests = [];
    const scripts = new Overlay(snapshot);
    scripts.write('scripts/build.sh', '#!/bin/sh\necho built\n');
    mockWrites();
    await forge.commit({ ...request, changes: await scripts.changes() });
    expect(requests.map((request) => request.path)).not.toContain('/graphql');
  });
});

describe('ensurePullRequest', () => {
  const request = {
    repository: REPO,
    base: 'main',
    head: BRANCH,
    title: 'docs: new title',
    body: 'New body',
  };

  it('opens the pull request in one request', async () => {
    const forge = forgeWith(plainOctokit());
    api().post(`${REPO_PATH}/pulls`).reply(201, fixture('pull-request'));
    expect(await forge.ensurePullRequest(request)).toEqual({
      url: 'https://github.com/octo-org/docs-site/pull/42',
    });
    expect(requests).toEqual([
      {
        method: 'POST',
        path: `${REPO_PATH}/pulls`,
        body: { base: 'main', head: BRANCH, title: 'docs: new title', body: 'New body' },
      },
    ]);
  });

  it('finds the open one by head when it already exists, and updates its title and body', async () => {
    const forge = forgeWith(plainOctokit());
    api()
      .post(`${REPO_PATH}/pulls`)
      .reply(422, errors.pullRequestExists)
      .get(`${REPO_PATH}/pulls`)
      .query({
        head: 'octo-org:docwright/job-1',
        state: 'open',
        sort: 'created',
        direction: 'desc',
        per_page: '1',
      })
      .reply(200, [fixture('pull-request')])
      .patch(`${REPO_PATH}/pulls/42`)
      .reply(200, { ...fixture('pull-request'), title: request.title, body: request.body });
    expect(await forge.ensurePullRequest(request)).toEqual({
      url: 'https://github.com/octo-org/docs-site/pull/42',
    });
    expect(requests.map((recorded) => recorded.method)).toEqual(['POST', 'GET', 'PATCH']);
    expect(requests[2]!.body).toEqual({ title: 'docs: new title', body: 'New body' });
  });

  it('leaves an existing pull request alone when it already says the same', async () => {
    const forge = forgeWith(plainOctokit());
    const existing = fixture('pull-request');
    api()
      .post(`${REPO_PATH}/pulls`)
      .reply(422, errors.pullRequestExists)
      .get(`${REPO_PATH}/pulls`)
      .query(true)
      .reply(200, [existing]);
    await forge.ensurePullRequest({ ...request, title: existing.title, body: existing.body });
    expect(requests).toHaveLength(2);
  });

  it('exports findPullRequestByHead for the app (closed ones included on request)', async () => {
    api()
      .get(`${REPO_PATH}/pulls`)
      .query({
        head: 'octo-org:docwright/job-9',
        state: 'all',
        sort: 'created',
        direction: 'desc',
        per_page: '1',
      })
      .reply(200, [])
      .get(`${REPO_PATH}/pulls`)
      .query(true)
      .reply(200, [{ ...fixture('pull-request'), state: 'closed', merged_at: '2011-01-26T19:01:12Z' }]);
    const name = parseRepository(REPO, 'https://github.com');
    expect(await findPullRequestByHead(plainOctokit(), name, 'docwright/job-9', { state: 'all' })).toBeNull();
    expect(await findPullRequestByHead(plainOctokit(), name, BRANCH, { state: 'all' })).toMatchObject({
      number: 42,
      url: 'https://github.com/octo-org/docs-site/pull/42',
      state: 'closed',
      merged: true,
      head: BRANCH,
    });
  });
});

describe('errors in words', () => {
  it('says the token lacks permission to push, without the token', async () => {
    const forge = forgeWith(plainOctokit(), 'token');
    api()
      .get(`${REPO_PATH}/commits/main`)
      .query({ per_page: '1' })
      .reply(200, fixture('get-commit'))
      .post(`${REPO_PATH}/git/trees`)
      .reply(403, errors.resourceNotAccessible);
    await mockTarball(BASE);
    await forge.snapshot(REPO, (await forge.resolveRef(REPO, 'main'))!);
    const error = await forge
      .commit({
        repository: REPO,
        branch: BRANCH,
        parent: BASE,
        expectedHead: null,
        changes: [text('docs/a.md', 'a')],
        message: MESSAGE,
      })
      .catch((caught: unknown) => caught);
    // A missing permission does not heal with retries: the job fails at once, with this sentence.
    // It stays a GitHub failure (forge_error), whether it may heal or not.
    expect(error).toBeInstanceOf(DocwrightError);
    expect(error).toMatchObject({ code: 'forge_error', retryable: false });
    expect((error as Error).message).toMatch(/^The token lacks permission to push to octo-org\/docs-site/);
    expect(JSON.stringify(error)).not.toContain(TOKEN);
    expect((error as Error).message).not.toContain(TOKEN);
  });

  it('says the credentials were rejected on 401', async () => {
    const forge = forgeWith(plainOctokit(), 'token');
    api().post(`${REPO_PATH}/pulls`).reply(401, errors.badCredentials);
    await expect(
      forge.ensurePullRequest({ repository: REPO, base: 'main', head: BRANCH, title: 't', body: 'b' }),
    ).rejects.toThrow('GitHub rejected the token for octo-org/docs-site: it is invalid, expired or revoked');
  });

  it('refuses a repository that is not owner/repo, and accepts the web address', () => {
    const forge = forgeWith(plainOctokit());
    expect(forge.repositoryUrl('https://github.com/octo-org/docs-site.git')).toBe(
      'https://github.com/octo-org/docs-site',
    );
    expect(() => forge.repositoryUrl('octo-org/docs-site/extra')).toThrow(/expected owner\/repo/);
    const enterprise = new GitHubForge({
      octokitFor: () => Promise.resolve(plainOctokit()),
      webUrl: 'https://ghe.example.com/',
    });
    expect(enterprise.repositoryUrl(REPO)).toBe('https://ghe.example.com/octo-org/docs-site');
  });
});

describe('retries through the one request policy (token mode)', () => {
  function tokenForge() {
    const lines: string[] = [];
    const octokit = createOctokit({
      auth: TOKEN,
      baseUrl: API,
      userAgent: 'docwright-test',
      log: { warn: (message) => lines.push(message), debug: () => {} },
      retryAfterBaseValue: 1,
    });
    return { forge: new GitHubForge({ octokitFor: () => Promise.resolve(octokit), auth: 'token' }), lines };
  }
  const getMain = () => api().get(`${REPO_PATH}/commits/main`).query({ per_page: '1' });

  it('retries a 502', async () => {
    const { forge } = tokenForge();
    getMain().reply(502, errors.badGateway);
    getMain().reply(200, fixture('get-commit'));
    expect(await forge.resolveRef(REPO, 'main')).toBe(BASE);
    expect(requests).toHaveLength(2);
  });

  it('retries a secondary rate limit after its Retry-After', async () => {
    const { forge, lines } = tokenForge();
    getMain().reply(403, errors.secondaryRateLimit, { 'retry-after': '1' });
    getMain().reply(200, fixture('get-commit'));
    expect(await forge.resolveRef(REPO, 'main')).toBe(BASE);
    expect(requests).toHaveLength(2);
    expect(lines.join('')).toContain(
      'GitHub secondary rate limit on GET /repos/{owner}/{repo}/commits/{ref}',
    );
    expect(lines.join('')).toContain('retrying after 1 s');
    expect(lines.join('')).not.toContain(TOKEN);
  });

  it('gives up after the third secondary rate limit in a row and says so', async () => {
    const { forge } = tokenForge();
    getMain().times(3).reply(403, errors.secondaryRateLimit, { 'retry-after': '1' });
    await expect(forge.resolveRef(REPO, 'main')).rejects.toThrow(
      /rate limit for octo-org\/docs-site is exhausted/,
    );
    expect(requests).toHaveLength(3);
  });

  it('retries a primary rate limit up to twice, once the window resets', async () => {
    const { forge } = tokenForge();
    const reset = String(Math.floor(Date.now() / 1000));
    const limited = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset };
    getMain().times(2).reply(403, { message: 'API rate limit exceeded for installation ID 1.' }, limited);
    getMain().reply(200, fixture('get-commit'));
    expect(await forge.resolveRef(REPO, 'main')).toBe(BASE);
    expect(requests).toHaveLength(3);
  });
});

describe('request count of a single-file job (the calls run-job.ts makes)', () => {
  it('first run: 8 API requests; a follow-up on the same pull request: 8 (its own commit is not downloaded)', async () => {
    const forge = forgeWith(plainOctokit());
    const getCommit = (ref: string) => api().get(`${REPO_PATH}/commits/${ref}`).query({ per_page: '1' });
    const run = async (expectedHead: string | null) => {
      const head = await forge.resolveRef(REPO, BRANCH);
      if (head) await forge.readCommit(REPO, head); // the already-landed check
      const base = head ?? (await forge.resolveRef(REPO, 'main'))!;
      const overlay = new Overlay(await forge.snapshot(REPO, base));
      overlay.write('docs/index.md', `# Docs ${String(expectedHead)}\n`);
      await forge.commit({
        repository: REPO,
        branch: BRANCH,
        parent: base,
        expectedHead,
        changes: await overlay.changes(),
        message: MESSAGE,
      });
      expect(await forge.resolveRef(REPO, BRANCH)).toBe(NEW_COMMIT);
      return forge.ensurePullRequest({
        repository: REPO,
        base: 'main',
        head: BRANCH,
        title: 'docs: fix',
        body: 'Body',
      });
    };

    getCommit('docwright%2Fjob-1').reply(422, errors.noCommitFound);
    getCommit('main').reply(200, fixture('get-commit'));
    await mockTarball(BASE);
    mockWrites();
    getCommit('docwright%2Fjob-1').reply(200, { ...fixture('get-commit'), sha: NEW_COMMIT });
    api().post(`${REPO_PATH}/pulls`).reply(201, fixture('pull-request'));
    await run(null);
    expect(requests).toHaveLength(8);

    requests = [];
    getCommit('docwright%2Fjob-1').reply(200, { ...fixture('get-commit'), sha: NEW_COMMIT });
    mockWrites({ ref: 'update' });
    getCommit('docwright%2Fjob-1').reply(200, { ...fixture('get-commit'), sha: NEW_COMMIT });
    api()
      .post(`${REPO_PATH}/pulls`)
      .reply(422, errors.pullRequestExists)
      .get(`${REPO_PATH}/pulls`)
      .query(true)
      .reply(200, [fixture('pull-request')])
      .patch(`${REPO_PATH}/pulls/42`)
      .reply(200, fixture('pull-request'));
    await run(NEW_COMMIT);
    expect(requests.map((request) => `${request.method} ${request.path.replace(/\?.*/, '')}`)).toEqual([
      `GET ${REPO_PATH}/commits/docwright%2Fjob-1`,
      `POST ${REPO_PATH}/git/trees`,
      `POST ${REPO_PATH}/git/commits`,
      `PATCH ${REPO_PATH}/git/refs/heads%2Fdocwright%2Fjob-1`,
      `GET ${REPO_PATH}/commits/docwright%2Fjob-1`,
      `POST ${REPO_PATH}/pulls`,
      `GET ${REPO_PATH}/pulls`,
      `PATCH ${REPO_PATH}/pulls/42`,
    ]);
  });

  it('a follow-up that knows its pull request and whose pushes are heard: tree, commit, ref, one update', async () => {
    const forge = new GitHubForge({
      octokitFor: () => Promise.resolve(plainOctokit()),
      rememberRefsMs: 60_000,
    });
    forge.sawHead(REPO, 'main', { sha: BASE, tree: fixture('get-commit').commit.tree.sha, message: 'init' });
    const change = async (parent: string, expectedHead: string | null, text: string) => {
      const overlay = new Overlay(await forge.snapshot(REPO, parent));
      overlay.write('docs/index.md', text);
      await forge.commit({
        repository: REPO,
        branch: BRANCH,
        parent,
        expectedHead,
        changes: await overlay.changes(),
        message: MESSAGE,
      });
    };
    await mockTarball(BASE);
    mockWrites();
    await change((await forge.resolveRef(REPO, 'main'))!, null, '# One\n');
    requests = [];
    api()
      .post(`${REPO_PATH}/git/trees`)
      .reply(201, { ...fixture('create-tree'), sha: OTHER })
      .post(`${REPO_PATH}/git/commits`)
      .reply(201, { ...fixture('create-commit'), sha: HEAD })
      .patch(`${REPO_PATH}/git/refs/heads%2Fdocwright%2Fjob-1`)
      .reply(200, { ...fixture('ref'), object: { sha: HEAD, type: 'commit' } })
      .patch(`${REPO_PATH}/pulls/42`)
      .reply(200, fixture('pull-request'));
    const head = (await forge.resolveRef(REPO, BRANCH))!;
    await change(head, head, '# Two\n');
    const pullRequest = await forge.ensurePullRequest({
      repository: REPO,
      base: 'main',
      head: BRANCH,
      title: 'docs: fix',
      body: 'Body',
      existing: 'https://github.com/octo-org/docs-site/pull/42',
    });
    expect(pullRequest.url).toBe('https://github.com/octo-org/docs-site/pull/42');
    expect(requests.map((request) => `${request.method} ${request.path.replace(/\?.*/, '')}`)).toEqual([
      `POST ${REPO_PATH}/git/trees`,
      `POST ${REPO_PATH}/git/commits`,
      `PATCH ${REPO_PATH}/git/refs/heads%2Fdocwright%2Fjob-1`,
      `PATCH ${REPO_PATH}/pulls/42`,
    ]);
  });
});

it('updates the pull request a job knows in one request, whatever host its stored link names', async () => {
  const forge = forgeWith(plainOctokit());
  requests = [];
  api().patch(`${REPO_PATH}/pulls/42`).reply(200, fixture('pull-request'));
  const pullRequest = await forge.ensurePullRequest({
    repository: REPO,
    base: 'main',
    head: BRANCH,
    title: 'docs: fix',
    body: 'Body',
    // A link written through a proxy, or under another name of the same GitHub.
    existing: 'http://127.0.0.1:8080/octo-org/docs-site/pull/42',
  });
  expect(pullRequest.url).toBe('https://github.com/octo-org/docs-site/pull/42');
  expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
    `PATCH ${REPO_PATH}/pulls/42`,
  ]);
});

it('says which archive is unreadable when the download is not a gzipped tarball', async () => {
  const forge = forgeWith(plainOctokit());
  api()
    .get(`${REPO_PATH}/tarball/${BASE}`)
    .reply(302, '', { location: `https://codeload.github.com/octo-org/docs-site/legacy.tar.gz/${BASE}` });
  nock('https://codeload.github.com')
    .get(`/octo-org/docs-site/legacy.tar.gz/${BASE}`)
    .reply(200, '<html>oops</html>');
  await expect(forge.snapshot(REPO, BASE)).rejects.toThrow(
    /^GitHub's archive of octo-org\/docs-site at 6dcb09b5b578 is unreadable: /,
  );
});
