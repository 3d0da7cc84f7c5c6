import { findJobMarker } from './job-marker.js';
import type { GitHubApi, GitHubUser, Thread } from '../github-api/types.js';

/** The job a thread already has, and where its marker was found. */
export interface ThreadJob {
  jobId: string;
  /** The status comment holding the marker, or null when it came from the pull request body. */
  commentId: number | null;
  /** That comment's current body, so an unchanged status is not written again. */
  commentBody: string | null;
}

/** Whether a marker written by `author` can be believed. */
export type TrustAuthor = (author: GitHubUser) => boolean | Promise<boolean>;

/** The pull request a thread is on: its body may carry the marker of the job that opened it. */
export interface PullRequestBody {
  body: string | null;
  author: GitHubUser;
}

const PAGE_SIZE = 100;

/**
 * Finds the job of a thread: the marker in its latest trusted status comment, else the marker in the
 * body of the pull request the thread is on (a pull request the job opened). A marker only counts
 * when its author is trusted: otherwise anyone could point a later command at another job, and the
 * status comment we then edit would be theirs.
 */
export async function findThreadJob(
  octokit: GitHubApi,
  thread: Thread,
  options: { trust: TrustAuthor; pullRequest?: PullRequestBody | null },
): Promise<ThreadJob | null> {
  const fromComments = await findInComments(octokit, thread, options.trust);
  if (fromComments) return fromComments;
  const pullRequest = options.pullRequest;
  if (!thread.isPullRequest || !pullRequest) return null;
  const jobId = findJobMarker(pullRequest.body);
  if (jobId && (await options.trust(pullRequest.author)))
    return { jobId, commentId: null, commentBody: null };
  return null;
}

async function findInComments(
  octokit: GitHubApi,
  thread: Thread,
  trust: TrustAuthor,
): Promise<ThreadJob | null> {
  const marked: ThreadJob[] = [];
  const authors = new Map<number, GitHubUser>();
  // Pages come oldest first; a long thread is read to the end so the newest job wins.
  for (let page = 1; ; page += 1) {
    const { data } = await octokit.rest.issues.listComments({
      owner: thread.owner,
      repo: thread.repo,
      issue_number: thread.number,
      per_page: PAGE_SIZE,
      page,
    });
    for (const comment of data) {
      const jobId = findJobMarker(comment.body);
      if (!jobId || !comment.user) continue;
      marked.push({ jobId, commentId: comment.id, commentBody: comment.body ?? null });
      authors.set(comment.id, { login: comment.user.login, type: comment.user.type });
    }
    if (data.length < PAGE_SIZE) break;
  }
  for (const candidate of marked.reverse()) {
    const author = authors.get(candidate.commentId ?? -1);
    if (author && (await trust(author))) return candidate;
  }
  return null;
}
