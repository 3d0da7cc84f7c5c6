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
 * The server could not be reached at all (refused, unknown host, reset before an answer). The
 * message names the address and the network's reason, never the key.
 */
export class ApiUnreachableError extends Error {
  override readonly name = 'ApiUnreachableError';
  constructor(
    readonly baseUrl: string,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`Could not reach the docwright server at ${baseUrl}: ${reason}`, options);
  }
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
  return error instanceof ApiTimeoutError || error instanceof ApiUnreachableError;
}
