import { hostname } from 'node:os';
import { DocwrightError, UnrecoverableError } from '../core/errors.js';
import { randomString } from '../core/ids.js';
import type { Logger } from '../core/logger.js';
import type { ClaimedJob, JobRow, Store } from '../store/index.js';
import { pullRequestBodyFromStore } from './pull-request-body.js';
import { runJob, usageMeterFor, type RunDependencies } from './run-job.js';
import type { Usage, UsageMeter } from '../core/usage.js';
import { DEFAULT_MAX_ATTEMPTS, failureSentence, mayRetry, delayBeforeRetry } from './run-retries.js';

export interface WorkerOptions extends Omit<RunDependencies, 'runFiles' | 'pullRequestBody'> {
  store: Store;
  /** Runs at once in this process. */
  concurrency: number;
  leaseMs: number;
  /** How often an idle loop looks for work it was not woken for (jobs from another process). */
  pollMs?: number;
  /** Claims of one run before the job fails (a run that keeps crashing its worker). */
  maxAttempts?: number;
  /** The first retry's delay; each later one doubles it, up to a minute (default 1 s). */
  backoffBaseMs?: number;
  /** How long stop() lets running jobs finish before it interrupts them. */
  shutdownGraceMs?: number;
  /**
   * Told after a run's outcome is recorded: the app updates the job's status comments, and after a
   * successful run the assistant looks at the project's docs again.
   */
  onRunRecorded?: (run: RunReport & { succeeded: boolean }) => void;
  /** Told when a failed run is put back to be tried again later. */
  onRetry?: (run: RunReport) => void;
  /**
   * The web root of the GitHub the jobs' threads are on: pull request descriptions link back to
   * them. The description comes from the store (the job's requests and threads) either way.
   */
  githubWebUrl?: string;
}

/** What the worker tells about a run once its outcome is recorded. */
export interface RunReport {
  jobId: string;
  projectId: string;
  /** How long the run took, claim to outcome. */
  durationMs: number;
  /** What the attempt spent (model calls, tokens, tool calls, cost). */
  usage?: Usage;
}

/**
 * The in-process worker pool: `concurrency` loops, each claiming a job with a lease, keeping the
 * lease alive with a heartbeat while the run goes on, and recording the outcome. A worker that dies
 * leaves an expiring lease behind; any worker (here or in another process) takes the job over then.
 */
export class Worker {
  readonly id = `${hostname()}:${process.pid}:${randomString(6, 'abcdefghijklmnopqrstuvwxyz')}`;
  private readonly logger: Logger;
  private readonly running = new Map<string, AbortController>();
  private loops: Promise<void>[] = [];
  private stopping = false;
  private wakers: (() => void)[] = [];
  /** Wake-ups set for jobs put back to be retried: a retry is taken when its delay ends, not at a later poll. */
  private readonly retryTimers = new Set<NodeJS.Timeout>();

  private readonly pullRequestBody: (job: JobRow, reply: string) => Promise<string>;

  constructor(private readonly options: WorkerOptions) {
    this.logger = options.logger.child({ worker: this.id });
    this.pullRequestBody = pullRequestBodyFromStore(options.store, options.githubWebUrl ?? '');
  }

  start(): void {
    if (this.loops.length > 0) return;
    this.stopping = false;
    this.loops = Array.from({ length: this.options.concurrency }, () => this.loop());
  }

  /**
   * The job was archived: its run, if this process is running it, stops now (the agent and its
   * model request are aborted, nothing is committed). Other replicas notice at their next heartbeat.
   */
  cancel(jobId: string): void {
    this.running.get(jobId)?.abort(new JobArchived());
  }

  /** Wakes idle loops: new work was queued. */
  wake(): void {
    for (const wake of this.wakers.splice(0)) wake();
  }

