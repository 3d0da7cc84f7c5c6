import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { DocwrightError, ErrorCode } from '../core/errors.js';

/**
 * The HTTP status of each error code, decided here only, for every HTTP edge (the API and the
 * webhook front door): below them an error says what went wrong and whether it may heal, never
 * which status a client sees.
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
  // WebDAV's Insufficient Storage: the server cannot store what the request needs, for now.
  storage_full: 507,
};

/** The status a DocwrightError is answered with. */
export function statusOf(error: Pick<DocwrightError, 'code'>): ContentfulStatusCode {
  return STATUS[error.code];
}
