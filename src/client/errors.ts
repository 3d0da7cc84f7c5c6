/** An error answer of the docwright API, with the server's message and code. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** The request did not complete in time (per attempt). */
export class ApiTimeoutError extends Error {
  override readonly name = 'ApiTimeoutError';
}

/**
 * Whether a failed attempt is worth repeating. A 429 was refused before any work, so any request
 * may repeat it. A 5xx, a timeout or a network failure may come after the server acted: only reads
 * repeat those, since a repeated create or message could make a second job or queue a prompt twice.
 */
export function isRetryable(error: unknown, method = 'GET'): boolean {
  if (error instanceof ApiError && error.status === 429) return true;
  if (method !== 'GET') return false;
  if (error instanceof ApiError) return error.status >= 500;
  return error instanceof ApiTimeoutError || error instanceof TypeError; // fetch's network failure
}
