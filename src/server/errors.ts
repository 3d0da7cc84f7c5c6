import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { DocwrightError } from '../core/errors.js';
import { statusOf } from '../http/error-status.js';
import type { Logger } from '../core/logger.js';
import type { ErrorBody } from '../protocol/error.js';
import { namedStorageError } from '../store/index.js';

/**
 * The one place an error becomes an HTTP response: our typed errors keep their code and
 * sentence; anything else is logged and answered with a generic 500, never a stack trace.
 */
export function errorResponse(thrown: unknown, c: Context, logger: Logger): Response {
  // A fault of the storage reached from outside the store's queries (the rate limiter's table, a
  // raw read) is named here as the store names its own: 503 or 507, not an internal error.
  const error = namedStorageError(thrown);
  if (DocwrightError.isInstance(error)) {
    const status = statusOf(error);
    // An outage (503) or a full disk (507) is logged once when it starts, where it is noticed; a
    // line per refused request would bury everything else in the log while it lasts.
    const passing = status === 503 || status === 507;
    if (status >= 500) {
      const fields = { err: error, method: c.req.method, path: c.req.path };
      if (passing) logger.debug(fields, 'request refused');
      else logger.error(fields, 'request failed');
    }
    const body: ErrorBody = { error: error.message, code: error.code, retryable: error.retryable };
    return c.json(body, status, error.headers);
  }
  if (error instanceof HTTPException && error.status < 500) {
    const body: ErrorBody = {
      error: error.message || 'Bad request',
      code: 'invalid_request',
      retryable: false,
    };
    return c.json(body, error.status);
  }
  logger.error({ err: error, method: c.req.method, path: c.req.path }, 'unhandled error');
  const unknown = new DocwrightError('internal_error', 'Internal server error');
  const body: ErrorBody = { error: unknown.message, code: unknown.code, retryable: unknown.retryable };
  return c.json(body, 500);
}
