import { DocwrightError, isRetryable, UNKNOWN_ERROR_ATTEMPTS } from '../core/errors.js';
import { redactSecrets } from '../core/redact.js';
import { retryDelayMs } from '../core/backoff.js';

/** Claims of one run before the job fails, unless the caller sets its own. */
export const DEFAULT_MAX_ATTEMPTS = 5;

/**
 * Whether a failed attempt is worth another one. Only errors that say they may heal are retried,
 * and only while attempts remain. An error that is not ours (a library's, a bug's) gets fewer
 * attempts: it may be a dropped connection, but it may as well be a TypeError that fails the same
 * way every time.
 */
export function mayRetry(error: unknown, attempts: number, maxAttempts = DEFAULT_MAX_ATTEMPTS): boolean {
  if (!isRetryable(error)) return false;
  const limit = DocwrightError.isInstance(error)
    ? maxAttempts
    : Math.min(maxAttempts, UNKNOWN_ERROR_ATTEMPTS);
  return attempts < limit;
}

/** The sentence a failed job shows: ours are written for people; others keep their message, redacted. */
export function failureSentence(error: unknown): string {
  if (DocwrightError.isInstance(error)) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return redactSecrets(message) || 'the run stopped on an unexpected error';
}

/**
 * How long to wait before trying a run again: the back-off, or longer when the error carries the
 * `Retry-After` its service asked for (a model provider's rate limit), up to ten minutes.
 */
export function delayBeforeRetry(error: unknown, attempts: number, baseMs?: number): number {
  const backoff = retryDelayMs(attempts, { baseMs });
  const asked = DocwrightError.isInstance(error) ? error.headers['Retry-After'] : undefined;
  const seconds = asked === undefined ? Number.NaN : Number(asked);
  if (!Number.isFinite(seconds) || seconds <= 0) return backoff;
  return Math.max(backoff, Math.min(seconds * 1000, 10 * 60_000));
}
