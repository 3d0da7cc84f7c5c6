/**
 * Typed errors with a stable `code` and HTTP status, turned into `{ error, code }` in one place
 * (src/server/error-handler.ts). Anything that is not a DocwrightError becomes a generic 500 there.
 */
export type ErrorCode =
  | 'invalid_request'
  | 'invalid_json'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'rate_limited'
  | 'internal_error'
  | 'forge_error'
  | 'agent_error';

export class DocwrightError extends Error {
  override readonly name = 'DocwrightError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new DocwrightError(400, 'invalid_request', message);
export const notFound = (message: string) => new DocwrightError(404, 'not_found', message);
export const conflict = (message: string) => new DocwrightError(409, 'conflict', message);
export const forbidden = (message: string) => new DocwrightError(403, 'forbidden', message);
export const unauthorized = (message: string) =>
  new DocwrightError(401, 'unauthorized', message, { 'WWW-Authenticate': 'Bearer' });

/** An error a job run cannot recover from by retrying: the job fails with this message. */
export class UnrecoverableError extends Error {
  override readonly name = 'UnrecoverableError';
}
