import { JOB_STATUSES } from '../protocol/agent-job.js';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Jobs per status and the queue's depth, read from the store when /metrics is scraped. */
export interface JobStats {
  byStatus: Partial<Record<string, number>>;
  queued: number;
}

/**
 * docwright's Prometheus metrics, in a registry of its own (several services in one process, as in
 * tests, do not collide). Counters are bumped where things happen; job counts are read from the
 * store at scrape time, so every replica reports the shared queue as it is.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly runDuration: Histogram<'outcome'>;
  readonly retries: Counter;
  readonly githubRequests: Counter<'method' | 'status'>;
  readonly githubRateLimitHits: Counter;
  readonly assistantAnswers: Counter<'version' | 'outcome'>;
  readonly assistantFirstByte: Histogram<'version'>;
  readonly webhookDeliveries: Counter<'outcome'>;
  readonly storageFaults: Counter<'fault'>;
  readonly modelTokens: Counter<'direction'>;
  readonly modelCalls: Counter;
  readonly toolCalls: Counter;
  readonly modelCost: Counter;

  constructor(jobStats: () => Promise<JobStats>) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'docwright_' });
    const stats = cachedFor(1000, jobStats);
    new Gauge({
      name: 'docwright_jobs',
      help: 'Jobs by status',
      labelNames: ['status'],
      registers,
      async collect() {
        const { byStatus } = await stats();
        for (const status of JOB_STATUSES) this.set({ status }, byStatus[status] ?? 0);
      },
    });
    new Gauge({
      name: 'docwright_job_queue_depth',
      help: 'Active jobs that no worker holds: waiting to be run',
      registers,
      async collect() {
        this.set((await stats()).queued);
      },
    });
    this.runDuration = new Histogram({
      name: 'docwright_job_run_duration_seconds',
      help: 'Duration of job runs, by outcome (completed, failed, retry)',
      labelNames: ['outcome'],
      buckets: [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600],
      registers,
    });
    this.storageFaults = new Counter({
      name: 'docwright_storage_faults_total',
      help: 'Store operations refused because the database could not be reached or the storage was full',
      labelNames: ['fault'],
      registers,
    });
    this.modelTokens = new Counter({
      name: 'docwright_model_tokens_total',
      help: "Tokens jobs' model calls used, by direction (input, output); failed and retried attempts included",
      labelNames: ['direction'],
      registers,
    });
    this.modelCalls = new Counter({
      name: 'docwright_model_calls_total',
      help: "Jobs' model calls",
      registers,
    });
    this.toolCalls = new Counter({
      name: 'docwright_tool_calls_total',
      help: "Tool calls the jobs' models made",
      registers,
    });
    this.modelCost = new Counter({
      name: 'docwright_model_cost_usd_total',
      help: "Estimated US dollars of jobs' model calls, for models with a price in DOCWRIGHT_MODEL_PRICES",
      registers,
    });
    this.retries = new Counter({
      name: 'docwright_job_retries_total',
      help: 'Job runs put back to be tried again after an error that may heal',
      registers,
    });
    this.githubRequests = new Counter({
      name: 'docwright_github_requests_total',
      help: 'HTTP requests to the GitHub API, retries included, by method and status',
      labelNames: ['method', 'status'],
      registers,
    });
    this.githubRateLimitHits = new Counter({
      name: 'docwright_github_rate_limit_waits_total',
      help: 'GitHub answers that said a rate limit was hit: the client waits, then retries within its limit',
      registers,
    });
    this.assistantAnswers = new Counter({
      name: 'docwright_assistant_answers_total',
      help: 'Assistant answers streamed, by API version and outcome (completed, failed)',
      labelNames: ['version', 'outcome'],
      registers,
    });
    this.assistantFirstByte = new Histogram({
      name: 'docwright_assistant_time_to_first_byte_seconds',
      help: 'From an assistant request to the first text of its answer',
      labelNames: ['version'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
      registers,
    });
    this.webhookDeliveries = new Counter({
      name: 'docwright_webhook_deliveries_total',
      help: 'GitHub webhook deliveries, by outcome',
      labelNames: ['outcome'],
      registers,
    });
  }

  /** Adds what a run's attempt spent to the counters. */
  recordUsage(usage: MetricsUsage): void {
    this.modelTokens.inc({ direction: 'input' }, usage.inputTokens);
    this.modelTokens.inc({ direction: 'output' }, usage.outputTokens);
    this.modelCalls.inc(usage.modelCalls);
    this.toolCalls.inc(usage.toolCalls);
    if (usage.costUsd !== null) this.modelCost.inc(usage.costUsd);
  }
}

export interface MetricsUsage {
  inputTokens: number;
  outputTokens: number;
  modelCalls: number;
  toolCalls: number;
  costUsd: number | null;
}

/** One store query per scrape, however many gauges read it. */
function cachedFor<T>(ms: number, load: () => Promise<T>): () => Promise<T> {
  let cached: { at: number; value: Promise<T> } | null = null;
  return () => {
    if (!cached || Date.now() - cached.at > ms) {
      const value = load();
      cached = { at: Date.now(), value };
      value.catch(() => (cached = null));
    }
    return cached.value;
  };
}

/** The part of an Octokit the instrumentation hooks into. */
export interface HookableOctokit {
  hook: { before(name: 'request', hook: (options: { method: string; request?: object }) => void): void };
}

const INSTRUMENTED = Symbol.for('docwright.instrumented-fetch');
type Fetch = typeof fetch;

/**
 * Counts an Octokit's requests to GitHub, and the answers that said a rate limit was hit. It wraps
 * the `fetch` each request is made with, so every attempt is seen, including those the retry and
 * throttling plugins make after a wait. Attach it to every Octokit docwright makes.
 */
export function instrumentOctokit(octokit: HookableOctokit, metrics: Metrics): void {
  octokit.hook.before('request', (options) => {
    const request = (options.request ??= {}) as { fetch?: Fetch & { [INSTRUMENTED]?: true } };
    if (request.fetch?.[INSTRUMENTED]) return;
    const inner = request.fetch;
    const method = options.method.toUpperCase();
    const counted = (async (input: Parameters<Fetch>[0], init?: Parameters<Fetch>[1]) => {
      try {
        const response = await (inner ?? globalThis.fetch)(input, init);
        metrics.githubRequests.inc({ method, status: String(response.status) });
        if (isRateLimited(response)) metrics.githubRateLimitHits.inc();
        return response;
      } catch (error) {
        metrics.githubRequests.inc({ method, status: 'network_error' });
        throw error;
      }
    }) as Fetch & { [INSTRUMENTED]?: true };
    counted[INSTRUMENTED] = true;
    request.fetch = counted;
  });
}

function isRateLimited(response: Response): boolean {
  if (response.status !== 403 && response.status !== 429) return false;
  return response.headers.has('retry-after') || response.headers.get('x-ratelimit-remaining') === '0';
}
