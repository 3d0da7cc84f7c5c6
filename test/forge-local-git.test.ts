import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DocwrightError } from '../src/core/errors.js';
import { BranchMovedError, LocalGitForge, NotAGitRepositoryError } from '../src/forge/local-git.js';
import type { FileChange } from '../src/forge/types.js';
import { createGitRepo, runGit, type GitRepo, type RepoFile } from './helpers/git-repo.js';

const BINARY = Buffer.concat([Buffer.from([0, 1, 2, 10, 13, 255, 0]), randomBytes(70_000)]);

const FILES: Record<string, RepoFile> = {
  'README.md': '# Project\n',
  'docs/index.md': '# Docs\n\nSee [guide](guide.md).\n',
  'docs/guide.md': '# Guide\n',
  'docs/old.md': '# Old\n',
  'docs/link.md': { symlink: 'guide.md' },
  'docs/assets/logo.png': BINARY,
  'scripts/build.sh': { content: '#!/bin/sh\necho build\n', executable: true },
  outside: { symlink: '../..' },
  '.github/workflows/ci.yml': 'on: push\n',
};

const forge = new LocalGitForge({ author: { name: 'Docwright Test', email: 'bot@example.com' } });

const text = async (dir: string, args: string[]) => (await runGit(dir, args)).toString();
const changed = (file: string, content: string): FileChange => ({
  path: file,
  content: Buffer.from(content),
});

/** `git diff-tree` of a commit against its parent: `M\tdocs/index.md`-style lines, sorted. */
async function diffOfCommit(dir: string, sha: string): Promise<string[]> {
  const output = await text(dir, ['diff-tree', '-r', '--no-renames', '--name-status', `${sha}^`, sha]);
  return output.trim().split('\n').sort();
}

async function commitToNewBranch(
  repo: GitRepo,
  branch: string,
  changes: FileChange[],
  message = 'Edit docs',
) {
  return forge.commit({
    repository: repo.dir,
    branch,
    parent: repo.head,
    expectedHead: null,
    changes,
    message,
  });
}

/** Everything the user could notice: working tree files, index bytes, status, HEAD and refs. */
async function userVisibleState(dir: string) {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && !full.includes(`${path.sep}.git${path.sep}`)) {
      files[path.relative(dir, full)] = (await readFile(full)).toString('base64');
    }
  }
  return {
    files,
    index: (await readFile(path.join(dir, '.git', 'index'))).toString('base64'),
    // GIT_OPTIONAL_LOCKS=0 keeps `git status` itself from refreshing (rewriting) the index.
    status: (await runGit(dir, ['status', '--porcelain'], { env: { GIT_OPTIONAL_LOCKS: '0' } })).toString(),
    head: await readFile(path.join(dir, '.git', 'HEAD'), 'utf8'),
    main: await text(dir, ['rev-parse', 'refs/heads/main']),
  };
}

