import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { badRequest, DocwrightError, notFound } from '../core/errors.js';
import { CatFileBatch } from './git-cat-file.js';
import { normalizeChanges, planChanges } from './git-change-plan.js';
import { GitCommandError, GitRunner, type GitEnvironment, type GitIdentity } from './git-command.js';
import { readParentEntries, writeCommitObject } from './git-commit.js';
import { parseLsTree } from './git-ls-tree.js';
import { LocalGitSnapshot } from './git-snapshot.js';
import type { CommitInfo, CommitRequest, Forge, PullRequestRequest } from './types.js';

export { NotAGitRepositoryError } from './git-command.js';
export { LocalGitSnapshot } from './git-snapshot.js';

const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

export interface LocalGitForgeOptions {
  /** The git executable (default `git`, looked up on PATH). */
  gitBinary?: string;
  /** Author and committer of docwright's commits (default `docwright <docwright@localhost>`). */
  author?: GitIdentity;
  /**
   * The environment git runs in (PATH, HOME…); default: this process's. Inherited `GIT_*`
   * variables are dropped either way, so a GIT_DIR set by a hook cannot redirect a commit.
   */
  environment?: GitEnvironment;
}

/** The branch moved (or appeared) since the caller read it: the compare-and-set of a commit failed. */
export class BranchMovedError extends DocwrightError {
  constructor(
    readonly branch: string,
    readonly expectedHead: string | null,
    /** Where the branch is now; undefined when the forge did not say (only that it moved). */
    readonly actualHead?: string | null,
  ) {
    const expected = `expected ${expectedHead ?? 'no branch'}`;
    super(
      'conflict',
      actualHead === undefined
        ? `Branch ${branch} moved: ${expected}`
        : `Branch ${branch} moved: ${expected}, found ${actualHead ?? 'no branch'}`,
    );
  }
}

/**
 * A Forge over git repositories on this machine (bare or not), addressed by filesystem path.
 * Reading uses `ls-tree` and one `cat-file --batch` per snapshot; writing uses plumbing only
 * (temporary index, `hash-object`, `write-tree`, `commit-tree`, `update-ref` as compare-and-set),
 * so the user's working tree, index and checked-out branch are never touched.
 */
export class LocalGitForge implements Forge {
  private readonly git: GitRunner;

  constructor(options: LocalGitForgeOptions = {}) {
    this.git = new GitRunner({
      binary: options.gitBinary ?? 'git',
      // eslint-disable-next-line no-restricted-properties -- not configuration: a child process needs PATH and HOME
      environment: options.environment ?? process.env,
      identity: options.author ?? { name: 'docwright', email: 'docwright@localhost' },
    });
  }

  /** A bare branch name is looked up as `refs/heads/<name>` first, so a same-named tag cannot shadow it. */
  async resolveRef(repository: string, ref: string): Promise<string | null> {
    if (ref === '' || ref.includes('\0')) return null;
    const candidates = OBJECT_ID.test(ref) || ref.startsWith('refs/') ? [ref] : [`refs/heads/${ref}`, ref];
    for (const candidate of candidates) {
      const sha = await this.revParse(repository, `${candidate}^{commit}`);
      if (sha !== null) return sha;
    }
    return null;
  }

  async readCommit(repository: string, sha: string): Promise<CommitInfo> {
    const commit = await this.requireCommit(repository, sha);
    const { stdout } = await this.git.run(repository, ['cat-file', 'commit', commit]);
    const raw = stdout.toString('utf8');
    const headerEnd = raw.indexOf('\n\n');
    const message = headerEnd === -1 ? '' : raw.slice(headerEnd + 2);
    return { sha: commit, message: message.replace(/\n$/, '') };
  }

  async snapshot(repository: string, commit: string): Promise<LocalGitSnapshot> {
    const sha = await this.requireCommit(repository, commit);
    const { stdout } = await this.git.run(repository, ['ls-tree', '-r', '-z', '--full-tree', sha]);
    return new LocalGitSnapshot(sha, parseLsTree(stdout), new CatFileBatch(this.git, repository));
  }

  async commit(request: CommitRequest): Promise<CommitInfo> {
    const { repository, branch, expectedHead } = request;
    const changes = normalizeChanges(request.changes);
    if (expectedHead !== null && !OBJECT_ID.test(expectedHead)) {
      throw badRequest(`expectedHead must be a full commit id: ${expectedHead}`);
    }
    const [parent] = await Promise.all([
      this.requireCommit(repository, request.parent),
      this.checkBranch(repository, branch),
    ]);
    const entries = await readParentEntries(
      this.git,
      repository,
      parent,
      changes.map((change) => change.path),
    );
    const planned = planChanges(changes, entries);
    const sha = await writeCommitObject(this.git, repository, parent, planned, request.message);
    await this.moveBranch(repository, branch, sha, expectedHead);
    return { sha, message: request.message.replace(/\n$/, '') };
  }

  /** Local git has no code review: the branch itself is the result. */
  ensurePullRequest(_request: PullRequestRequest): Promise<{ url: string } | null> {
    return Promise.resolve(null);
  }

  repositoryUrl(repository: string): string {
    return pathToFileURL(path.resolve(repository)).href;
  }

  /** `rev-parse --verify --quiet`: the full id, or null when the name does not resolve. */
  private async revParse(repository: string, name: string): Promise<string | null> {
    const { stdout, exitCode } = await this.git.run(
      repository,
      ['rev-parse', '--verify', '--quiet', '--end-of-options', name],
      { okExitCodes: [1] },
    );
    return exitCode === 0 ? stdout.toString('utf8').trim() : null;
  }

  private async requireCommit(repository: string, ref: string): Promise<string> {
    const sha = await this.resolveRef(repository, ref);
    if (sha === null) throw notFound(`Commit not found: ${ref}`);
    return sha;
  }

  /**
   * Refuses invalid branch names and branches checked out in a working tree: moving those would
   * make the user's files look like they undo the commit (git push refuses it for the same reason).
   */
  private async checkBranch(repository: string, branch: string): Promise<void> {
    const { exitCode } = await this.git.run(repository, ['check-ref-format', `refs/heads/${branch}`], {
      okExitCodes: [1],
    });
    if (exitCode !== 0 || branch.startsWith('-')) throw badRequest(`Invalid branch name: ${branch}`);
    const worktrees = await this.git.text(repository, ['worktree', 'list', '--porcelain']);
    if (worktrees.split('\n').includes(`branch refs/heads/${branch}`)) {
      throw new DocwrightError(
        'conflict',
        `Branch ${branch} is checked out in a working tree; docwright does not move it`,
        { retryable: false },
      );
    }
  }

  /** Compare-and-set: git updates the ref only if it still holds `expectedHead` (or is absent). */
  private async moveBranch(
    repository: string,
    branch: string,
    sha: string,
    expectedHead: string | null,
  ): Promise<void> {
    const ref = `refs/heads/${branch}`;
    const expected = expectedHead ?? '0'.repeat(sha.length);
    try {
      await this.git.run(repository, ['update-ref', '-m', 'docwright: commit', ref, sha, expected]);
    } catch (error) {
      if (!(error instanceof GitCommandError)) throw error;
      const actual = await this.revParse(repository, ref);
      if (actual !== expectedHead) throw new BranchMovedError(branch, expectedHead, actual);
      throw error;
    }
  }
}
