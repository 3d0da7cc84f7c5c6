import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { badRequest, DocwrightError, notFound } from '../../core/errors.js';
import { normalizeChanges, planChanges, type PlannedChange } from '../git-change-plan.js';
import { commitThroughGraphql, fitsGraphqlCommit, type WrittenCommit } from './graphql-commit.js';
import { BranchMovedError } from '../local-git.js';
import type { TreeEntry } from '../git-ls-tree.js';
import { BoundedCache } from './cache.js';
import { moveBranch, writeTree } from './commit.js';
import { BranchHeads } from './heads.js';
import { snapshotAfter, SnapshotMemory } from './derived-snapshot.js';
import { GITHUB_COM } from '../../github-api/hosts.js';
import { pullRequestOfJob } from '../../github-api/pull-request-files.js';
import { hasStatus } from '../../github-api/request-error.js';
import type { BranchHead } from '../../github-api/repository-start.js';
import type { GitHubClient } from '../../github-api/types.js';
import { toForgeError, type GitHubAccess, type GitHubAuthKind } from '../../github-api/failure-sentences.js';
import { ensurePullRequest } from './pull-request.js';
import {
  isValidBranchName,
  OBJECT_ID,
  parseRepository,
  type RepositoryName,
} from '../../github-api/repository-name.js';
import { readTarball, type GitHubSnapshot } from './tarball.js';
import type { CommitInfo, CommitRequest, Forge, PullRequestRequest } from '../types.js';

export { findPullRequestByHead } from './pull-request.js';
export { GitHubSnapshot } from './tarball.js';

export interface GitHubForgeOptions {
  /** An authenticated Octokit for a repository: Probot's installation Octokit, or createOctokit(). */
  octokitFor(repository: string): Promise<GitHubClient>;
  /** Who the requests are made as, for the wording of permission errors (default `app`). */
  auth?: GitHubAuthKind;
  /** The web root shown in `source.repository` (default github.com's; GitHub Enterprise: its host). */
  webUrl?: string;
  /** Most bytes of files a snapshot holds in memory (default 200 MB). */
  maxSnapshotBytes?: number;
  /** Most files a snapshot holds (default 100,000). */
  maxSnapshotFiles?: number;
  /**
   * How long a branch head this forge saw (looked up, written, or told by a push) is taken as
   * current without asking again; 0 (the default) asks every time. Only worth it when push
   * webhooks arrive, since `pushed()` is what keeps the memory true.
   */
  rememberRefsMs?: number;
  now?: () => number;
}

/** Bytes of snapshots kept in memory for the next run on the same commit or its child. */
const KEPT_SNAPSHOT_BYTES = 128_000_000;

interface KnownCommit {
  message: string;
  tree: string;
}

/**
 * A Forge over GitHub's REST API. Reading a commit is one tarball download; writing is the Git
 * Data API only (trees with `base_tree`, a commit, a ref), so no clone or working tree exists.
 * Commits, trees and snapshots are immutable, so what GitHub said about them is cached: a run's
 * resolveRef -> readCommit -> snapshot -> commit asks for each fact once, and a single-file commit
 * is exactly three requests (tree, commit, ref).
 */
export class GitHubForge implements Forge {
  private readonly auth: GitHubAuthKind;
  private readonly webUrl: string;
  private readonly commits = new BoundedCache<string, KnownCommit>(512);
  private readonly snapshots = new BoundedCache<string, readonly TreeEntry[]>(8);
  private readonly keptSnapshots = new SnapshotMemory(KEPT_SNAPSHOT_BYTES);
  /** GraphQL node ids of repositories, as webhook payloads and the app's reads show them. */
  private readonly repositoryIds = new BoundedCache<string, string>(1024);
  private readonly heads: BranchHeads;

  constructor(private readonly options: GitHubForgeOptions) {
    this.auth = options.auth ?? 'app';
    this.webUrl = (options.webUrl ?? GITHUB_COM.webUrl).replace(/\/+$/, '');
    this.heads = new BranchHeads(options.rememberRefsMs ?? 0, options.now ?? Date.now);
  }

  /**
   * A push webhook, or a read made a moment ago, says where a branch is (`head` null: deleted):
   * its head, tree and message are known without a request, and what was remembered is stale.
   */
  sawHead(repository: string, branch: string, head: BranchHead | null): void {
    const name = this.nameOf(repository);
    if (head === null) {
      this.heads.forget(name, branch);
      return;
    }
    this.commits.set(cacheKey(name, head.sha), { message: head.message, tree: head.tree });
    this.heads.remember(name, branch, head.sha);
  }

