import path from 'node:path';
import type { Hono } from 'hono';
import type { Agent } from '../agent/types.js';
import { ExtractiveAnswerer } from '../assistant/answer/extractive.js';
import { ModelAnswerer } from '../assistant/answer/model.js';
import type { Answerer } from '../assistant/answer/types.js';
import { Assistant } from '../assistant/assistant.js';
import { readGap, readGaps } from '../assistant/gaps/index.js';
import { DocsIndexes } from '../assistant/docs-indexes.js';
import { SectionEmbedder } from '../assistant/embeddings.js';
import { embeddingModel, languageModel, providerSecrets } from '../models/models.js';
import { createAgentResolver } from '../agent/registry.js';
import {
  createGitHubAccess,
  createGitHubBot,
  createPullRequestBody,
  type GitHubAccessOptions,
  type GitHubBot,
} from '../bot/index.js';
import type { Config } from '../config/config.js';
import { DocwrightError } from '../core/errors.js';
import { JobService } from '../engine/job-service.js';
import { Worker, type WorkerOptions } from '../engine/worker.js';
import { ForgeRouter } from '../forge/forge-router.js';
import { LocalGitForge } from '../forge/local-git.js';
import type { Forge } from '../forge/types.js';
import { createLogger, type Logger } from '../core/logger.js';
import { Metrics } from '../metrics/metrics.js';
import { redactConfiguredSecrets } from '../core/redact.js';
import { createApp } from '../server/app.js';
import { RateLimits } from '../server/rate-limits.js';
import { startThreadRetention } from './thread-retention.js';
import { startWeekly } from './weekly.js';
import { openDocsChanges, type DocsChanges } from '../store/docs-changes.js';
import { openStore, type Store } from '../store/index.js';

export interface Service {
  config: Config;
  logger: Logger;
  store: Store;
  forge: Forge;
  jobs: JobService;
  worker: Worker;
  app: Hono;
  indexes: DocsIndexes;
  /** The assistant: its retrieval and pages also serve the MCP server on stdio. */
  assistant: Assistant;
  /** "A project's docs changed": publish it (a push, a run) and every replica's index is rebuilt. */
  docsChanges: DocsChanges;
  /** Prometheus metrics, when DOCWRIGHT_METRICS or DOCWRIGHT_METRICS_TOKEN turns them on. */
  metrics: Metrics | null;
  /** The GitHub App (or token mode); null when neither APP_ID nor GITHUB_TOKEN is set. */
  github: GitHubBot | null;
  /** Stops the worker (letting runs finish or releasing them) and closes the store. */
  close(): Promise<void>;
}

export interface ServiceOverrides {
  logger?: Logger;
  store?: Store;
  forge?: Forge;
  agentFor?: (model: string) => Agent;
  /** The assistant's answerer for a model spec (tests inject one around a mock model). */
  answererFor?: (model: string) => Answerer;
  /** GitHub clients for tests: a Probot with short retry delays, a token client. */
  github?: Pick<GitHubAccessOptions, 'probot' | 'tokenClient' | 'retryAfterBaseValue'>;
  /**
   * The worker's waits: the first retry's back-off (doubled for each later one), the idle poll,
   * the shutdown grace, the attempts of a run. Tests make retries immediate instead of sleeping.
   */
  worker?: Pick<WorkerOptions, 'backoffBaseMs' | 'pollMs' | 'shutdownGraceMs' | 'maxAttempts'>;
  /** The clock of job and status-comment writes (default: the system's). */
  now?: () => Date;
}

/**
 * Wires the embedded service from its parts (the worker and the API receive their
 * adapters, they never construct them). The worker is created but not started.
 */
