import type { ApplicationFunction, Probot } from 'probot';
import type { GitHubConfig } from '../config/config.js';
import type { JobService } from '../engine/job-service.js';
import { GitHubForge } from '../forge/github/github-forge.js';
import { hostOf } from '../github-api/hosts.js';
import { createOctokit } from '../github-api/octokit.js';
import type { Logger } from '../core/logger.js';
import { instrumentOctokit, type HookableOctokit, type Metrics } from '../metrics/metrics.js';
import type { Store } from '../store/index.js';
import { createDocwrightApp } from './app.js';
import { GapsIssues, type GapsSource } from './gaps-issue.js';
import { RepositoryClients, type RepositoryClient } from './repository-clients.js';
import { JobWatcher } from './job-watcher.js';
import { createBotProbot } from './probot.js';
import { SettingsCache } from './settings-cache.js';

export type { GapsSource } from './gaps-issue.js';

export interface GitHubAccessOptions {
  github: GitHubConfig;
  store: Store;
  logger: Logger;
  /** A ready Probot (tests build one with short retry delays); default: from `github`. */
  probot?: Probot;
  /** Token mode's client; default: createOctokit(GITHUB_TOKEN) on the configured host. */
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

/** How long a branch head seen (or pushed) stays current without a push saying otherwise. */
const REMEMBER_REFS_MS = 10 * 60_000;

/** GitHub access when an app or a token is configured; null when docwright runs locally only. */
export function createGitHubAccess(options: GitHubAccessOptions): GitHubAccess | null {
  const { github, logger, store } = options;
  const { metrics } = options;
  const retry = {
    retryAfterBaseValue: options.retryAfterBaseValue,
    ...(metrics ? { instrument: (octokit: HookableOctokit) => instrumentOctokit(octokit, metrics) } : {}),
  };
  const probot = options.probot ?? createBotProbot(github, logger, retry);
  const tokenClient =
    options.tokenClient ??
    (github.token
      ? createOctokit({
          auth: github.token,
          baseUrl: github.hosts.apiUrl,
          userAgent: 'docwright',
          log: { warn: (message) => logger.warn(message), debug: (message) => logger.debug(message) },
          ...retry,
        })
      : null);
  if (!probot && !tokenClient) return null;
  const appMode = github.appId !== undefined;
  const clients = new RepositoryClients({ store, host: hostOf(github.hosts), probot, appMode, tokenClient });
  const forge = new GitHubForge({
    octokitFor: (repository) => clients.forRepository(repository),
    auth: appMode ? 'app' : 'token',
    webUrl: github.hosts.webUrl,
    // Pushes keep remembered branch heads true; without webhooks every run asks GitHub.
    rememberRefsMs: github.webhookSecret ? REMEMBER_REFS_MS : 0,
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
  /** Each repository's "Docs gaps" issue: the weekly timer and the API refresh it through this. */
  gapsIssues: GapsIssues;
}

export function createGitHubBot(
  access: GitHubAccess,
  deps: {
    github: GitHubConfig;
    store: Store;
    jobs: JobService;
    logger: Logger;
    indexes: { invalidate(projectId: string): void };
    /** The readers' gaps report, for the "Docs gaps" issue and `/docs fill`. */
    gaps: GapsSource;
    now?: () => Date;
  },
): GitHubBot {
  const logger = deps.logger.child({ component: 'github-app' });
  const watcher = new JobWatcher({
    store: deps.store,
    clients: access.clients,
    logger,
    ...(deps.now ? { now: deps.now } : {}),
  });
  const settings = new SettingsCache();
  const gapsIssues = new GapsIssues({
    store: deps.store,
    source: deps.gaps,
    clients: access.clients,
    settings,
    logger,
    appId: deps.github.appId ?? null,
    ...(deps.now ? { now: deps.now } : {}),
  });
  const app = createDocwrightApp({
    store: deps.store,
    jobs: deps.jobs,
    watcher,
    settings,
    gapsIssues,
    indexes: deps.indexes,
    heads: access.forge,
    forge: access.forge,
    logger,
    host: hostOf(deps.github.hosts),
    webUrl: deps.github.hosts.webUrl,
    appId: deps.github.appId ?? null,
  });
  return { probot: access.probot, app, watcher, settings, gapsIssues };
}