  /**
   * A webhook payload, or a GraphQL read, gave the repository's node id: commits to it can then go
   * through GraphQL in one request (a new branch's `createRef` names the repository by it).
   */
  sawRepository(repository: string, nodeId: string): void {
    const { owner, repo } = this.nameOf(repository);
    this.repositoryIds.set(`${owner}/${repo}`.toLowerCase(), nodeId);
  }

  /**
   * `GET /repos/{owner}/{repo}/commits/{ref}` with `per_page=1`: one request that resolves a
   * branch, tag or commit id and also returns the commit's message and tree (cached for readCommit
   * and commit); `per_page` bounds the file list GitHub would otherwise add. GitHub answers an
   * unknown ref with 422 and an empty repository with 409. A 404 usually means the repository is
   * out of sight, which must not read as "the branch does not exist": one more request tells.
   */
  async resolveRef(repository: string, ref: string): Promise<string | null> {
    const name = this.nameOf(repository);
    if (ref === '' || ref.includes('\0')) return null;
    const remembered = this.heads.current(name, ref);
    if (remembered !== null) return remembered;
    const client = await this.options.octokitFor(repository);
    try {
      const { data } = await client.rest.repos.getCommit({ ...name, ref, per_page: 1 });
      this.commits.set(cacheKey(name, data.sha), {
        message: data.commit.message,
        tree: data.commit.tree.sha,
      });
      if (!OBJECT_ID.test(ref)) this.heads.remember(name, ref, data.sha);
      return data.sha;
    } catch (error) {
      if (hasStatus(error, 409, 422)) return null;
      if (hasStatus(error, 404) && (await this.canSee(client, name))) return null;
      throw this.failure(error, repository, 'read');
    }
  }

  /** From the cache when resolveRef just returned this commit; else `GET /git/commits/{sha}`. */
  async readCommit(repository: string, sha: string): Promise<CommitInfo> {
    const name = this.nameOf(repository);
    const client = await this.options.octokitFor(repository);
    const known = await this.knownCommit(client, repository, name, sha);
    return { sha, message: known.message.replace(/\n$/, '') };
  }

  /** One `GET /repos/{owner}/{repo}/tarball/{sha}` (a redirect to codeload, followed by fetch). */
  async snapshot(repository: string, commit: string): Promise<GitHubSnapshot> {
    const name = this.nameOf(repository);
    const sha = await this.requireCommit(repository, commit);
    const kept = this.keptSnapshots.get(cacheKey(name, sha));
    if (kept !== undefined) return kept;
    const client = await this.options.octokitFor(repository);
    let body: Readable;
    try {
      const response = await client.rest.repos.downloadTarballArchive({
        ...name,
        ref: sha,
        // The archive is streamed through gunzip and tar, never held whole in memory.
        request: { parseSuccessResponseBody: false },
      });
      body = toReadable(response.data);
    } catch (error) {
      throw this.failure(error, repository, 'read');
    }
    const snapshot = await readTarball(
      body,
      sha,
      {
        maxBytes: this.options.maxSnapshotBytes ?? 200_000_000,
        maxFiles: this.options.maxSnapshotFiles ?? 100_000,
      },
      `${repository} at ${sha.slice(0, 12)}`,
    );
    this.snapshots.set(cacheKey(name, sha), snapshot.entries);
    this.keptSnapshots.keep(cacheKey(name, sha), snapshot);
    return snapshot;
  }

