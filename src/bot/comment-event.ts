import type { Context } from 'probot';
import type { CommandNodes } from '../github/acknowledge.js';
import type { CommentKind } from '../github-api/reaction.js';
import type { GitHubUser, Thread } from '../github-api/types.js';
import type { PullRequestHead } from './job-pull-request.js';

/** The repository a webhook event is about, as the handlers use it. */
export interface EventRepository {
  owner: string;
  repo: string;
  fullName: string;
  defaultBranch: string;
}

/** A comment that may hold a command, from either event that carries one, in one shape. */
export interface CommandComment {
  deliveryId: string;
  repository: EventRepository;
  /** The app installation the event came through; null for a repository webhook (token mode). */
  installationId: number | null;
  thread: Thread;
  comment: {
    id: number;
    kind: CommentKind;
    body: string;
    author: GitHubUser;
    /** GitHub's `author_association`: OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, NONE… */
    association: string;
    /** The GitHub App that wrote the comment, if one did. */
    viaAppId: number | null;
  };
  /**
   * The pull request the thread is on, as the payload shows it: its page (`html_url`, a job's
   * `prLink`), its body (which may carry a job marker) and, for a review comment, its head.
   */
  pullRequest: ({ htmlUrl: string | null; body: string | null; author: GitHubUser } & PullRequestHead) | null;
  /** Where a review comment points: context for the agent. */
  location: { path: string; line: number | null } | null;
  /** GraphQL ids of the comment and of its issue or pull request: reaction and status in one request. */
  nodes: CommandNodes | null;
}

type IssueCommentContext = Context<'issue_comment.created'>;
type ReviewCommentContext = Context<'pull_request_review_comment.created'>;

const user = (value: { login: string; type?: string } | null | undefined): GitHubUser => ({
  login: value?.login ?? 'ghost',
  type: value?.type ?? 'User',
});

/** The repository of a webhook payload. */
export function repositoryOf(repository: {
  owner: { login: string };
  name: string;
  full_name: string;
  default_branch: string;
}): EventRepository {
  return {
    owner: repository.owner.login,
    repo: repository.name,
    fullName: repository.full_name,
    defaultBranch: repository.default_branch,
  };
}

/** `issue_comment.created`: a comment in an issue's or a pull request's conversation. */
export function fromIssueComment(context: IssueCommentContext): CommandComment {
  const { payload } = context;
  const repository = repositoryOf(payload.repository);
  const isPullRequest = Boolean(payload.issue.pull_request);
  return {
    deliveryId: context.id,
    repository,
    installationId: payload.installation?.id ?? null,
    thread: { owner: repository.owner, repo: repository.repo, number: payload.issue.number, isPullRequest },
    comment: {
      id: payload.comment.id,
      kind: 'issue',
      body: payload.comment.body,
      author: user(payload.comment.user),
      association: payload.comment.author_association,
      viaAppId: payload.comment.performed_via_github_app?.id ?? null,
    },
    // For a pull request, the issue payload's body is the pull request's description; the
    // payload does not show the head.
    pullRequest: isPullRequest
      ? {
          htmlUrl: payload.issue.pull_request?.html_url ?? null,
          body: payload.issue.body ?? null,
          author: user(payload.issue.user),
          headRef: null,
          headRepository: null,
        }
      : null,
    location: null,
    nodes: nodesOf(payload.comment.node_id, payload.issue.node_id),
  };
}

function nodesOf(comment: string | undefined, subject: string | undefined): CommandNodes | null {
  return comment && subject ? { commentNodeId: comment, subjectNodeId: subject } : null;
}

/** `pull_request_review_comment.created`: a comment on a line of a pull request's diff. */
export function fromReviewComment(context: ReviewCommentContext): CommandComment {
  const { payload } = context;
  const repository = repositoryOf(payload.repository);
  const pullRequest = payload.pull_request;
  return {
    deliveryId: context.id,
    repository,
    installationId: payload.installation?.id ?? null,
    thread: {
      owner: repository.owner,
      repo: repository.repo,
      number: pullRequest.number,
      isPullRequest: true,
    },
    comment: {
      id: payload.comment.id,
      kind: 'review',
      body: payload.comment.body,
      author: user(payload.comment.user),
      association: payload.comment.author_association,
      // The payload does not say; docwright never writes review comments, so none is its own.
      viaAppId: null,
    },
    pullRequest: {
      htmlUrl: pullRequest.html_url,
      body: pullRequest.body ?? null,
      author: user(pullRequest.user),
      headRef: pullRequest.head.ref,
      // null when the fork the pull request came from was deleted.
      headRepository: pullRequest.head.repo?.full_name ?? null,
    },
    location: {
      path: payload.comment.path,
      line: payload.comment.line ?? payload.comment.original_line ?? null,
    },
    nodes: nodesOf(payload.comment.node_id, pullRequest.node_id),
  };
}

/**
 * The cheap first look (a comment without the command costs no API call): does the
 * first line start with a slash? The configured command is only known after reading the settings.
 */
export function mayBeCommand(body: string): boolean {
  return body.trimStart().startsWith('/');
}
