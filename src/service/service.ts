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
import { checkModelCredentials, embeddingModel, languageModel, providerSecrets } from '../models/models.js';
import type { EmbeddingModel } from 'ai';
import { createAgentResolver } from '../agent/registry.js';
import {
  createGitHubAccess,
  createGitHubBot,
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
import { openStore, type StorageFault, type Store } from '../store/index.js';

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
 * Wires the embedded service from its parts (the worker and the API receive their adapters, they
 * never construct them), in order: the settings that must work before anything opens, the store
 * and its metrics, where repositories and docs are read, the job engine, GitHub, then the HTTP
 * app. Nothing is used before it exists. The worker is created but not started.
 */
export async function createService(config: Config, overrides: ServiceOverrides = {}): Promise<Service> {
  const logger =
    overrides.logger ??
    createLogger({ level: config.logLevel, ...(config.logFormat ? { format: config.logFormat } : {}) });
  const embedding = await checkSettings(config);
  const { store, metrics } = await openStorage(config, overrides, logger);
  const sources = await openSources(config, overrides, { store, metrics, logger }, embedding);
  const { forge, indexes, docsChanges, githubAccess } = sources;
  const engine = createEngine(config, overrides, { store, metrics, logger, forge, docsChanges });
  const { worker, jobs } = engine;
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
  // A recorded run updates the job's status comments on GitHub.
  if (github) engine.onRunRecorded((jobId) => github.watcher.notify(jobId));
  const assistant = new Assistant({
    store,
    indexes,
    answererFor: answererOfProjects(config, overrides, logger),
    embedder: sources.embedder,
    logger,
  });
  const app = createApp({
    store,
    jobs,
    rateLimits: rateLimitsOf(config, store),
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

/**
 * What must work before anything is opened, failing the start in words: the configured secrets
 * are registered for redaction, the model's provider has its credentials, and the embedding model
 * loads (a local one now, a hub model downloaded into the data dir).
 */
async function checkSettings(config: Config): Promise<EmbeddingModel | undefined> {
  // The configured secrets are redacted by value wherever text is stored, shown or logged.
  redactConfiguredSecrets([
    config.github.webhookSecret,
    config.github.token,
    config.github.privateKey,
    ...providerSecrets(config.providers),
    config.metrics?.token ?? undefined,
  ]);
  // The service signs Bedrock requests with whatever the AWS credential chain finds when no key is
  // set (a profile, web identity, a task or instance role), asked now so that finding none stops the start.
  config.providers.bedrock = { ...config.providers.bedrock, credentialChain: true };
  languageModel(config.model, config.providers);
  await checkModelCredentials(config.model, config.providers);
  return config.embeddingModel
    ? embeddingModel(config.embeddingModel, config.providers, {
        local: { cacheDir: path.join(config.dataDir, 'models') },
      })
    : undefined;
}

/** The store, and the metrics that read the job counts from it and count its faults as they come. */
async function openStorage(
  config: Config,
  overrides: ServiceOverrides,
  logger: Logger,
): Promise<{ store: Store; metrics: Metrics | null }> {
  let countFault: ((fault: StorageFault) => void) | undefined;
  const store =
    overrides.store ??
    (await openStore(
      { dataDir: config.dataDir, databaseUrl: config.databaseUrl },
      { logger: logger.child({ component: 'store' }), onFault: (fault) => countFault?.(fault) },
    ));
  const metrics = config.metrics ? new Metrics(() => store.jobs.stats()) : null;
  if (metrics) countFault = (fault) => metrics.storageFaults.inc({ fault });
  return { store, metrics };
}

/**
 * Where repositories and docs are read: each project's repository through the forge stored with
 * it (local git, or GitHub through the app's installation or the token), the docs indexes, and the
 * news of a project's docs changing, which every replica's indexes follow.
 */
async function openSources(
  config: Config,
  overrides: ServiceOverrides,
  { store, metrics, logger }: { store: Store; metrics: Metrics | null; logger: Logger },
  embedding: EmbeddingModel | undefined,
) {
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
  const docsChanges = await openDocsChanges(store.database, logger);
  docsChanges.subscribe((projectId) => indexes.invalidate(projectId));
  return { githubAccess, forge, embedder, indexes, docsChanges };
}

/**
 * The job engine: the worker pool and the job service in front of it. What happens when a run is
 * recorded (metrics, the docs indexes, and whoever subscribes: GitHub's status comments) is told
 * through `onRunRecorded`, so the engine is built before what listens to it.
 */
function createEngine(
  config: Config,
  overrides: ServiceOverrides,
  parts: { store: Store; metrics: Metrics | null; logger: Logger; forge: Forge; docsChanges: DocsChanges },
) {
  const { store, metrics, logger, forge, docsChanges } = parts;
  const listeners: ((jobId: string) => void)[] = [];
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
    defaultBudget: config.jobBudget,
    prices: config.prices,
    githubWebUrl: config.github.hosts.webUrl,
    onRunRecorded: ({ jobId, projectId, succeeded, durationMs, usage }) => {
      metrics?.runDuration.observe({ outcome: succeeded ? 'completed' : 'failed' }, durationMs / 1000);
      if (usage) metrics?.recordUsage(usage);
      if (succeeded) void docsChanges.publish(projectId);
      for (const listener of listeners) listener(jobId);
    },
    ...overrides.worker,
    onRetry: ({ durationMs, usage }) => {
      metrics?.runDuration.observe({ outcome: 'retry' }, durationMs / 1000);
      if (usage) metrics?.recordUsage(usage);
      metrics?.retries.inc();
    },
  });
  const jobs = new JobService({
    store,
    forge,
    defaultModel: config.model,
    onQueued: () => worker.wake(),
    onArchived: (jobId) => worker.cancel(jobId),
    ...(overrides.now ? { now: overrides.now } : {}),
  });
  return { worker, jobs, onRunRecorded: (listener: (jobId: string) => void) => listeners.push(listener) };
}

/** The request limits of the API: jobs per project, the assistant per key, project and address. */
function rateLimitsOf(config: Config, store: Store): RateLimits {
  const hour = 3600;
  return new RateLimits(store.database, {
    'job-create': { points: config.jobRateLimit, durationSeconds: hour },
    'job-message': { points: config.jobRateLimit, durationSeconds: hour },
    'assistant-key': { points: config.assistantLimits.keyPerMonth, durationSeconds: 30 * 24 * hour },
    'assistant-org': { points: config.assistantLimits.projectPerHour, durationSeconds: hour },
    'assistant-ip': { points: config.assistantLimits.ipPerDay, durationSeconds: 24 * hour },
    // Reports on pages through the MCP server, per project: enough for readers, not for a flood.
    'page-feedback': { points: 100, durationSeconds: hour },
  });
}

/** The assistant's answerer of a project: its own model, else the server's. */
function answererOfProjects(
  config: Config,
  overrides: ServiceOverrides,
  logger: Logger,
): (project: { model: string | null }) => Answerer {
  const answererFor = overrides.answererFor ?? createAnswererResolver(config, logger);
  return (project) => answererFor(project.model ?? config.model);
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
