import { setTimeout as delay } from 'node:timers/promises';
import { DocwrightError } from '../core/errors.js';
import { isFinal, type Job } from '../protocol/agent-job.js';
import type { DocwrightClient } from './client.js';

/** How polling ended: the server reported a final state, time ran out, or the caller gave up (a cancelled workflow, Ctrl-C). */
export type PollEnd = 'finished' | 'timed-out' | 'cancelled';

export interface PollOptions {
  intervalMs: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called with every state read, so the caller can log changes. */
  onPoll?: (job: Job) => void;
  /** Told about a failed poll that will be repeated. */
  onTransientError?: (error: unknown) => void;
  /** Injectable clock and sleep so tests do not wait. */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * The one polling loop of the clients (the CLI's `--wait`, the Action). Polls
 * `GET /v2/agent/{projectId}/job/{id}` until the job is completed, archived or failed,
 * the timeout passes (one last read at the deadline), or `signal` aborts. A poll that still fails
 * after the client's own retries is not fatal while time remains: a server restart must not fail a
 * job that is fine.
 */
export async function pollJob(
  client: Pick<DocwrightClient, 'getJob'>,
  projectId: string,
  start: Job,
  options: PollOptions,
): Promise<{ job: Job; end: PollEnd }> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const deadline = now() + options.timeoutMs;
  let job = start;
  for (;;) {
    if (isFinal(job.status)) return { job, end: 'finished' };
    const remaining = deadline - now();
    if (remaining <= 0) return { job, end: 'timed-out' };
    await sleep(Math.min(options.intervalMs, remaining), options.signal);
    if (options.signal?.aborted) return { job, end: 'cancelled' };
    try {
      job = await client.getJob(projectId, job.id);
      options.onPoll?.(job);
    } catch (error) {
      const passing = DocwrightError.isInstance(error) && error.retryable;
      if (!passing || now() >= deadline) throw error;
      options.onTransientError?.(error);
    }
  }
}

async function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, { signal });
  } catch (error) {
    if (!signal?.aborted) throw error;
  }
}
