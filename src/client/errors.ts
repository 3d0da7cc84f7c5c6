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

/** Whether a failed attempt is worth repeating: rate limits, server errors, and network failures. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 429 || error.status >= 500;
  return error instanceof ApiTimeoutError || error instanceof TypeError; // fetch's network failure
}
