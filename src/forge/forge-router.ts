import { gitHubNotConfigured } from '../github-api/request-error.js';
import type { CommitInfo, CommitRequest, Forge, PullRequestRequest, Snapshot } from './types.js';

/** Which forge a project's repository is on: the project's stored `forge` column. */
export type ForgeKind = 'local' | 'github';

export interface ForgeRouterOptions {
  local: Forge;
  /** Null when neither a GitHub App nor a token is configured. */
  github: Forge | null;
  /** The stored `forge` of the project whose repository this is; undefined when no project has it. */
  forgeOf(repository: string): Promise<ForgeKind | undefined>;
}

/**
 * One Forge over every project: each repository goes to the forge its project was stored with.
 * It only reads and writes git; what a run committed is the engine's to record.
 */
export class ForgeRouter implements Forge {
  private readonly kinds = new Map<string, ForgeKind>();

  constructor(private readonly options: ForgeRouterOptions) {}

  async resolveRef(repository: string, ref: string): Promise<string | null> {
    return (await this.route(repository)).resolveRef(repository, ref);
  }

  async readCommit(repository: string, sha: string): Promise<CommitInfo> {
    return (await this.route(repository)).readCommit(repository, sha);
  }

  async snapshot(repository: string, commit: string): Promise<Snapshot> {
    return (await this.route(repository)).snapshot(repository, commit);
  }

  async commit(request: CommitRequest): Promise<CommitInfo> {
    return (await this.route(request.repository)).commit(request);
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
}
