import type { Probot } from 'probot';
import type { GitHubClient } from '../github-api/types.js';
import type { GitHubApi } from '../github-api/types.js';
import type { GraphqlClient } from '../github-api/repository-start.js';
import { gitHubNotConfigured } from '../github-api/request-error.js';
import type { Store } from '../store/index.js';

/** An Octokit the forge, the status comments and the app's handlers can all use. */
export type RepositoryClient = GitHubClient & GitHubApi & GraphqlClient;

export interface RepositoryClientsOptions {
  store: Store;
  /** The GitHub host of the projects (`hostOf(config.github.hosts)`). */
  host: string;
  /** The app's Probot, whose installation Octokits carry a cached installation token. */
  probot: Probot | null;
  /** Whether `probot` is a GitHub App (false: token mode, no installations). */
  appMode: boolean;
  /** Token mode's Octokit (GITHUB_TOKEN), used for projects that have no installation. */
  tokenClient: RepositoryClient | null;
}

/**
 * Finds the credentials for a repository: the installation of the app on it when there is one,
 * else the token of token mode. Outside a webhook (the worker, the status watcher) this is the
 * only way to reach GitHub.
 */
export class RepositoryClients {
  constructor(private readonly options: RepositoryClientsOptions) {}

  /** `app` when repositories are reached through installations, `token` otherwise. */
  get auth(): 'app' | 'token' {
    return this.options.appMode ? 'app' : 'token';
  }

  async forRepository(repository: string): Promise<RepositoryClient> {
    const { probot, tokenClient, store, appMode, host } = this.options;
    const project = await store.projects.findOnGitHub(host, repository);
    if (project?.installation_id && probot && appMode) {
      if (project.disabled_at) throw notInstalled(repository);
      // Probot caches installation tokens (59 minutes), so this is a request once an hour at most.
      return probot.auth(Number(project.installation_id));
    }
    if (tokenClient) return tokenClient;
    if (probot && !appMode) return probot.auth();
    throw appMode
      ? notInstalled(repository)
      : gitHubNotConfigured(
          `GitHub is not configured for ${repository}: set APP_ID, PRIVATE_KEY and WEBHOOK_SECRET for the GitHub App, or GITHUB_TOKEN`,
        );
  }
}

function notInstalled(repository: string): Error {
  return gitHubNotConfigured(
    `The docwright GitHub App is not installed on ${repository}: install it on the repository`,
  );
}
