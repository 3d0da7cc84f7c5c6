import type { GitHubApi, Thread } from '../github-api/types.js';

/**
 * The one status comment of a job in a thread. It is created on the first `show` (or adopted when a
 * follow-up found it through its marker) and edited only when the text changes, so watchers get no
 * notification noise from polling.
 */
export class StatusCommentWriter {
  private commentId: number | null;
  private body: string | null;

  constructor(
    private readonly octokit: GitHubApi,
    private readonly thread: Thread,
    existing: { commentId: number; body: string | null } | null = null,
  ) {
    this.commentId = existing?.commentId ?? null;
    this.body = existing?.body ?? null;
  }

  /** The comment's id once it exists. */
  get id(): number | null {
    return this.commentId;
  }

  /** Shows `body` in the comment: creates it, edits it, or does nothing when it already says that. */
  async show(body: string): Promise<void> {
    if (body === this.body) return;
    const { owner, repo } = this.thread;
    if (this.commentId === null) {
      const { data } = await this.octokit.rest.issues.createComment({
        owner,
        repo,
        issue_number: this.thread.number,
        body,
      });
      this.commentId = data.id;
    } else {
      await this.octokit.rest.issues.updateComment({ owner, repo, comment_id: this.commentId, body });
    }
    this.body = body;
  }
}