describe('LocalGitForge on a non-bare repository with uncommitted work', () => {
  let repo: GitRepo;

  beforeEach(async () => {
    repo = await createGitRepo(FILES);
    // The user is mid-edit: a staged change, an unstaged change and an untracked file.
    await writeFile(path.join(repo.dir, 'docs/index.md'), '# Docs (staged edit)\n');
    await runGit(repo.dir, ['add', 'docs/index.md']);
    await writeFile(path.join(repo.dir, 'README.md'), '# Project (unstaged edit)\n');
    await writeFile(path.join(repo.dir, 'notes.txt'), 'untracked\n');
  });
  afterEach(() => repo.cleanup());

  it('lists and reads the files of a commit, binary and symlinks included', async () => {
    const snapshot = await forge.snapshot(repo.dir, 'main');
    expect(snapshot.commit).toBe(repo.head);
    expect(snapshot.paths()).toEqual([
      '.github/workflows/ci.yml',
      'README.md',
      'docs/assets/logo.png',
      'docs/guide.md',
      'docs/index.md',
      'docs/link.md',
      'docs/old.md',
      'outside',
      'scripts/build.sh',
    ]);
    // The committed content, not the user's staged or unstaged edits.
    expect((await snapshot.read('docs/index.md')).toString()).toBe('# Docs\n\nSee [guide](guide.md).\n');
    expect((await snapshot.read('docs/assets/logo.png')).equals(BINARY)).toBe(true);
    expect((await snapshot.read('docs/link.md')).toString()).toBe('guide.md');
    expect(snapshot.isSymlink('docs/link.md')).toBe(true);
    expect(snapshot.isSymlink('docs/guide.md')).toBe(false);
    expect(snapshot.has('notes.txt')).toBe(false);
    await expect(snapshot.read('missing.md')).rejects.toThrow('File not found: missing.md');
    snapshot.close();
  });

  it('reads many files concurrently through one reader and restarts it after close', async () => {
    const snapshot = await forge.snapshot(repo.dir, repo.head);
    const all = await Promise.all(snapshot.paths().map((file) => snapshot.read(file)));
    expect(all.map((content) => content.length)).toContain(BINARY.length);
    snapshot.close();
    expect((await snapshot.read('README.md')).toString()).toBe('# Project\n');
    snapshot.close();
  });

  it('resolves branches, full refs and ids; null when missing', async () => {
    expect(await forge.resolveRef(repo.dir, 'main')).toBe(repo.head);
    expect(await forge.resolveRef(repo.dir, 'refs/heads/main')).toBe(repo.head);
    expect(await forge.resolveRef(repo.dir, repo.head)).toBe(repo.head);
    expect(await forge.resolveRef(repo.dir, 'no-such-branch')).toBeNull();
    expect(await forge.resolveRef(repo.dir, '--help')).toBeNull();
  });

  it('commits additions, modifications and deletions without touching the working tree or index', async () => {
    const before = await userVisibleState(repo.dir);
    const changes: FileChange[] = [
      changed('docs/index.md', '# Docs\n\nSee the [guide](guide.md).\n'),
      changed('docs/new/page.md', '# New page\n'),
      changed('scripts/build.sh', '#!/bin/sh\necho build2\n'),
      { path: 'docs/assets/logo.png', content: Buffer.from(BINARY.subarray(0, 100)) },
      { path: 'docs/old.md', content: null },
    ];
    const result = await commitToNewBranch(repo, 'docwright/job-1', changes);

    expect(await forge.resolveRef(repo.dir, 'docwright/job-1')).toBe(result.sha);
    expect(await text(repo.dir, ['rev-parse', `${result.sha}^`])).toBe(`${repo.head}\n`);
    expect(await diffOfCommit(repo.dir, result.sha)).toEqual([
      'A\tdocs/new/page.md',
      'D\tdocs/old.md',
      'M\tdocs/assets/logo.png',
      'M\tdocs/index.md',
      'M\tscripts/build.sh',
    ]);
    const snapshot = await forge.snapshot(repo.dir, 'docwright/job-1');
    for (const change of changes) {
      if (change.content === null) expect(snapshot.has(change.path)).toBe(false);
      else expect((await snapshot.read(change.path)).equals(change.content)).toBe(true);
    }
    snapshot.close();
    // An existing executable stays executable; new files are regular.
    const modes = await text(repo.dir, ['ls-tree', '-r', result.sha, '--', 'scripts', 'docs/new']);
    expect(modes).toMatch(/^100755 blob \w+\tscripts\/build\.sh$/m);
    expect(modes).toMatch(/^100644 blob \w+\tdocs\/new\/page\.md$/m);
    const author = await text(repo.dir, ['log', '-1', '--format=%an <%ae>|%cn <%ce>', result.sha]);
    expect(author.trim()).toBe('Docwright Test <bot@example.com>|Docwright Test <bot@example.com>');

    expect(await userVisibleState(repo.dir)).toEqual(before);
  });

  it('fast-forwards a branch on a follow-up commit and refuses a stale expectedHead', async () => {
    const first = await commitToNewBranch(repo, 'docwright/job-2', [
      changed('docs/guide.md', '# Guide v2\n'),
    ]);
    const second = await forge.commit({
      repository: repo.dir,
      branch: 'docwright/job-2',
      parent: first.sha,
      expectedHead: first.sha,
      changes: [changed('docs/guide.md', '# Guide v3\n')],
      message: 'Follow-up',
    });
    expect(await forge.resolveRef(repo.dir, 'docwright/job-2')).toBe(second.sha);
    expect(await text(repo.dir, ['rev-parse', `${second.sha}^`])).toBe(`${first.sha}\n`);

    const stale = forge.commit({
      repository: repo.dir,
      branch: 'docwright/job-2',
      parent: first.sha,
      expectedHead: first.sha,
      changes: [changed('docs/guide.md', '# Guide v4\n')],
      message: 'Stale',
    });
    await expect(stale).rejects.toBeInstanceOf(BranchMovedError);
    await expect(stale).rejects.toMatchObject({ code: 'conflict', actualHead: second.sha });
    expect(await forge.resolveRef(repo.dir, 'docwright/job-2')).toBe(second.sha);
  });

  it('refuses to create a branch that already exists', async () => {
    await commitToNewBranch(repo, 'docwright/job-3', [changed('docs/guide.md', 'a\n')]);
    const again = commitToNewBranch(repo, 'docwright/job-3', [changed('docs/guide.md', 'b\n')]);
    await expect(again).rejects.toBeInstanceOf(BranchMovedError);
    await expect(again).rejects.toThrow(/expected no branch/);
  });

  it('refuses to move the checked-out branch', async () => {
    const onMain = forge.commit({
      repository: repo.dir,
      branch: 'main',
      parent: repo.head,
      expectedHead: repo.head,
      changes: [changed('docs/guide.md', 'x\n')],
      message: 'x',
    });
    await expect(onMain).rejects.toMatchObject({ code: 'conflict', retryable: false });
    expect(await forge.resolveRef(repo.dir, 'main')).toBe(repo.head);
  });

  it.each([
    ['a .github/ path', [changed('.github/workflows/evil.yml', 'x')], /\.github/],
    ['a .GitHub/ path', [changed('.GitHub/workflows/evil.yml', 'x')], /\.GitHub\/ is never written/],
    ['a .git entry', [changed('docs/.git/config', 'x')], /\.git\/ is never written/],
    ['a .. path', [changed('../escape.md', 'x')], /\.\./],
    ['a nested .. path', [changed('docs/../../escape.md', 'x')], /\.\./],
    ['an absolute path', [changed('/etc/passwd', 'x')], /absolute paths are not allowed/],
    ['a write to a symlink', [changed('docs/link.md', 'x')], /symlink docs\/link\.md/],
    ['a write through a symlinked folder', [changed('outside/escape.md', 'x')], /through symlink outside/],
    ['a write over a folder', [changed('docs', 'x')], /folder/],
    ['a write below a file', [changed('README.md/x.md', 'x')], /README\.md is a file/],
    ['a file and a file below it', [changed('new', 'x'), changed('new/x.md', 'x')], /both new/],
    ['deleting a missing file', [{ path: 'docs/nope.md', content: null }], /not a file/],
    ['an empty change set', [], /empty/],
    ['the same path twice', [changed('a.md', 'x'), changed('./a.md', 'y')], /twice/],
    ['no change at all', [changed('docs/guide.md', '# Guide\n')], /as it was/],
  ])('refuses %s', async (_name, changes, message) => {
    const attempt = commitToNewBranch(repo, 'docwright/refused', changes);
    await expect(attempt).rejects.toBeInstanceOf(DocwrightError);
    await expect(attempt).rejects.toThrow(message);
    expect(await forge.resolveRef(repo.dir, 'docwright/refused')).toBeNull();
  });

  it('allows replacing a deleted file by a folder and deleting a symlink', async () => {
    const result = await commitToNewBranch(repo, 'docwright/job-4', [
      { path: 'docs/old.md', content: null },
      changed('docs/old.md/index.md', '# Old, now a folder\n'),
      { path: 'docs/link.md', content: null },
    ]);
    expect(await diffOfCommit(repo.dir, result.sha)).toEqual([
      'A\tdocs/old.md/index.md',
      'D\tdocs/link.md',
      'D\tdocs/old.md',
    ]);
  });

  it('keeps commit messages exactly: Unicode, quotes, newlines and trailers', async () => {
    const message =
      'Fix “quotes” \'single\' "double" $HOME `tick` — ünïcödé 🚀\n\nBody line\n\n\tindented\n\nDocwright-Job: abc';
    const result = await commitToNewBranch(
      repo,
      'docwright/job-5',
      [changed('docs/guide.md', 'y\n')],
      message,
    );
    expect(result.message).toBe(message);
    expect(await forge.readCommit(repo.dir, result.sha)).toEqual({ sha: result.sha, message });
    expect(await forge.readCommit(repo.dir, 'docwright/job-5')).toEqual({ sha: result.sha, message });
    const trailers = await text(repo.dir, [
      'log',
      '-1',
      '--format=%(trailers:key=Docwright-Job,valueonly)',
      result.sha,
    ]);
    expect(trailers.trim()).toBe('abc');
  });

  it('lands concurrent commits to different branches', async () => {
    const pair = await Promise.all([
      commitToNewBranch(repo, 'docwright/a', [changed('docs/a.md', 'a\n')]),
      commitToNewBranch(repo, 'docwright/b', [
        changed('docs/b.md', 'b\n'),
        { path: 'docs/old.md', content: null },
      ]),
    ]);
    expect(await diffOfCommit(repo.dir, pair[0].sha)).toEqual(['A\tdocs/a.md']);
    expect(await diffOfCommit(repo.dir, pair[1].sha)).toEqual(['A\tdocs/b.md', 'D\tdocs/old.md']);

    const jobs = Array.from({ length: 10 }, (_, index) => index);
    const results = await Promise.all(
      jobs.map((index) =>
        commitToNewBranch(repo, `docwright/job-${index}`, [
          changed(`docs/job-${index}.md`, `job ${index}\n`),
        ]),
      ),
    );
    for (const index of jobs) {
      expect(await forge.resolveRef(repo.dir, `docwright/job-${index}`)).toBe(results[index]!.sha);
      expect(await diffOfCommit(repo.dir, results[index]!.sha)).toEqual([`A\tdocs/job-${index}.md`]);
    }
  });

  it('lets exactly one of several concurrent commits to the same branch win', async () => {
    const attempts = await Promise.allSettled(
      [1, 2, 3, 4].map((index) =>
        commitToNewBranch(repo, 'docwright/race', [changed('docs/race.md', `${index}\n`)]),
      ),
    );
    const won = attempts.filter((attempt) => attempt.status === 'fulfilled');
    const lost = attempts.filter((attempt) => attempt.status === 'rejected');
    expect(won).toHaveLength(1);
    for (const attempt of lost) expect(attempt.reason).toBeInstanceOf(BranchMovedError);
  });
});

