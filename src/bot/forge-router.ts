import { DocwrightError } from '../errors.js';
import { BoundedCache } from '../forge/github-cache.js';
import type { CommitInfo, CommitRequest, Forge, PullRequestRequest, Snapshot } from '../forge/types.js';

/** `owner/repo`: a GitHub repository. Local projects are stored as absolute paths, so never match. */
const GITHUB_REPOSITORY = /^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+$/;

/** Whether a project's `repository` names a GitHub repository rather than a local git path. */
export function isGitHubRepository(repository: string): boolean {
  return GITHUB_REPOSITORY.test(repository) && !repository.endsWith('/..') && !repository.endsWith('/.');
}

/**
 * One Forge over both kinds of project: local git paths go to the local forge, `owner/repo` to
 * the GitHub forge. It also remembers which files each branch's commits changed, so the status
 * comment can name them without asking GitHub for the pull request's files.
 */
export class ForgeRouter implements Forge {
  private readonly changed = new BoundedCache<string, Set<string>>(1024);

  constructor(private readonly forges: { local: Forge; github: Forge | null }) {}

  resolveRef(repository: string, ref: string): Promise<string | null> {
    return this.route(repository).resolveRef(repository, ref);
  }

  readCommit(repository: string, sha: string): Promise<CommitInfo> {
    return this.route(repository).readCommit(repository, sha);
  }

  snapshot(repository: string, commit: string): Promise<Snapshot> {
    return this.route(repository).snapshot(repository, commit);
  }

  async commit(request: CommitRequest): Promise<CommitInfo> {
    const result = await this.route(request.repository).commit(request);
    const key = branchKey(request.repository, request.branch);
    const files = this.changed.get(key) ?? new Set<string>();
    for (const change of request.changes) files.add(change.path);
    this.changed.set(key, files);
    return result;
  }

  ensurePullRequest(request: PullRequestRequest): Promise<{ url: string } | null> {
    return this.route(request.repository).ensurePullRequest(request);
  }

  repositoryUrl(repository: string): string {
    return this.route(repository).repositoryUrl(repository);
  }

  /**
   * The files this process committed on a branch, sorted; null when it made no commit there (it
   * restarted, or another replica ran the job): the caller then asks GitHub.
   */
  changedFiles(repository: string, branch: string): string[] | null {
    const files = this.changed.get(branchKey(repository, branch));
    return files ? [...files].sort() : null;
  }

  private route(repository: string): Forge {
    if (!isGitHubRepository(repository)) return this.forges.local;
    if (this.forges.github) return this.forges.github;
    throw new DocwrightError(
      'forge_error',
      `${repository} is a GitHub repository, but GitHub is not configured: set APP_ID, PRIVATE_KEY and WEBHOOK_SECRET (GitHub App) or GITHUB_TOKEN (token mode)`,
    );
  }
}

function branchKey(repository: string, branch: string): string {
  return `${repository.toLowerCase()}\0${branch}`;
}