  /** Stops claiming, lets running jobs finish within the grace period, then interrupts and releases them. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    this.wake();
    const grace = this.options.shutdownGraceMs ?? 10_000;
    const timer = setTimeout(() => {
      for (const controller of this.running.values())
        controller.abort(new DocwrightError('unavailable', 'the worker is shutting down'));
    }, grace);
    await Promise.all(this.loops);
    clearTimeout(timer);
    this.loops = [];
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let claimed: ClaimedJob | null = null;
      try {
        claimed = await this.options.store.jobs.claim(this.id, this.options.leaseMs);
      } catch (error) {
        this.logFault(error, 'claiming a job failed');
      }
      if (claimed && this.stopping) {
        // stop() came while this claim was in flight: hand the job straight back, uncounted, so
        // another replica starts it now instead of after the lease.
        await this.giveBack(claimed);
        break;
      }
      if (claimed) await this.process(claimed);
      else await this.idle();
    }
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        // Drop this waker when the poll timer fired first, so idle loops do not pile them up.
        this.wakers = this.wakers.filter((waker) => waker !== done);
        resolve();
      };
      const timer = setTimeout(done, this.options.pollMs ?? 1000);
      this.wakers.push(done);
    });
  }

  private async process(claimed: ClaimedJob): Promise<void> {
    const started = performance.now();
    const report = () => ({
      jobId: claimed.job.id,
      projectId: claimed.job.project_id,
      durationMs: performance.now() - started,
    });
    const { job } = claimed;
    const controller = new AbortController();
    this.running.set(job.id, controller);
    const heartbeat = setInterval(
      () => void this.beat(job.id, controller),
      Math.max(this.options.leaseMs / 3, 50),
    );
    const logger = this.logger.child({ job: job.id });
    const meter = usageMeterFor(job, this.options.prices);
    try {
      const maxAttempts = this.options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
      if (job.attempts > maxAttempts) {
        throw new UnrecoverableError(
          `The job was interrupted ${maxAttempts} times in a row; giving up on this request`,
        );
      }
      const project = await this.options.store.projects.get(job.project_id);
      if (!project) throw new UnrecoverableError(`The job's project ${job.project_id} no longer exists`);
      const history = (await this.options.store.jobs.messages(job.id)).filter(
        (message) => message.state !== 'pending',
      );
      logger.info({ attempt: job.attempts, messages: claimed.pending.length }, 'run started');
      const outcome = await runJob(
        { ...this.options, runFiles: this.options.store.runs, pullRequestBody: this.pullRequestBody, logger },
        project,
        claimed,
        history,
        controller.signal,
        meter,
      );
      const recorded = await this.options.store.jobs.finishRun(job.id, this.id, outcome);
      this.options.onRunRecorded?.({ ...report(), succeeded: true, usage: outcome.usage });
      logger.info({ prLink: outcome.prLink, recorded }, 'run finished');
    } catch (error) {
      await this.handleFailure(
        claimed,
        controller.signal,
        error,
        logger,
        () => ({
          ...report(),
          usage: meter.thisAttempt(),
        }),
        meter,
      );
    } finally {
      clearInterval(heartbeat);
      this.running.delete(job.id);
    }
  }

  private async handleFailure(
    claimed: ClaimedJob,
    signal: AbortSignal,
    error: unknown,
    logger: Logger,
    report: () => RunReport,
    meter: UsageMeter,
  ) {
    const { job, pending } = claimed;
    const store = this.options.store.jobs;
    // What the attempt spent is the job's, however it ended.
    const spent = { usage: meter.thisAttempt(), runUsage: meter.run() };
    try {
      if (signal.aborted && signal.reason instanceof JobArchived) {
        // Cancelled: the request is answered, so the job's thread says what became of it.
        await store.finishRun(job.id, this.id, {
          handledMessageIds: pending.map((message) => message.id),
          reply:
            'Stopped: the job was archived while this request was being worked on, so nothing was committed.',
          changed: false,
          ...spent,
        });
        logger.info('run stopped: the job was archived');
        this.options.onRunRecorded?.({ ...report(), succeeded: false });
      } else if (signal.aborted) {
        // Lost lease: another worker owns the job now. Shutdown: hand it back uncounted.
        if (this.stopping) await store.release(job.id, this.id);
        logger.warn({ reason: String(signal.reason) }, 'run interrupted');
      } else if (mayRetry(error, job.attempts, this.options.maxAttempts)) {
        const delayMs = delayBeforeRetry(error, job.attempts, this.options.backoffBaseMs);
        logger.warn({ err: error, retryInMs: delayMs }, 'run hit a transient error; retrying');
        this.options.onRetry?.(report());
        await store.releaseForRetry(job.id, this.id, delayMs, undefined, {
          attempt: spent.usage,
          run: spent.runUsage,
        });
        this.wakeAfter(delayMs);
      } else {
        const reason = failureSentence(error);
        logger.warn({ err: error }, 'run failed');
        await store.finishRun(job.id, this.id, {
          handledMessageIds: pending.map((message) => message.id),
          reply: `The job failed: ${reason}`,
          error: reason,
          ...spent,
        });
        this.options.onRunRecorded?.({ ...report(), succeeded: false });
      }
    } catch (storeError) {
      this.logFault(
        storeError,
        'recording the run outcome failed; the lease will expire and the run repeat',
        logger,
      );
    }
  }

  private wakeAfter(delayMs: number): void {
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      this.wake();
    }, delayMs + 1);
    timer.unref();
    this.retryTimers.add(timer);
  }

  /**
   * Logs a failure of the worker's own bookkeeping. The store's outages and full disk are logged by
   * the store once when they start; a line per poll, beat or run while one lasts says nothing new.
   */
  private logFault(error: unknown, message: string, logger: Logger = this.logger): void {
    const storage =
      DocwrightError.isInstance(error) && (error.code === 'unavailable' || error.code === 'storage_full');
    if (storage) logger.debug({ err: error }, message);
    else logger.error({ err: error }, message);
  }

  private async giveBack(claimed: ClaimedJob): Promise<void> {
    try {
      await this.options.store.jobs.release(claimed.job.id, this.id);
    } catch (error) {
      this.logger.warn(
        { err: error, job: claimed.job.id },
        'releasing a job at shutdown failed; its lease will expire',
      );
    }
  }

  private async beat(jobId: string, controller: AbortController): Promise<void> {
    try {
      const lease = await this.options.store.jobs.heartbeat(jobId, this.id, this.options.leaseMs);
      if (lease === 'lost')
        controller.abort(new DocwrightError('conflict', 'the lease was lost to another worker'));
      if (lease === 'archived') controller.abort(new JobArchived());
    } catch (error) {
      this.logFault(error, 'heartbeat failed', this.logger.child({ job: jobId }));
    }
  }
}

/** Why a run was stopped when its job was archived. */
class JobArchived extends DocwrightError {
  override readonly name = 'JobArchived';
  constructor() {
    super('conflict', 'the job was archived', { retryable: false });
  }
}