describe('LocalGitForge on a bare repository', () => {
  let repo: GitRepo;
  beforeAll(async () => {
    repo = await createGitRepo(FILES, { bare: true });
  });
  afterAll(() => repo.cleanup());

  it('snapshots, commits and reads commits back', async () => {
    const snapshot = await forge.snapshot(repo.dir, 'main');
    expect(snapshot.paths()).toContain('docs/guide.md');
    expect((await snapshot.read('docs/assets/logo.png')).equals(BINARY)).toBe(true);
    snapshot.close();

    const result = await commitToNewBranch(repo, 'docwright/job-1', [
      changed('docs/guide.md', '# Guide v2\n'),
      { path: 'docs/old.md', content: null },
    ]);
    expect(await diffOfCommit(repo.dir, result.sha)).toEqual(['D\tdocs/old.md', 'M\tdocs/guide.md']);
    expect(await forge.readCommit(repo.dir, result.sha)).toEqual({ sha: result.sha, message: 'Edit docs' });
    expect(await forge.resolveRef(repo.dir, 'main')).toBe(repo.head);
  });

  it('answers the remaining Forge calls', async () => {
    expect(forge.repositoryUrl(repo.dir)).toBe(`file://${repo.dir}`);
    expect(
      await forge.ensurePullRequest({ repository: repo.dir, base: 'main', head: 'x', title: 't', body: 'b' }),
    ).toBeNull();
  });

  it('cleans up its temporary index even when a commit fails', async () => {
    const privateTmp = await mkdtemp(path.join(tmpdir(), 'docwright-tmp-'));
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = privateTmp;
    try {
      await commitToNewBranch(repo, 'docwright/tmp-ok', [changed('docs/tmp.md', 'x\n')]);
      await expect(
        commitToNewBranch(repo, 'docwright/tmp-fail', [changed('docs/guide.md', '# Guide\n')]),
      ).rejects.toThrow(/as it was/);
      expect(await readdir(privateTmp)).toEqual([]);
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      await rm(privateTmp, { recursive: true, force: true });
    }
  });
});

