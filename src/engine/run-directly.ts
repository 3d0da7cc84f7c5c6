import { setTimeout as sleep } from 'node:timers/promises';
import type { ClaimedJob, ProjectRow, RunOutcome } from '../store/index.js';
import { runJob, usageMeterFor, type RunDependencies, type RunFileBook } from './run-job.js';
import { addUsage, NO_USAGE } from '../core/usage.js';
import { failureSentence, mayRetry, delayBeforeRetry } from './run-retries.js';

export interface DirectRunOptions extends Omit<RunDependencies, 'runFiles'> {
  /** Where the runs' committed files are booked; by default nowhere, and GitHub lists them. */
  runFiles?: RunFileBook;
  /** Attempts before the job fails (default as the worker's). */
  maxAttempts?: number;
  /** The first retry's delay, doubled for each later one (default 1 s). */
  backoffBaseMs?: number;
  /** Told before an attempt is repeated, with the error that ended the last one. */
  onRetry?: (retry: { attempt: number; delayMs: number; error: unknown }) => void;
}

/** Without a book of its own, the files a run commits are listed by GitHub when a comment names them. */
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
  // What earlier attempts spent: a retry starts its budget there, and the outcome reports it all.
  let spent = NO_USAGE;
  for (let attempts = 1; ; attempts += 1) {
    const meter = usageMeterFor(
      { model: claimed.job.model, run_usage: JSON.stringify(spent) },
      options.prices,
    );
    try {
      const outcome = await runJob(
        { ...options, runFiles: options.runFiles ?? NO_BOOK },
        project,
        { job: { ...claimed.job, attempts }, pending: claimed.pending },
        history,
        signal,
        meter,
      );
      return { ...outcome, usage: meter.run() };
    } catch (error) {
      if (signal.aborted) throw error;
      spent = addUsage(spent, meter.thisAttempt());
      if (!mayRetry(error, attempts, options.maxAttempts)) {
        const reason = failureSentence(error);
        options.logger.warn({ err: error, job: claimed.job.id }, 'run failed');
        return {
          handledMessageIds,
          reply: `The job failed: ${reason}`,
          error: reason,
          usage: spent,
          runUsage: spent,
        };
      }
      const delayMs = delayBeforeRetry(error, attempts, options.backoffBaseMs);
      options.onRetry?.({ attempt: attempts, delayMs, error });
      await sleep(delayMs, undefined, { signal });
    }
  }
}
