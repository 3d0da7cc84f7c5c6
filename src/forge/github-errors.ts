import { DocwrightError, UnrecoverableError } from '../errors.js';
import { redactSecrets } from '../redact.js';

/** The part of Octokit's `RequestError` the forge reads (checked structurally, not by class). */
export interface GitHubRequestError {
  status: number;
  message: string;
  response?: { data?: unknown; headers?: Record<string, string | number | undefined> };
}

/** Who the requests are made as: the sentences differ (install the app vs. give the token access). */
export type GitHubAuthKind = 'app' | 'token';

/** What the failed request was for, so the sentence names the missing permission. */
export type GitHubAccess = 'read' | 'push' | 'pull-request';

export interface GitHubErrorContext {
  repository: string;
  access: GitHubAccess;
  auth: GitHubAuthKind;
}

export function isGitHubRequestError(error: unknown): error is GitHubRequestError {
  return error instanceof Error && typeof (error as { status?: unknown }).status === 'number';
}

export function hasStatus(error: unknown, ...statuses: number[]): error is GitHubRequestError {
  return isGitHubRequestError(error) && statuses.includes(error.status);
}

/**
 * Every message GitHub put in an error body: the top-level `message` and each `errors[]` entry
 * (a string or `{ message }`). "A pull request already exists" only appears in the latter.
 */
export function messagesOf(error: GitHubRequestError): string[] {
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
 * Turns a GitHub failure into a DocwrightError with a sentence a person can act on. Status 502
 * (`forge_error`) whatever GitHub said: GitHub's 401 is about docwright's credentials, not about
 * the caller of docwright's API. Errors that are not HTTP responses pass through unchanged.
 */
export function toForgeError(error: unknown, context: GitHubErrorContext): unknown {
  if (DocwrightError.isInstance(error) || !isGitHubRequestError(error)) return error;
  const sentence = redactSecrets(sentenceFor(error, context));
  // Missing credentials, permissions or repositories do not heal with retries: the job fails at
  // once, in words. Rate limits (403/429 that the throttling plugin gave up on) may: retried later.
  const rateLimited = messagesOf(error).some((message) => /rate limit/i.test(message));
  if ([401, 403, 404].includes(error.status) && !rateLimited) return new UnrecoverableError(sentence);
  return new DocwrightError('forge_error', sentence, { retryable: true });
}

function sentenceFor(error: GitHubRequestError, { repository, access, auth }: GitHubErrorContext): string {
  const who = auth === 'app' ? 'The GitHub App' : 'The token';
  const said = messagesOf(error).join('; ');
  switch (error.status) {
    case 401:
      return auth === 'app'
        ? `GitHub rejected the GitHub App's credentials for ${repository}: check its app id and private key`
        : `GitHub rejected the token for ${repository}: it is invalid, expired or revoked`;
    case 403:
      if (isRateLimited(error)) return `GitHub's API rate limit for ${repository} is exhausted: ${said}`;
      return `${who} ${denied(access, repository, auth)}`;
    case 404:
      return access === 'read'
        ? `${who} cannot read ${repository}: ${auth === 'app' ? 'it may not be installed on it' : 'it has no access to it'}, or the repository or commit does not exist`
        : `${who} ${denied(access, repository, auth)} (GitHub answered 404)`;
    case 422:
      return `GitHub refused the request on ${repository}: ${said}`;
    default:
      return `GitHub failed to answer for ${repository} (HTTP ${error.status}): ${said}`;
  }
}

function denied(access: GitHubAccess, repository: string, auth: GitHubAuthKind): string {
  const grant =
    auth === 'app' ? 'grant the app that permission' : 'give the token that permission on the repository';
  if (access === 'read') return `cannot read ${repository}: it lacks the Contents read permission; ${grant}`;
  if (access === 'push') return `lacks permission to push to ${repository} (Contents: write); ${grant}`;
  return `lacks permission to open pull requests on ${repository} (Pull requests: write); ${grant}`;
}

function isRateLimited(error: GitHubRequestError): boolean {
  return (
    error.response?.headers?.['x-ratelimit-remaining'] === '0' ||
    messagesOf(error).some((message) => /rate limit/i.test(message))
  );
}
