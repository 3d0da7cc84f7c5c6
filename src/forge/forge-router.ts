import { JOB_TRAILER, parseCommitMessage, RUN_TRAILER } from '../engine/commit-message.js';
import { gitHubNotConfigured } from '../github/request-error.js';
import type { CommitInfo, CommitRequest, Forge, PullRequestRequest, Snapshot } from './types.js';

/** Which forge a project's repository is on: the project's stored `forge` column. */
export type ForgeKind = 'local' | 'github';

/** Where the router keeps the files each run committed (the store's `job_run_files`). */
export interface RunFileRecorder {
  planned(jobId: string, runKey: string, paths: string[]): Promise<void>;
  landed(jobId: string, runKey: string): Promise<void>;
}

export interface ForgeRouterOptions {
  local: Forge;
  /** Null when neither a GitHub App nor a token is configured. */
  github: Forge | null;
  /** The stored `forge` of the project whose repository this is; undefined when no project has it. */
  forgeOf(repository: string): Promise<ForgeKind | undefined>;
  runFiles: RunFileRecorder;
}

/**
 * One Forge over every project: each repository goes to the forge its project was stored with.
 * It also records, with the job, which files each run commits: the paths before the commit, and
 * "landed" once the commit is on the branch (seen returned, or read back after a crash by its run
 * trailer), so the status comment can name them from any replica without asking GitHub.
 */
export class ForgeRouter implements Forge {
  private readonly kinds = new Map<string, ForgeKind>();

  constructor(private readonly options: ForgeRouterOptions) {}

  async resolveRef(repository: string, ref: string): Promise<string | null> {
    return (await this.route(repository)).resolveRef(repository, ref);
  }

  async readCommit(repository: string, sha: string): Promise<CommitInfo> {
    const commit = await (await this.route(repository)).readCommit(repository, sha);
    // A run's commit read back from its branch landed, whatever happened to the process that made it.
    await this.confirm(commit.message);
    return commit;
  }

  async snapshot(repository: string, commit: string): Promise<Snapshot> {
    return (await this.route(repository)).snapshot(repository, commit);
  }

  async commit(request: CommitRequest): Promise<CommitInfo> {
    const forge = await this.route(request.repository);
    const run = runOf(request.message);
    if (run) {
      await this.options.runFiles.planned(
        run.jobId,
        run.runKey,
        request.changes.map((change) => change.path),
      );
    }
    const result = await forge.commit(request);
    if (run) await this.options.runFiles.landed(run.jobId, run.runKey);
    return result;
  }

  async ensurePullRequest(request: PullRequestRequest): Promise<{ url: string } | null> {
    return (await this.route(request.repository)).ensurePullRequest(request);
  }

  async repositoryUrl(repository: string): Promise<string> {
    return (await this.route(repository)).repositoryUrl(repository);
  }

  private async route(repository: string): Promise<Forge> {
    let kind = this.kinds.get(repository);
    if (kind === undefined) {
      const stored = await this.options.forgeOf(repository);
      // A project's forge never changes; a repository no project names yet is a local path.
      if (stored) this.kinds.set(repository, stored);
      kind = stored ?? 'local';
    }
    if (kind === 'local') return this.options.local;
    if (this.options.github) return this.options.github;
    throw gitHubNotConfigured(
      `${repository} is a GitHub repository, but GitHub is not configured: set APP_ID, PRIVATE_KEY and WEBHOOK_SECRET (GitHub App) or GITHUB_TOKEN (token mode)`,
    );
  }

  private async confirm(message: string): Promise<void> {
    const run = runOf(message);
    if (run) await this.options.runFiles.landed(run.jobId, run.runKey);
  }
}

/** The job and run a docwright commit message names in its trailers; null for anyone else's commit. */
function runOf(message: string): { jobId: string; runKey: string } | null {
  const { trailers } = parseCommitMessage(message);
  const jobId = trailers[JOB_TRAILER];
  const runKey = trailers[RUN_TRAILER];
  return jobId && runKey ? { jobId, runKey } : null;
}
