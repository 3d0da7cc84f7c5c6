import type { Hono } from 'hono';
import type { Agent } from './agent/types.js';
import { ExtractiveAnswerer } from './assistant/answer/extractive.js';
import { ModelAnswerer } from './assistant/answer/model.js';
import type { Answerer } from './assistant/answer/types.js';
import { Assistant } from './assistant/assistant.js';
import { DocsIndexes } from './assistant/docs-indexes.js';
import { languageModel } from './models.js';
import { createAgentResolver } from './agent/registry.js';
import type { Config } from './config.js';
import { JobService } from './engine/job-service.js';
import { Worker } from './engine/worker.js';
import { LocalGitForge } from './forge/local-git.js';
import type { Forge } from './forge/types.js';
import { createLogger, type Logger } from './logger.js';
import { createApp } from './server/app.js';
import { RateLimits } from './server/rate-limits.js';
import { openStore, type Store } from './store/index.js';

export interface Service {
  config: Config;
  logger: Logger;
  store: Store;
  forge: Forge;
  jobs: JobService;
  worker: Worker;
  app: Hono;
  indexes: DocsIndexes;
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
}

/**
 * Wires the embedded service from its parts (STYLE 2: the worker and the API receive their
 * adapters, they never construct them). The worker is created but not started.
 */
export async function createService(config: Config, overrides: ServiceOverrides = {}): Promise<Service> {
  const logger = overrides.logger ?? createLogger({ level: config.logLevel });
  // Fail at start, in words, when the configured model cannot be used (a missing API key).
  languageModel(config.model, config.providers);
  const store = overrides.store ?? (await openStore({ dataDir: config.dataDir }));
  const forge = overrides.forge ?? new LocalGitForge();
  const indexes = new DocsIndexes({ forge, logger });
  const worker = new Worker({
    store,
    forge,
    agentFor: overrides.agentFor ?? createAgentResolver(),
    logger,
    concurrency: config.workers,
    leaseMs: config.leaseMs,
    onRunFinished: (projectId) => indexes.invalidate(projectId),
  });
  const jobs = new JobService({ store, forge, defaultModel: config.model, onQueued: () => worker.wake() });
  const hour = 3600;
  const rateLimits = new RateLimits(store.database, {
    'job-create': { points: config.jobRateLimit, durationSeconds: hour },
    'job-message': { points: config.jobRateLimit, durationSeconds: hour },
    'assistant-key': { points: config.assistantLimits.keyPerMonth, durationSeconds: 30 * 24 * hour },
    'assistant-org': { points: config.assistantLimits.projectPerHour, durationSeconds: hour },
    'assistant-ip': { points: config.assistantLimits.ipPerDay, durationSeconds: 24 * hour },
  });
  const answererFor = overrides.answererFor ?? createAnswererResolver(config);
  const assistant = new Assistant({
    store,
    indexes,
    answererFor: (project) => answererFor(project.model ?? config.model),
  });
  const app = createApp({ store, jobs, rateLimits, logger, assistant, trustProxy: config.trustProxy });
  return {
    config,
    logger,
    store,
    forge,
    jobs,
    worker,
    app,
    indexes,
    async close() {
      await worker.stop();
      indexes.close();
      await store.close();
    },
  };
}

/** Extractive answers for `builtin`; a model through the AI SDK otherwise (one answerer per model). */
function createAnswererResolver(config: Config): (model: string) => Answerer {
  const extractive = new ExtractiveAnswerer();
  const byModel = new Map<string, Answerer>();
  return (model) => {
    let answerer = byModel.get(model);
    if (!answerer) {
      const languageModelFor = languageModel(model, config.providers);
      answerer = languageModelFor ? new ModelAnswerer(languageModelFor, model) : extractive;
      byModel.set(model, answerer);
    }
    return answerer;
  };
}