  /**
   * Refuses what the agent may never write (`.github/`, `.git`, `..`, absolute paths, writing to
   * or through a symlink, a file in place of a folder) before the first request that writes, so
   * a refused change set leaves nothing behind on GitHub.
   */
  async commit(request: CommitRequest): Promise<CommitInfo> {
    const { repository, branch, expectedHead } = request;
    const name = this.nameOf(repository);
    const changes = normalizeChanges(request.changes);
    if (!isValidBranchName(branch)) throw badRequest(`Invalid branch name: ${branch}`);
    if (expectedHead !== null && !OBJECT_ID.test(expectedHead)) {
      throw badRequest(`expectedHead must be a full commit id: ${expectedHead}`);
    }
    const client = await this.options.octokitFor(repository);
    const parent = await this.requireCommit(repository, request.parent);
    // The parent's entries come from the snapshot the run read; only without one is its tree asked for.
    let parentTree =
      this.snapshots.get(cacheKey(name, parent)) === undefined
        ? (await this.knownCommit(client, repository, name, parent)).tree
        : null;
    const entries = await this.parentEntries(client, repository, name, parent, parentTree);
    const planned = planChanges(changes, entries);
    const commit = { name, branch, parent, expectedHead, planned, request };
    try {
      let written = await this.commitThroughGraphql(client, commit);
      if (written === null) {
        parentTree ??= (await this.knownCommit(client, repository, name, parent)).tree;
        written = await this.commitThroughRest(client, commit, entries, parentTree);
      }
      this.commits.set(cacheKey(name, written.sha), { message: request.message, tree: written.tree });
      this.heads.remember(name, branch, written.sha);
      await this.keepSnapshotAfter(name, parent, written.sha, planned);
      return { sha: written.sha, message: request.message.replace(/\n$/, '') };
    } catch (error) {
      if (error instanceof BranchMovedError) this.heads.forget(name, branch);
      throw this.failure(error, repository, 'push');
    }
  }

  /**
   * One GraphQL request (`createCommitOnBranch`, with `createRef` for a new branch) when the
   * repository's node id is known and the change fits one (regular files, a body of bounded size);
   * null otherwise, or when this GitHub does not offer the mutations.
   */
  private async commitThroughGraphql(
    client: GitHubClient,
    commit: PlannedCommit,
  ): Promise<WrittenCommit | null> {
    const { name, branch, parent, expectedHead, planned, request } = commit;
    const repositoryId = this.repositoryIds.get(`${name.owner}/${name.repo}`.toLowerCase());
    if (repositoryId === undefined || !fitsGraphqlCommit(planned, parent, expectedHead)) return null;
    return commitThroughGraphql(client, {
      name,
      repositoryId,
      branch,
      parent,
      expectedHead,
      changes: planned,
      message: request.message,
    });
  }

  /** The Git Data API: trees with `base_tree` (in chunks), a commit, and the ref created or fast-forwarded. */
  private async commitThroughRest(
    client: GitHubClient,
    commit: PlannedCommit,
    entries: readonly TreeEntry[],
    parentTree: string,
  ): Promise<WrittenCommit> {
    const { name, branch, parent, expectedHead, planned, request } = commit;
    const byPath = new Map(entries.map((entry) => [entry.path, entry]));
    const tree = await writeTree(client, name, parentTree, planned, byPath);
    if (tree === parentTree) throw badRequest('Nothing to commit: the changes leave every file as it was');
    const { data } = await client.rest.git.createCommit({
      ...name,
      message: request.message,
      tree,
      parents: [parent],
    });
    await moveBranch(client, name, branch, data.sha, expectedHead, () => {
      // The remembered head was wrong: ask GitHub, and let the retry ask again too.
      this.heads.forget(name, branch);
      return this.resolveRef(commit.request.repository, branch);
    });
    return { sha: data.sha, tree };
  }

  /**
   * Creates the pull request, or finds and updates the open one of `head`; one request when new,
   * and one when the job already knows its pull request.
   */
  async ensurePullRequest(request: PullRequestRequest): Promise<{ url: string }> {
    const { repository, existing, ...pullRequest } = request;
    const name = this.nameOf(repository);
    // The job's own earlier link names the pull request: one update instead of create, find, update.
    // The update checks that the number is still this branch's open pull request.
    const knownNumber = existing
      ? (pullRequestOfJob(existing, `${name.owner}/${name.repo}`)?.number ?? null)
      : null;
    const client = await this.options.octokitFor(repository);
    try {
      const { url } = await ensurePullRequest(client, name, { ...pullRequest, knownNumber });
      return { url };
    } catch (error) {
      throw this.failure(error, repository, 'pull-request');
    }
  }

  repositoryUrl(repository: string): string {
    const { owner, repo } = this.nameOf(repository);
    return `${this.webUrl}/${owner}/${repo}`;
  }

