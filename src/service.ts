import type { Agent } from './agent/types.js';
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
import type { Hono } from 'hono';

export interface Service {
  config: Config;
  logger: Logger;
  store: Store;
  forge: Forge;
  jobs: JobService;
  worker: Worker;
  app: Hono;
  /** Stops the worker (letting runs finish or releasing them) and closes the store. */
  close(): Promise<void>;
}

export interface ServiceOverrides {
  logger?: Logger;
  store?: Store;
  forge?: Forge;
  agentFor?: (model: string) => Agent;
}

/**
 * Wires the embedded service from its parts (STYLE 2: the worker and the API receive their
 * adapters, they never construct them). The worker is created but not started.
 */
export async function createService(config: Config, overrides: ServiceOverrides = {}): Promise<Service> {
  const logger = overrides.logger ?? createLogger({ level: config.logLevel });
  const store = overrides.store ?? (await openStore({ dataDir: config.dataDir }));
  const forge = overrides.forge ?? new LocalGitForge();
  const worker = new Worker({
    store,
    forge,
    agentFor: overrides.agentFor ?? createAgentResolver(),
    logger,
    concurrency: config.workers,
    leaseMs: config.leaseMs,
  });
  const jobs = new JobService({ store, forge, defaultModel: config.model, onQueued: () => worker.wake() });
  const hour = 3600;
  const rateLimits = new RateLimits(store.database, {
    'job-create': { points: config.jobRateLimit, durationSeconds: hour },
    'job-message': { points: config.jobRateLimit, durationSeconds: hour },
  });
  const app = createApp({ store, jobs, rateLimits, logger });
  return {
    config,
    logger,
    store,
    forge,
    jobs,
    worker,
    app,
    async close() {
      await worker.stop();
      await store.close();
    },
  };
}
