import { DocwrightError } from '../core/errors.js';
import { redactSecrets } from '../core/redact.js';
import {
  classifyRequestError,
  gitHubFailure,
  type ClassifiedRequestError,
  type RequestErrorKind,
} from './request-error.js';

/** Who the requests are made as: the sentences differ (install the app vs. give the token access). */
export type GitHubAuthKind = 'app' | 'token';

/** What the failed request was for, so the sentence names the missing permission. */
export type GitHubAccess = 'read' | 'push' | 'pull-request';

export interface GitHubErrorContext {
  repository: string;
  access: GitHubAccess;
  auth: GitHubAuthKind;
}

/**
 * Turns a GitHub failure into an error with a sentence a person can act on; whether a later
 * attempt may work is the classifier's answer. Errors that are not HTTP responses pass through.
 */
export function toForgeError(error: unknown, context: GitHubErrorContext): unknown {
  if (DocwrightError.isInstance(error)) return error;
  const classified = classifyRequestError(error);
  if (!classified) return error;
  return gitHubFailure(redactSecrets(sentenceFor(classified, context)), classified);
}

function sentenceFor(
  error: ClassifiedRequestError,
  { repository, access, auth }: GitHubErrorContext,
): string {
  const who = auth === 'app' ? 'The GitHub App' : 'The token';
  const said = error.messages.join('; ');
  const sentences: Record<RequestErrorKind, () => string> = {
    credentials: () =>
      auth === 'app'
        ? `GitHub rejected the GitHub App's credentials for ${repository}: check its app id and private key`
        : `GitHub rejected the token for ${repository}: it is invalid, expired or revoked`,
    'rate-limited': () => `GitHub's API rate limit for ${repository} is exhausted: ${said}`,
    // GitHub's own words matter here: a workflow token with every permission is still refused
    // pull requests while the repository does not allow GitHub Actions to open them, and says so.
    forbidden: () => `${who} ${denied(access, repository, auth)}${said ? ` (GitHub said: ${said})` : ''}`,
    'not-found': () =>
      access === 'read'
        ? `${who} cannot read ${repository}: ${auth === 'app' ? 'it may not be installed on it' : 'it has no access to it'}, or the repository or commit does not exist`
        : `${who} ${denied(access, repository, auth)} (GitHub answered 404)`,
    refused: () =>
      error.status === 422
        ? `GitHub refused the request on ${repository}: ${said}`
        : `GitHub failed to answer for ${repository} (HTTP ${error.status}): ${said}`,
    unavailable: () => `GitHub failed to answer for ${repository} (HTTP ${error.status}): ${said}`,
  };
  return sentences[error.kind]();
}

function denied(access: GitHubAccess, repository: string, auth: GitHubAuthKind): string {
  const grant =
    auth === 'app' ? 'grant the app that permission' : 'give the token that permission on the repository';
  if (access === 'read') return `cannot read ${repository}: it lacks the Contents read permission; ${grant}`;
  if (access === 'push') return `lacks permission to push to ${repository} (Contents: write); ${grant}`;
  return `lacks permission to open pull requests on ${repository} (Pull requests: write); ${grant}`;
}
