import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DocwrightError, type ErrorCode } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ErrorBody } from '../protocol/error.js';

/**
 * The HTTP status of each error code. Decided here only: below the server an error says what went
 * wrong and whether it may heal, never which status a client sees.
 */
const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  invalid_request: 400,
  invalid_json: 400,
  invalid_webhook: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  agent_error: 500,
  job_failed: 500,
  git_error: 500,
  // GitHub's refusals are about docwright's own credentials, not the caller's: a bad gateway.
  forge_error: 502,
  unavailable: 503,
};

/** The status a DocwrightError is answered with. */
export function statusOf(error: Pick<DocwrightError, 'code'>): ContentfulStatusCode {
  return STATUS[error.code];
}

/**
 * The one place an error becomes an HTTP response: our typed errors keep their code and
 * sentence; anything else is logged and answered with a generic 500, never a stack trace.
 */
export function errorResponse(error: unknown, c: Context, logger: Logger): Response {
  if (DocwrightError.isInstance(error)) {
    const status = statusOf(error);
    if (status >= 500) logger.error({ err: error, method: c.req.method, path: c.req.path }, 'request failed');
    const body: ErrorBody = { error: error.message, code: error.code };
    return c.json(body, status, error.headers);
  }
  if (error instanceof HTTPException && error.status < 500) {
    const body: ErrorBody = { error: error.message || 'Bad request', code: 'invalid_request' };
    return c.json(body, error.status);
  }
  logger.error({ err: error, method: c.req.method, path: c.req.path }, 'unhandled error');
  const body: ErrorBody = { error: 'Internal server error', code: 'internal_error' };
  return c.json(body, 500);
}
