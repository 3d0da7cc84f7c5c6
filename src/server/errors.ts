import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DocwrightError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ErrorBody } from '../protocol/error.js';

/**
 * The one place an error becomes an HTTP response (STYLE 5): our typed errors keep their status and
 * message; anything else is logged and answered with a generic 500, never a stack trace.
 */
export function errorResponse(error: unknown, c: Context, logger: Logger): Response {
  if (error instanceof DocwrightError) {
    const body: ErrorBody = { error: error.message, code: error.code };
    return c.json(body, error.status as ContentfulStatusCode, error.headers);
  }
  if (error instanceof HTTPException && error.status < 500) {
    const body: ErrorBody = { error: error.message || 'Bad request', code: 'invalid_request' };
    return c.json(body, error.status);
  }
  logger.error({ err: error, method: c.req.method, path: c.req.path }, 'unhandled error');
  const body: ErrorBody = { error: 'Internal server error', code: 'internal_error' };
  return c.json(body, 500);
}
