/**
 * docwright's one error model. Every error we raise on purpose is a DocwrightError: a stable `code`
 * for programs, a sentence for people (`message`) and `retryable`, which says whether trying the
 * same thing again later may succeed. Nothing here knows about HTTP: the status of a code is chosen
 * at the server's edge (src/server/errors.ts), and the worker asks `retryable`, nothing else.
 */
/** Every code an error of ours can carry, on the wire too (`{ "error", "code", "retryable" }`). */
export const ERROR_CODES = [
  'invalid_request',
  'invalid_json',
  'invalid_webhook',
  'unsupported_media_type',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'payload_too_large',
  'rate_limited',
  'unavailable',
  'storage_full',
  'internal_error',
  'forge_error',
  'git_error',
  'agent_error',
  'job_failed',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(value: unknown): value is ErrorCode {
  return (ERROR_CODES as readonly unknown[]).includes(value);
}

/**
 * Codes that describe a passing condition (contention, a limit, an outage) rather than a wrong
 * request, and `internal_error`: a failure nobody understood may pass as well, and is treated as
 * any unknown error is (`isRetryable`), on the wire and in a job run alike.
 */
const RETRYABLE_CODES: ReadonlySet<ErrorCode> = new Set([
  'conflict',
  'rate_limited',
  'unavailable',
  'storage_full',
  'internal_error',
]);

export interface DocwrightErrorOptions {
  /** Whether the same operation may succeed later; default: by code (conflicts, limits, outages). */
  retryable?: boolean;
  /** Response headers that belong to the error (Retry-After, WWW-Authenticate, Allow). */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * A property name, not `instanceof`: the Action bundle and the server may each load their own copy
 * of this module, and an error from one copy must still be recognised by the other.
 */
const MARKER = Symbol.for('docwright.error');

export class DocwrightError extends Error {
  override name = 'DocwrightError';
  private readonly [MARKER] = true;
  readonly retryable: boolean;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: DocwrightErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryable = options.retryable ?? RETRYABLE_CODES.has(code);
    this.headers = options.headers ?? {};
  }

  /** Whether `error` is a DocwrightError from any copy of this module. */
  static isInstance(error: unknown): error is DocwrightError {
    return typeof error === 'object' && error !== null && MARKER in error;
  }
}

/**
 * A job cannot succeed by trying again: it fails at once, with this sentence as its reason. Kept as
 * its own name because "the run is over" reads better at the places that decide it.
 */
export class UnrecoverableError extends DocwrightError {
  override name = 'UnrecoverableError';
  constructor(message: string, options: Omit<DocwrightErrorOptions, 'retryable'> = {}) {
    super('job_failed', message, { ...options, retryable: false });
  }
}

export const badRequest = (message: string) => new DocwrightError('invalid_request', message);
export const notFound = (message: string) => new DocwrightError('not_found', message);
/** A conflict that waiting resolves (a branch moved, a row was taken); `retryable: false` for one that stays. */
export const conflict = (message: string, options: DocwrightErrorOptions = {}) =>
  new DocwrightError('conflict', message, options);
export const forbidden = (message: string) => new DocwrightError('forbidden', message);
export const unauthorized = (message: string) =>
  new DocwrightError('unauthorized', message, { headers: { 'WWW-Authenticate': 'Bearer' } });

/**
 * How an error that is not ours is treated when it ends a job run: a plain `Error` from a library
 * or a bug says nothing about whether it heals (a dropped connection does, a TypeError does not),
 * so it is retried, but only `UNKNOWN_ERROR_ATTEMPTS` times in all before the job fails with it.
 */
export const UNKNOWN_ERROR_ATTEMPTS = 3;

/** Whether trying again may help: our errors say so; unknown ones are given a few tries. */
export function isRetryable(error: unknown): boolean {
  return DocwrightError.isInstance(error) ? error.retryable : true;
}

/**
 * A setting that cannot be used (a missing key, a malformed value, a model that cannot load): the
 * program stops at start with this sentence, never a stack trace. Should one surface in a request
 * instead, the fault is the server's setup, not the caller's request (`internal_error`), and asking
 * again changes nothing until someone changes the setting.
 */
export class ConfigError extends DocwrightError {
  override readonly name = 'ConfigError';
  constructor(message: string, options: Pick<DocwrightErrorOptions, 'cause'> = {}) {
    super('internal_error', message, { ...options, retryable: false });
  }
}

/**
 * What was thrown, as an Error: a library may throw or reject with anything (a string, a plain
 * object), and whoever keeps or passes the failure on needs a message and a stack. It is not one of
 * ours, so it stays a plain Error and is treated as any unknown failure is (`isRetryable`).
 */
export function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}