  /** The new commit's files, when its parent's are still in memory: the next run reads them there. */
  private async keepSnapshotAfter(
    name: RepositoryName,
    parent: string,
    commit: string,
    planned: Parameters<typeof snapshotAfter>[2],
  ): Promise<void> {
    const before = this.keptSnapshots.get(cacheKey(name, parent));
    if (before === undefined) return;
    const after = await snapshotAfter(before, commit, planned);
    this.snapshots.set(cacheKey(name, commit), after.entries);
    this.keptSnapshots.keep(cacheKey(name, commit), after);
  }

  private nameOf(repository: string): RepositoryName {
    return parseRepository(repository, this.webUrl);
  }

  /** `GET /repos/{owner}/{repo}`: asked only after a 404, to tell a missing ref from a hidden repository. */
  private async canSee(client: GitHubClient, name: RepositoryName): Promise<boolean> {
    try {
      await client.rest.repos.get({ ...name });
      return true;
    } catch (error) {
      if (hasStatus(error, 404)) return false;
      throw error;
    }
  }

  private async requireCommit(repository: string, ref: string): Promise<string> {
    if (OBJECT_ID.test(ref)) return ref;
    const sha = await this.resolveRef(repository, ref);
    if (sha === null) throw notFound(`Commit not found in ${repository}: ${ref}`);
    return sha;
  }

  private async knownCommit(
    client: GitHubClient,
    repository: string,
    name: RepositoryName,
    sha: string,
  ): Promise<KnownCommit> {
    const key = cacheKey(name, sha);
    const cached = this.commits.get(key);
    if (cached !== undefined) return cached;
    try {
      const { data } = await client.rest.git.getCommit({ ...name, commit_sha: sha });
      const known = { message: data.message, tree: data.tree.sha };
      this.commits.set(key, known);
      return known;
    } catch (error) {
      if (hasStatus(error, 422)) throw notFound(`Commit not found in ${repository}: ${sha}`);
      throw this.failure(error, repository, 'read');
    }
  }

  /**
   * The parent's entries for the change planner: those of the snapshot this forge read (the
   * normal run), else one recursive trees request. A truncated listing (over 100,000 entries)
   * still has every entry it lists right; GitHub's tree API then judges the rest.
   */
  private async parentEntries(
    client: GitHubClient,
    repository: string,
    name: RepositoryName,
    parent: string,
    parentTree: string | null,
  ): Promise<readonly TreeEntry[]> {
    const cached = this.snapshots.get(cacheKey(name, parent));
    if (cached !== undefined) return cached;
    if (parentTree === null)
      throw new DocwrightError('internal_error', `The tree of ${parent} is needed to list its entries`, {
        retryable: false,
      });
    try {
      const { data } = await client.rest.git.getTree({ ...name, tree_sha: parentTree, recursive: 'true' });
      return data.tree.flatMap((item): TreeEntry[] =>
        item.path !== undefined && item.mode !== undefined && isEntryType(item.type)
          ? [{ mode: item.mode, type: item.type, object: item.sha ?? '', path: item.path }]
          : [],
      );
    } catch (error) {
      throw this.failure(error, repository, 'read');
    }
  }

  private failure(error: unknown, repository: string, access: GitHubAccess): unknown {
    return toForgeError(error, { repository, access, auth: this.auth });
  }
}

/** A commit about to be written, as both ways of writing it read it. */
interface PlannedCommit {
  name: RepositoryName;
  branch: string;
  parent: string;
  expectedHead: string | null;
  planned: PlannedChange[];
  request: CommitRequest;
}

/** One key per repository however it was spelled (`owner/repo` or its web address). */
function cacheKey({ owner, repo }: RepositoryName, sha: string): string {
  return `${owner}/${repo}@${sha}`.toLowerCase();
}

function isEntryType(type: string | undefined): type is TreeEntry['type'] {
  return type === 'blob' || type === 'tree' || type === 'commit';
}

/** The tarball body: a web stream when Octokit was asked not to parse it, bytes from older clients. */
function toReadable(data: unknown): Readable {
  if (data instanceof ArrayBuffer) return Readable.from([Buffer.from(data)]);
  if (Buffer.isBuffer(data)) return Readable.from([data]);
  if (data !== null && typeof data === 'object' && 'getReader' in data) {
    return Readable.fromWeb(data as ReadableStream<Uint8Array>);
  }
  // Read where GitHub's answer is: a fresh download may bring the body.
  throw new DocwrightError('forge_error', 'GitHub returned no archive body', { retryable: true });
}
