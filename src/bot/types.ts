import type { JobService } from '../engine/job-service.js';
import type { Forge } from '../forge/types.js';
import type { BranchHead } from '../github-api/repository-start.js';
import type { Logger } from '../core/logger.js';
import type { Store } from '../store/index.js';
import type { GapsIssues } from './gaps-issue.js';
import type { JobWatcher } from './job-watcher.js';
import type { SettingsCache } from './settings-cache.js';

/** What the app's handlers work with; built once by the service. */
export interface BotDependencies {
  store: Store;
  jobs: JobService;
  watcher: JobWatcher;
  settings: SettingsCache;
  /** The "Docs gaps" issue of each repository that asks for it, and jobs from its gaps. */
  gapsIssues: GapsIssues;
  /**
   * What the GitHub forge remembers of a repository: branch heads (a push, or a fresh read, tells it
   * the new one) and the repository's GraphQL node id (every payload carries it), which lets a
   * commit go through GraphQL in one request.
   */
  heads: {
    sawHead(repository: string, branch: string, head: BranchHead | null): void;
    sawRepository(repository: string, nodeId: string): void;
  };
  /** Reads a docs project's base branch (one tarball, kept for the next job) for the docs check. */
  forge: Pick<Forge, 'resolveRef' | 'snapshot'>;
  /** The assistant's docs indexes: a push to a base branch makes one stale. */
  indexes: { invalidate(projectId: string): void };
  logger: Logger;
  /** The GitHub host projects are found on (`hostOf(config.github.hosts)`). */
  host: string;
  /** That GitHub's web root: pull request links are read against it. */
  webUrl: string;
  /** The GitHub App's id; null in token mode. Comments the app wrote never trigger work. */
  appId: number | null;
}
