import { DocwrightError } from '../core/errors.js';
import { DO_NOT_RETRY } from './octokit.js';

/** The part of Octokit's `RequestError` docwright reads (checked by shape: bundles hold several copies). */
export interface GitHubRequestError {
  status: number;
  message: string;
  request?: { method?: string; url?: string };
  response?: { data?: unknown; headers?: Record<string, string | number | undefined> };
}

/** What a failed GitHub request means for whoever made it. */
export type RequestErrorKind =
  'credentials' | 'forbidden' | 'not-found' | 'refused' | 'rate-limited' | 'unavailable';

export interface ClassifiedRequestError {
  status: number;
  kind: RequestErrorKind;
  /** Whether the same request may work later: rate limits and GitHub's own failures do. */
  retryable: boolean;
  /** Every message GitHub put in the body. */
  messages: string[];
  /** `GET /repos/o/r/...`, without host and query; null when the error does not say. */
  request: string | null;
}

function isRequestError(error: unknown): error is GitHubRequestError {
  return error instanceof Error && typeof (error as { status?: unknown }).status === 'number';
}

export function hasStatus(error: unknown, ...statuses: number[]): error is GitHubRequestError {
  return isRequestError(error) && statuses.includes(error.status);
}

/**
 * Every message GitHub put in an error body: the top-level `message` and each `errors[]` entry
 * (a string or `{ message }`). "A pull request already exists" only appears in the latter.
 */
function messagesOf(error: GitHubRequestError): string[] {
  const data = error.response?.data;
  if (typeof data !== 'object' || data === null) return [error.message];
  const body = data as { message?: unknown; errors?: unknown };
  const messages = typeof body.message === 'string' ? [body.message] : [];
  for (const entry of Array.isArray(body.errors) ? (body.errors as unknown[]) : []) {
    if (typeof entry === 'string') messages.push(entry);
    else if (typeof entry === 'object' && entry !== null) {
      const message = (entry as { message?: unknown }).message;
      if (typeof message === 'string') messages.push(message);
    }
  }
  return messages;
}

/** A 422 whose body says `text` (GitHub's way of naming a specific refusal). */
export function isRefusal(error: unknown, text: string): error is GitHubRequestError {
  return hasStatus(error, 422) && messagesOf(error).some((message) => message.includes(text));
}

/**
 * The one reading of a failed GitHub request: null when `error` is not an HTTP answer from GitHub
 * (a network failure, a bug). A status on Octokit's do-not-retry list (bad input, credentials,
 * permissions, a missing resource, a 422 validation failure) does not heal with retries, unless it
 * is a rate limit that outlasted the throttling plugin's retries; anything else (a 409 on a moved
 * ref, a 5xx) may.
 */
export function classifyRequestError(error: unknown): ClassifiedRequestError | null {
  if (!isRequestError(error)) return null;
  const messages = messagesOf(error);
  const rateLimited =
    error.response?.headers?.['x-ratelimit-remaining'] === '0' ||
    messages.some((message) => /rate limit/i.test(message));
  const kind: RequestErrorKind =
    (error.status === 403 || error.status === 429) && rateLimited
      ? 'rate-limited'
      : error.status === 401
        ? 'credentials'
        : error.status === 403
          ? 'forbidden'
          : error.status === 404
            ? 'not-found'
            : error.status >= 500
              ? 'unavailable'
              : 'refused';
  const retryable = kind === 'rate-limited' || !DO_NOT_RETRY.includes(error.status);
  return { status: error.status, kind, retryable, messages, request: requestLine(error) };
}

function requestLine(error: GitHubRequestError): string | null {
  const { method, url } = error.request ?? {};
  if (typeof method !== 'string' || typeof url !== 'string') return null;
  const path = url.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/\?.*$/, '');
  return `${method} ${path}`;
}

/**
 * The error a classified GitHub failure becomes, in a sentence a person can act on. Always
 * `forge_error` (502), whatever GitHub said: GitHub's 401 is about docwright's credentials, not
 * about the caller of docwright's API. Whether it may heal is the classifier's answer, carried as
 * it is, so nobody further up reads GitHub's status again to decide.
 */
export function gitHubFailure(sentence: string, classified: { retryable: boolean }): DocwrightError {
  return new DocwrightError('forge_error', sentence, { retryable: classified.retryable });
}

/** A GitHub that is not set up for a repository (no app installation, no token): nothing to retry. */
export function gitHubNotConfigured(sentence: string): DocwrightError {
  return new DocwrightError('forge_error', sentence, { retryable: false });
}
