import { ApiError, ApiTimeoutError, ApiUnreachableError } from '../client/index.js';
import { classifyRequestError, type ClassifiedRequestError } from '../github-api/request-error.js';
import { DocwrightError } from '../core/errors.js';
import { ActionError } from './action-error.js';

/** What the sentences may name: never the key itself. */
export interface ErrorContext {
  baseUrl: string;
  projectId: string;
}

/**
 * Turns any failure into the one sentence the step fails with (401/403/404/429 each
 * explained). The server's own message is kept, since it names the field or the job; secrets never
 * reach it (the server does not echo keys, and Octokit redacts its authorization header).
 */
export function describeError(error: unknown, context: ErrorContext): string {
  if (error instanceof ActionError) return error.message;
  if (error instanceof ApiError) return describeApiError(error, context);
  if (error instanceof ApiTimeoutError)
    return `The docwright server at ${context.baseUrl} did not answer in time (${error.message}), even after retries.`;
  if (error instanceof Error && error.name === 'ZodError')
    return `The server at ${context.baseUrl} answered with something that is not a docwright job; check that \`base-url\` points at a docwright server.`;
  const github = classifyRequestError(error);
  if (github) return describeGitHubError(github, error);
  if (error instanceof ApiUnreachableError)
    return `${error.message}. Check \`base-url\` and that the server is reachable from the runner.`;
  // Ours are written for people (a job run in the runner refuses a branch, say).
  if (DocwrightError.isInstance(error)) return error.message.replace(/([^.])$/, '$1.');
  return `Unexpected error: ${error instanceof Error ? error.message : String(error)}`;
}

function describeApiError(error: ApiError, { baseUrl, projectId }: ErrorContext): string {
  const said = `(the server said: ${error.message})`;
  switch (error.status) {
    case 400:
      return `The docwright server rejected the request as invalid ${said}.`;
    case 401:
      return `The docwright server did not accept the API key (401) ${said}. Check that the \`api-key\` secret holds an admin key (svc_…) issued by ${baseUrl}.`;
    case 403:
      return `The API key is not allowed to use project "${projectId}" (403) ${said}. Admin keys work only on the agent endpoints of their own project: check \`project-id\` and \`api-key\`.`;
    case 404:
      return `Not found (404) ${said}. Check \`project-id\`, \`job-id\` and that \`base-url\` points at a docwright server.`;
    case 409:
      return `The server refused the follow-up (409) ${said}. An archived job takes no more messages: start a new one.`;
    case 413:
      return `The instruction is too large for the server (413) ${said}.`;
    case 429:
      return `The server's rate limit for project "${projectId}" was reached (429) and retrying did not help ${said}${error.retryAfterSeconds ? `; it asked to wait ${error.retryAfterSeconds} seconds` : ''}. Jobs and follow-ups are limited per project per hour: try again later.`;
    default:
      return error.status >= 500
        ? `The docwright server failed (${error.status}) ${said}. Reads are retried; a create or follow-up is not (it may have been made), so check the job list before running the step again.`
        : `The docwright server refused the request (${error.status}) ${said}.`;
  }
}

function describeGitHubError(failure: ClassifiedRequestError, error: unknown): string {
  const request = failure.request ?? 'a GitHub request';
  const message = error instanceof Error ? error.message : failure.messages.join('; ');
  if (failure.kind === 'credentials' || failure.kind === 'forbidden')
    return `GitHub refused ${request} (${failure.status}: ${message}). Give the workflow \`permissions: issues: write, pull-requests: write\`, or pass a \`github-token\` that has them.`;
  return `GitHub answered ${request} with ${failure.status}: ${message}.`;
}
