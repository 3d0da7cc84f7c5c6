import { DocwrightError } from '../../core/errors.js';
import { hasStatus, isRefusal } from '../../github-api/request-error.js';
import type { GitHubClient } from '../../github-api/types.js';
import type { RepositoryName } from '../../github-api/repository-name.js';

/** What docwright needs to know about a pull request. */
export interface PullRequestSummary {
  number: number;
  /** The page people open (`html_url`), the job's `prLink`. */
  url: string;
  title: string;
  body: string;
  state: 'open' | 'closed';
  merged: boolean;
  /** The branch the pull request merges from. */
  head: string;
}

export interface FindPullRequestOptions {
  /** Default `open`: the pull request a new commit would land in. */
  state?: 'open' | 'closed' | 'all';
}

/**
 * The most recent pull request whose head is `branch` of the repository itself (not a fork):
 * `GET /repos/{owner}/{repo}/pulls?head=owner:branch`, one request. Null when there is none.
 */
export async function findPullRequestByHead(
  client: GitHubClient,
  name: RepositoryName,
  branch: string,
  options: FindPullRequestOptions = {},
): Promise<PullRequestSummary | null> {
  const { data } = await client.rest.pulls.list({
    ...name,
    head: `${name.owner}:${branch}`,
    state: options.state ?? 'open',
    sort: 'created',
    direction: 'desc',
    per_page: 1,
  });
  const found = data[0];
  if (found === undefined) return null;
  return {
    number: found.number,
    url: found.html_url,
    title: found.title,
    body: found.body ?? '',
    state: found.state === 'closed' ? 'closed' : 'open',
    merged: found.merged_at !== null,
    head: found.head.ref,
  };
}

export interface EnsurePullRequestInput {
  base: string;
  head: string;
  title: string;
  body: string;
  /** The number of the pull request the head already has, when the caller knows it. */
  knownNumber?: number | null;
}

/**
 * Opens the pull request of `head`, or, when GitHub answers "A pull request already exists" (a
 * follow-up run, or a retry after a crash between the commit and this call), finds that one and
 * brings its title and body up to date. Creating first costs one request in the common case.
 */
export async function ensurePullRequest(
  client: GitHubClient,
  name: RepositoryName,
  input: EnsurePullRequestInput,
): Promise<PullRequestSummary> {
  const { knownNumber, ...request } = input;
  if (knownNumber) {
    const updated = await updateKnown(client, name, knownNumber, request);
    if (updated) return updated;
  }
  try {
    const { data } = await client.rest.pulls.create({ ...name, ...request });
    return openSummary(data);
  } catch (error) {
    if (!isRefusal(error, 'A pull request already exists')) throw error;
  }
  const existing = await findPullRequestByHead(client, name, request.head);
  if (existing === null) {
    // It was closed between the two requests: reopening is a person's decision, not ours.
    throw new DocwrightError(
      'conflict',
      `GitHub reported an open pull request for ${request.head}, but none is open any more`,
    );
  }
  if (existing.title === request.title && existing.body === request.body) return existing;
  await update(client, name, existing.number, request);
  return { ...existing, title: request.title, body: request.body };
}

/**
 * The pull request the caller knows, brought up to date in one request; null when it is gone,
 * closed or not this head's any more (then it is looked for or opened as if unknown).
 */
async function updateKnown(
  client: GitHubClient,
  name: RepositoryName,
  number: number,
  request: Omit<EnsurePullRequestInput, 'knownNumber'>,
): Promise<PullRequestSummary | null> {
  try {
    const data = await update(client, name, number, request);
    if (data.state !== 'open' || data.head.ref !== request.head) return null;
    return openSummary(data);
  } catch (error) {
    if (hasStatus(error, 404, 422)) return null;
    throw error;
  }
}

/** A pull request GitHub just answered with as open (created, or updated while open). */
function openSummary(data: {
  number: number;
  html_url: string;
  title: string;
  body: string | null;
  head: { ref: string };
}): PullRequestSummary {
  return {
    number: data.number,
    url: data.html_url,
    title: data.title,
    body: data.body ?? '',
    state: 'open',
    merged: false,
    head: data.head.ref,
  };
}

async function update(
  client: GitHubClient,
  name: RepositoryName,
  number: number,
  request: Omit<EnsurePullRequestInput, 'knownNumber'>,
) {
  const { data } = await client.rest.pulls.update({
    ...name,
    pull_number: number,
    title: request.title,
    body: request.body,
  });
  return data;
}
