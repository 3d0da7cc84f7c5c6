import { DocwrightError, isErrorCode, type ErrorCode } from '../core/errors.js';

/** Methods a client may send twice without doing twice what they ask (RFC 9110's safe methods). */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Codes with which a docwright server turns a request away before acting on it (a rate limit, an
 * outage of its database or disk): the request may be sent again whatever its method.
 */
const REFUSED_BEFORE_ACTING: ReadonlySet<ErrorCode> = new Set([
  'rate_limited',
  'unavailable',
  'storage_full',
]);

/** What an error answer said, as the client read it. */
export interface ApiAnswer {
  status: number;
  /** The server's `code`, when the body was a docwright error body with a code this client knows. */
  code: ErrorCode | undefined;
  /** The server's `retryable`, when it said. */
  retryable: boolean | undefined;
  retryAfterSeconds?: number | undefined;
}

/**
 * An error answer of the docwright API: the server's sentence and code, and whether sending the
 * same request again may succeed, decided here once. A request the server turned away before
 * acting (429, an outage) may be repeated; any other failure only when the method is safe to repeat
 * and the condition may pass (a 5xx): a repeated create or message could make a second job or
 * queue a prompt twice.
 */
export class ApiError extends DocwrightError {
  override name = 'ApiError';
  readonly status: number;
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, answer: ApiAnswer, method: string) {
    const code = answer.code ?? codeOfStatus(answer.status);
    super(code, message, { retryable: mayRepeat(answer, code, method) });
    this.status = answer.status;
    this.retryAfterSeconds = answer.retryAfterSeconds;
  }
}

function mayRepeat(answer: ApiAnswer, code: ErrorCode, method: string): boolean {
  const heals = answer.retryable ?? (answer.status >= 500 || answer.status === 429);
  if (!heals) return false;
  // Only a docwright body can say the server did nothing; a proxy's 502 may come after it acted.
  if (answer.code !== undefined && REFUSED_BEFORE_ACTING.has(code)) return true;
  if (answer.status === 429) return true;
  return SAFE_METHODS.has(method.toUpperCase());
}

/** The code of an answer whose body did not name one (a proxy's error page, an older server). */
function codeOfStatus(status: number): ErrorCode {
  if (status === 400) return 'invalid_request';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 413) return 'payload_too_large';
  if (status === 429) return 'rate_limited';
  if (status === 502 || status === 503 || status === 504) return 'unavailable';
  if (status === 507) return 'storage_full';
  return status >= 500 ? 'internal_error' : 'invalid_request';
}

/** Reads an error answer's `code`, keeping only codes this client knows. */
export function knownCode(code: unknown): ErrorCode | undefined {
  return isErrorCode(code) ? code : undefined;
}

/**
 * The request did not complete in time (per attempt). The server may have acted on it, so only a
 * request that is safe to repeat is repeated.
 */
export class ApiTimeoutError extends DocwrightError {
  override name = 'ApiTimeoutError';
  constructor(message: string, method: string) {
    super('unavailable', message, { retryable: SAFE_METHODS.has(method.toUpperCase()) });
  }
}

/**
 * The server could not be reached at all (refused, unknown host, reset before an answer). The
 * message names the address and the network's reason, never the key. A connection refused or reset
 * may still have carried the request, so as with a time-out only safe requests are repeated.
 */
export class ApiUnreachableError extends DocwrightError {
  override name = 'ApiUnreachableError';
  constructor(
    readonly baseUrl: string,
    readonly reason: string,
    method: string,
    options?: ErrorOptions,
  ) {
    super('unavailable', `Could not reach the docwright server at ${baseUrl}: ${reason}`, {
      retryable: SAFE_METHODS.has(method.toUpperCase()),
      cause: options?.cause,
    });
  }
}
