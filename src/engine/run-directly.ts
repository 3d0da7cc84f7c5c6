import { setTimeout as sleep } from 'node:timers/promises';
import type { ClaimedJob, ProjectRow, RunOutcome } from '../store/index.js';
import { runJob, type RunDependencies } from './run-job.js';
import { retryDelayMs } from '../core/backoff.js';
import { failureSentence, mayRetry } from './run-retries.js';

export interface DirectRunOptions extends Omit<RunDependencies, 'runFiles'> {
  /** Attempts before the job fails (default as the worker's). */
  maxAttempts?: number;
  /** The first retry's delay, doubled for each later one (default 1 s). */
  backoffBaseMs?: number;
  /** Told before an attempt is repeated, with the error that ended the last one. */
  onRetry?: (retry: { attempt: number; delayMs: number; error: unknown }) => void;
}

/** The files a run commits are only booked for status comments a store feeds; here GitHub lists them. */
const NO_BOOK = { planned: async () => {}, landed: async () => {} };

/**
 * One run of a job in this process, with no store and no worker: the Action in a runner, where a
 * job lives for one step and nothing is kept afterwards. The run itself is the worker's (snapshot,
 * agent, checks, one commit, the pull request), and so is the rule of what is tried again: a
 * branch that moved under the run (another comment's run committed first) is looked up again and
 * the request redone on its new head. A failure that retrying does not heal comes back as the
 * outcome's `error`, as the worker would record it; only an abort is thrown.
 */
export async function runJobDirectly(
  options: DirectRunOptions,
  project: ProjectRow,
  claimed: ClaimedJob,
  history: { role: 'user' | 'agent'; content: string; created_at: string }[],
  signal: AbortSignal,
): Promise<RunOutcome> {
  const handledMessageIds = claimed.pending.map((message) => message.id);
  for (let attempts = 1; ; attempts += 1) {
    try {
      return await runJob(
        { ...options, runFiles: NO_BOOK },
        project,
        { job: { ...claimed.job, attempts }, pending: claimed.pending },
        history,
        signal,
      );
    } catch (error) {
      if (signal.aborted) throw error;
      if (!mayRetry(error, attempts, options.maxAttempts)) {
        const reason = failureSentence(error);
        options.logger.warn({ err: error, job: claimed.job.id }, 'run failed');
        return { handledMessageIds, reply: `The job failed: ${reason}`, error: reason };
      }
      const delayMs = retryDelayMs(attempts, { baseMs: options.backoffBaseMs });
      options.onRetry?.({ attempt: attempts, delayMs, error });
      await sleep(delayMs, undefined, { signal });
    }
  }
}