describe('LocalGitForge errors', () => {
  it('says clearly when a path is not a git repository', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'docwright-not-a-repo-'));
    try {
      await expect(forge.resolveRef(folder, 'main')).rejects.toBeInstanceOf(NotAGitRepositoryError);
      await expect(forge.snapshot(folder, 'main')).rejects.toThrow(`Not a git repository: ${folder}`);
      await expect(forge.resolveRef(path.join(folder, 'missing'), 'main')).rejects.toThrow(
        /Not a git repository/,
      );
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('does not treat a subfolder of a repository as a repository', async () => {
    const repo = await createGitRepo(FILES);
    try {
      await expect(forge.resolveRef(path.join(repo.dir, 'docs'), 'main')).rejects.toBeInstanceOf(
        NotAGitRepositoryError,
      );
    } finally {
      await repo.cleanup();
    }
  });

  it('reports a missing commit as not found', async () => {
    const repo = await createGitRepo({ 'a.md': 'a' });
    try {
      await expect(forge.snapshot(repo.dir, 'nope')).rejects.toMatchObject({ code: 'not_found' });
      await expect(forge.readCommit(repo.dir, '0'.repeat(40))).rejects.toMatchObject({ code: 'not_found' });
    } finally {
      await repo.cleanup();
    }
  });
});
