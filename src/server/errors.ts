import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { DocwrightError } from '../core/errors.js';
import { statusOf } from '../http/error-status.js';
import type { Logger } from '../core/logger.js';
import type { ErrorBody } from '../protocol/error.js';

/**
 * The one place an error becomes an HTTP response: our typed errors keep their code and
 * sentence; anything else is logged and answered with a generic 500, never a stack trace.
 */
export function errorResponse(error: unknown, c: Context, logger: Logger): Response {
  if (DocwrightError.isInstance(error)) {
    const status = statusOf(error);
    if (status >= 500) logger.error({ err: error, method: c.req.method, path: c.req.path }, 'request failed');
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
  const body: ErrorBody = { error: 'Internal server error', code: 'internal_error', retryable: true };
  return c.json(body, 500);
}