export async function createService(config: Config, overrides: ServiceOverrides = {}): Promise<Service> {
  // The configured secrets are redacted by value wherever text is stored, shown or logged.
  redactConfiguredSecrets([
    config.github.webhookSecret,
    config.github.token,
    config.github.privateKey,
    ...providerSecrets(config.providers),
    config.metrics?.token ?? undefined,
  ]);
  const logger =
    overrides.logger ??
    createLogger({ level: config.logLevel, ...(config.logFormat ? { format: config.logFormat } : {}) });
  // Fail at start, in words, when the configured model cannot be used (a missing API key).
  languageModel(config.model, config.providers);
  // The embedding model too, before anything is opened: a local one is loaded (and its packages
  // found) now, a hub model downloaded into the data dir.
  const embedding = config.embeddingModel
    ? await embeddingModel(config.embeddingModel, config.providers, {
        local: { cacheDir: path.join(config.dataDir, 'models') },
      })
    : undefined;
  // The metrics read the job counts from the store when scraped, and count its faults as they come.
  const metrics = config.metrics ? new Metrics(() => store.jobs.stats()) : null;
  const store =
    overrides.store ??
    (await openStore(
      { dataDir: config.dataDir, databaseUrl: config.databaseUrl },
      {
        logger: logger.child({ component: 'store' }),
        onFault: (fault) => metrics?.storageFaults.inc({ fault }),
      },
    ));
  // Each project's repository goes to the forge stored with it: local git, or GitHub (the app's
  // installation, or the token).
  const githubAccess = createGitHubAccess({
    github: config.github,
    store,
    logger,
    metrics,
    ...overrides.github,
  });
  const forge =
    overrides.forge ??
    new ForgeRouter({
      local: new LocalGitForge(),
      github: githubAccess?.forge ?? null,
      forgeOf: (repository) => store.projects.forgeOf(repository),
    });
  // Hybrid retrieval only when an embedding model is configured; offline, search is full-text.
  const embedder =
    embedding && config.embeddingModel
      ? new SectionEmbedder(embedding, config.embeddingModel, store.sectionEmbeddings)
      : undefined;
  const indexes = new DocsIndexes({ forge, logger, embedder });
  // Each replica keeps its own index; the store carries the news of a change to all of them.
  const docsChanges = await openDocsChanges(store.database, logger);
  docsChanges.subscribe((projectId) => indexes.invalidate(projectId));
  const worker = new Worker({
    store,
    forge,
    agentFor:
      overrides.agentFor ??
      createAgentResolver(config.providers, { budgets: { maxWallTimeMs: config.runTimeMs } }),
    logger,
    concurrency: config.workers,
    leaseMs: config.leaseMs,
    outputBudget: config.outputBudget,
    onRunRecorded: ({ jobId, projectId, succeeded, durationMs }) => {
      metrics?.runDuration.observe({ outcome: succeeded ? 'completed' : 'failed' }, durationMs / 1000);
      if (succeeded) void docsChanges.publish(projectId);
      github?.watcher.notify(jobId);
    },
    ...overrides.worker,
    onRetry: ({ durationMs }) => {
      metrics?.runDuration.observe({ outcome: 'retry' }, durationMs / 1000);
      metrics?.retries.inc();
    },
    ...(githubAccess ? { pullRequestBody: createPullRequestBody(store, config.github.hosts.webUrl) } : {}),
  });
  const jobs = new JobService({
    store,
    forge,
    defaultModel: config.model,
    onQueued: () => worker.wake(),
    onArchived: (jobId) => worker.cancel(jobId),
    ...(overrides.now ? { now: overrides.now } : {}),
  });
  const github = githubAccess
    ? createGitHubBot(githubAccess, {
        github: config.github,
        store,
        jobs,
        logger,
        indexes: { invalidate: (projectId) => void docsChanges.publish(projectId) },
        gaps: {
          report: (projectId, since) => readGaps(store, projectId, since, overrides.now?.()),
          gap: (projectId, gapId, since) => readGap(store, projectId, gapId, since, overrides.now?.()),
        },
        ...(overrides.now ? { now: overrides.now } : {}),
      })
    : null;
  const hour = 3600;
  const rateLimits = new RateLimits(store.database, {
    'job-create': { points: config.jobRateLimit, durationSeconds: hour },
    'job-message': { points: config.jobRateLimit, durationSeconds: hour },
    'assistant-key': { points: config.assistantLimits.keyPerMonth, durationSeconds: 30 * 24 * hour },
    'assistant-org': { points: config.assistantLimits.projectPerHour, durationSeconds: hour },
    'assistant-ip': { points: config.assistantLimits.ipPerDay, durationSeconds: 24 * hour },
    // Reports on pages through the MCP server, per project: enough for readers, not for a flood.
    'page-feedback': { points: 100, durationSeconds: hour },
  });
  const answererFor = overrides.answererFor ?? createAnswererResolver(config, logger);
  const assistant = new Assistant({
    store,
    indexes,
    answererFor: (project) => answererFor(project.model ?? config.model),
    embedder,
    logger,
  });
  const app = createApp({
    store,
    jobs,
    rateLimits,
    logger,
    assistant,
    trustProxy: config.trustProxy,
    maxBodyBytes: config.maxBodyBytes,
    metrics: metrics && config.metrics ? { metrics, token: config.metrics.token } : null,
    refreshGapsIssue: github ? (project) => github.gapsIssues.refreshProject(project) : null,
  });
  const stopRetention = config.threadDays
    ? startThreadRetention({
        store,
        days: config.threadDays,
        logger,
        ...(overrides.now ? { now: overrides.now } : {}),
      })
    : undefined;
  // Each repository that asks for it gets its "Docs gaps" issue refreshed once a week.
  const stopGapsIssues = github ? startWeekly(() => github.gapsIssues.weekly()) : undefined;
  return {
    config,
    logger,
    store,
    forge,
    jobs,
    worker,
    app,
    indexes,
    assistant,
    docsChanges,
    metrics,
    github,
    async close() {
      await stopRetention?.();
      await stopGapsIssues?.();
      await worker.stop();
      await github?.watcher.stop();
      await docsChanges.close();
      indexes.close();
      await store.close();
    },
  };
}

/** Extractive answers for `builtin`; a model through the AI SDK otherwise (one answerer per model). */
function createAnswererResolver(config: Config, logger: Logger): (model: string) => Answerer {
  const extractive = new ExtractiveAnswerer();
  const byModel = new Map<string, Answerer>();
  return (model) => {
    let answerer = byModel.get(model);
    if (!answerer) {
      let languageModelFor;
      try {
        languageModelFor = languageModel(model, config.providers);
      } catch (error) {
        // A project's own model without its provider key: the server's fault, said in the log; the
        // public client learns only that the assistant cannot answer now.
        logger.error(
          { model, reason: error instanceof Error ? error.message : String(error) },
          'assistant model unavailable',
        );
        throw new DocwrightError(
          'unavailable',
          'The assistant is not available: its model is not configured on the server',
        );
      }
      answerer = languageModelFor
        ? new ModelAnswerer(languageModelFor, model, { idleMs: config.answerIdleMs })
        : extractive;
      byModel.set(model, answerer);
    }
    return answerer;
  };
}
