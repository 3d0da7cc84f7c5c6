import { z } from 'zod';
import type { PullRequestBody } from '../github/index.js';
import type { CommentKind } from '../github-api/reaction.js';
import type { GitHubUser, Thread } from '../github-api/types.js';
import { ActionError } from './action-error.js';

/** A comment that may hold a command, with the thread it was made in. */
export interface CommentEvent {
  kind: 'comment';
  eventName: string;
  /** `created`, `edited` or `deleted`. */
  action: string;
  comment: {
    id: number;
    kind: CommentKind;
    body: string;
    author: GitHubUser | null;
    /** GitHub's `author_association` (OWNER, MEMBER, …); null when the payload has none. */
    association: string | null;
  };
  thread: Thread;
  /** The pull request the comment is on, when it is on one: its body may carry a job marker. */
  pullRequest: PullRequestBody | null;
}

/** Any other event (`workflow_dispatch`, `schedule`, `push`, …): the `prompt` input says what to do. */
interface PromptEvent {
  kind: 'prompt';
  eventName: string;
}

/**
 * A pull request opened, pushed to, reopened or marked ready (`pull_request`, or
 * `pull_request_target`, which runs with the base repository's token): the docs check's event.
 */
export interface PullRequestEvent {
  kind: 'pull_request';
  eventName: string;
  /** `opened`, `synchronize`, `reopened`, `ready_for_review`, or another the check leaves alone. */
  action: string;
  pullRequest: {
    /** The base repository: where the pull request and its check run live. */
    owner: string;
    repo: string;
    number: number;
    /** The commit the check run belongs to. */
    headSha: string;
    /** The branch it merges into, which the page links point at. */
    baseRef: string;
  };
}

export type ActionEvent = CommentEvent | PullRequestEvent | PromptEvent;

/** The events whose payload is a pull request of this repository. */
const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target']);

// Only the fields the Action reads; GitHub's payloads carry many more (webhook payload schemas).
const User = z.object({ login: z.string(), type: z.string() });
const Comment = z.object({
  id: z.number(),
  body: z.string().nullable(),
  user: User.nullable(),
  author_association: z.string().optional(),
});
const Repository = z.object({ name: z.string(), owner: z.object({ login: z.string() }) });
const IssueCommentPayload = z.object({
  action: z.string(),
  comment: Comment,
  issue: z.object({
    number: z.number(),
    body: z.string().nullable().optional(),
    user: User,
    pull_request: z.object({}).nullable().optional(),
  }),
  repository: Repository,
});
const PullRequestPayload = z.object({
  action: z.string(),
  number: z.number(),
  pull_request: z.object({ head: z.object({ sha: z.string() }), base: z.object({ ref: z.string() }) }),
  repository: Repository,
});
const ReviewCommentPayload = z.object({
  action: z.string(),
  comment: Comment,
  pull_request: z.object({ number: z.number(), body: z.string().nullable(), user: User }),
  repository: Repository,
});

/** Reads the event that started the workflow from its name and payload (`GITHUB_EVENT_PATH`). */
export function parseEvent(eventName: string, payload: unknown): ActionEvent {
  if (eventName === 'issue_comment') {
    const event = parse(IssueCommentPayload, payload, eventName);
    const isPullRequest = event.issue.pull_request != null;
    return commentEvent(eventName, event, 'issue', {
      number: event.issue.number,
      isPullRequest,
      pullRequest: isPullRequest ? { body: event.issue.body ?? null, author: event.issue.user } : null,
    });
  }
  if (eventName === 'pull_request_review_comment') {
    const event = parse(ReviewCommentPayload, payload, eventName);
    return commentEvent(eventName, event, 'review', {
      number: event.pull_request.number,
      isPullRequest: true,
      pullRequest: { body: event.pull_request.body, author: event.pull_request.user },
    });
  }
  if (PULL_REQUEST_EVENTS.has(eventName)) {
    const event = parse(PullRequestPayload, payload, eventName);
    return {
      kind: 'pull_request',
      eventName,
      action: event.action,
      pullRequest: {
        owner: event.repository.owner.login,
        repo: event.repository.name,
        number: event.number,
        headSha: event.pull_request.head.sha,
        baseRef: event.pull_request.base.ref,
      },
    };
  }
  return { kind: 'prompt', eventName };
}

function commentEvent(
  eventName: string,
  event: z.infer<typeof IssueCommentPayload> | z.infer<typeof ReviewCommentPayload>,
  kind: CommentKind,
  target: { number: number; isPullRequest: boolean; pullRequest: PullRequestBody | null },
): CommentEvent {
  return {
    kind: 'comment',
    eventName,
    action: event.action,
    comment: {
      id: event.comment.id,
      kind,
      body: event.comment.body ?? '',
      author: event.comment.user,
      association: event.comment.author_association ?? null,
    },
    thread: {
      owner: event.repository.owner.login,
      repo: event.repository.name,
      number: target.number,
      isPullRequest: target.isPullRequest,
    },
    pullRequest: target.pullRequest,
  };
}

function parse<T extends z.ZodType>(schema: T, payload: unknown, eventName: string): z.infer<T> {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const field = result.error.issues[0]?.path.join('.') || 'the payload';
  throw new ActionError(
    `The ${eventName} event payload is not what GitHub sends: ${field} is missing or wrong.`,
  );
}
