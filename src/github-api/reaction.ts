import type { GitHubApi } from './types.js';

/** Where the triggering comment lives: the conversation or a review thread of a pull request. */
export type CommentKind = 'issue' | 'review';

/** Reacts 👀 to a command so its author sees it was picked up before any result exists. */
export async function acknowledgeComment(
  octokit: GitHubApi,
  repository: { owner: string; repo: string },
  comment: { id: number; kind: CommentKind },
): Promise<void> {
  // Only owner and repo: a Thread passed as the repository must not leak its other fields into the request.
  const { owner, repo } = repository;
  if (comment.kind === 'review') {
    await octokit.rest.reactions.createForPullRequestReviewComment({
      owner,
      repo,
      comment_id: comment.id,
      content: 'eyes',
    });
  } else {
    await octokit.rest.reactions.createForIssueComment({
      owner,
      repo,
      comment_id: comment.id,
      content: 'eyes',
    });
  }
}
