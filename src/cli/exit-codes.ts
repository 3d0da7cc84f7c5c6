import { DocwrightError } from '../core/errors.js';

/**
 * What the command line's exit status means, for scripts and CI. 124 for a time-out is what
 * `timeout(1)` uses, so a shell script can treat both alike.
 */
export const EXIT = {
  /** Done: a job completed, a check found nothing. */
  ok: 0,
  /** A job failed or was archived, a check found problems, a request was refused, a server was not reached. */
  failed: 1,
  /** The command line itself was wrong: an unknown flag, a missing argument, a value out of range. */
  usage: 2,
  /** `--wait` gave up while the job was still running. */
  timedOut: 124,
} as const;

/** A mistake in how the command was called: the message names it, and the exit status is 2. */
export class UsageError extends DocwrightError {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super('invalid_request', message, { retryable: false });
  }
}
