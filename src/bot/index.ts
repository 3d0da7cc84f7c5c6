import type { ApplicationFunction, Probot } from 'probot';
import type { GitHubConfig } from '../config.js';
import type { JobService } from '../engine/job-service.js';
import { createTokenOctokit, GitHubForge } from '../forge/github.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import type { Store } from '../store/index.js';
import { createDocwrightApp } from './app.js';
import type { ForgeRouter } from './forge-router.js';
import { RepositoryClients, type RepositoryClient } from './github-clients.js';
import { JobWatcher } from './job-watcher.js';
import { createBotProbot } from './probot.js';
import { SettingsCache } from './settings-cache.js';

export { ForgeRouter, isGitHubRepository } from './forge-router.js';
export { createPullRequestBody } from './pull-request-body.js';
export type { RepositoryClient } from './github-clients.js';

export interface GitHubAccessOptions {
  github: GitHubConfig;
  store: Store;
  logger: Logger;
  /** A ready Probot (tests build one with short retry delays); default: from `github`. */
  probot?: Probot;
  /** Token mode's client; default: createTokenOctokit(GITHUB_TOKEN). */
  tokenClient?: RepositoryClient;
  /** Milliseconds per second of retry back-off (default 1000; tests shorten it). */
  retryAfterBaseValue?: number;
  /** Counts GitHub requests of the clients made here, when metrics are on. */
  metrics?: Metrics | null;
}

/** How docwright reaches GitHub: Probot (app or token mode), per-repository clients, the forge. */
export interface GitHubAccess {
  probot: Probot | null;
  clients: RepositoryClients;
  forge: GitHubForge;
}

/** GitHub access when an app or a token is configured; null when docwright runs locally only. */
export function createGitHubAccess(options: GitHubAccessOptions): GitHubAccess | null {
  const { github, logger, store } = options;
  const retry = { retryAfterBaseValue: options.retryAfterBaseValue, metrics: options.metrics ?? null };
  const probot = options.probot ?? createBotProbot(github, logger, retry);
  const tokenClient =
    options.tokenClient ?? (github.token ? createTokenOctokit(github.token, { logger, ...retry }) : null);
  if (!probot && !tokenClient) return null;
  const appMode = github.appId !== undefined;
  const clients = new RepositoryClients({ store, probot, appMode, tokenClient });
  const forge = new GitHubForge({
    octokitFor: (repository) => clients.forRepository(repository),
    auth: appMode ? 'app' : 'token',
  });
  return { probot, clients, forge };
}

/** The app and what keeps status comments current, once the job service exists. */
export interface GitHubBot {
  probot: Probot | null;
  /** The Probot app: give it to `createWebhookMiddleware` (serve) or `probot.load` (tests). */
  app: ApplicationFunction;
  watcher: JobWatcher;
  settings: SettingsCache;
}

export function createGitHubBot(
  access: GitHubAccess,
  deps: {
    github: GitHubConfig;
    store: Store;
    jobs: JobService;
    logger: Logger;
    forge: ForgeRouter;
    indexes: { invalidate(projectId: string): void };
  },
): GitHubBot {
  const logger = deps.logger.child({ component: 'github-app' });
  const watcher = new JobWatcher({ store: deps.store, clients: access.clients, forge: deps.forge, logger });
  const settings = new SettingsCache();
  const app = createDocwrightApp({
    store: deps.store,
    jobs: deps.jobs,
    watcher,
    settings,
    indexes: deps.indexes,
    logger,
    appId: deps.github.appId ?? null,
  });
  return { probot: access.probot, app, watcher, settings };
}
