import {
  findThreadJob,
  isBot,
  isSyncInstruction,
  StatusCommentWriter,
  syncOutsidePullRequestReply,
  trustBotsAndPermitted,
  type ThreadJob,
} from '../github/index.js';
import { acknowledgeComment } from '../github-api/reaction.js';
import { getPermissionLevel, hasPermission } from '../github-api/permission.js';
import { type GitHubApi } from '../github-api/types.js';
import { DocwrightError } from '../core/errors.js';
import { readPullRequestChange } from '../github-api/pull-request-change.js';
import { formatSyncPrompt } from '../impact/sync-request.js';
// The state table alone: the comment path does not load the store's database drivers.
import { acceptsMessage } from '../store/job-states.js';
import { ActionError } from './action-error.js';
import type { ActionContext, ActionResult } from './context.js';
import { describeError } from './describe-error.js';
import type { CommentEvent } from './event.js';
import { followJob, startJob } from './follow-job.js';
import { StatusSink } from './status-sink.js';

/**
 * A `/docs …` comment: checks the commenter's permission, reacts 👀, continues the thread's job or
 * creates one, and keeps one status comment for it in the thread. `/docs sync` in a pull request's
 * conversation sends the pull request itself (title, description, diff) as the job's request.
 */
export async function handleComment(
  context: ActionContext,
  event: CommentEvent,
  instruction: string,
): Promise<ActionResult> {
  const { inputs, log } = context;
  const octokit = context.octokit;
  if (!octokit)
    throw new ActionError(
      'The `github-token` input is empty; comment events need it to read and answer the thread.',
    );
  const denied = await permissionDenied(octokit, event, inputs.permission);
  if (denied) {
    log.notice(denied);
    return { kind: 'ignored', reason: denied };
  }
  const sync = isSyncInstruction(instruction);
  if (sync && !event.thread.isPullRequest) {
    // As the App answers it: a sync follows a code change, and an issue has none.
    const reply = syncOutsidePullRequestReply(event.comment.author?.login ?? 'there', inputs.command);
    if (inputs.comment) {
      const { owner, repo, number } = event.thread;
      await octokit.rest.issues.createComment({ owner, repo, issue_number: number, body: reply });
    }
    log.notice(reply);
    return { kind: 'ignored', reason: reply };
  }
  await acknowledgeComment(octokit, event.thread, event.comment).catch((error: unknown) =>
    log.warning(`Could not react to the comment. ${describeError(error, inputs)}`),
  );
  let found;
  let target;
  let started;
  try {
    // Finding the thread's job asks the server too (a refused key shows here first): any refusal
    // up to the start of the job gets its status comment below.
    found = await threadJob(context, octokit, event);
    target = found ? await followUpTarget(context, found.jobId) : null;
    // A comment's payload has no diff: the pull request is read as GitHub has it now.
    const prompt = sync ? formatSyncPrompt(await readPullRequestChange(octokit, event.thread)) : instruction;
    started = await startJob(context, prompt, target);
  } catch (error) {
    // The request never became (part of) a job: say why in a comment of its own, leaving the
    // thread's earlier status comment and its result as they were.
    const fresh = new StatusSink(
      context,
      inputs.comment ? new StatusCommentWriter(octokit, event.thread) : null,
    );
    await fresh.show({ state: 'failed', jobId: null, reason: describeError(error, inputs) });
    throw error;
  }
  const adopt = target && found?.commentId ? { commentId: found.commentId, body: found.commentBody } : null;
  const writer = inputs.comment ? new StatusCommentWriter(octokit, event.thread, adopt) : null;
  return { kind: 'job', run: await followJob(context, started, new StatusSink(context, writer)) };
}

/** Why the commenter may not trigger work, or null when they may. Allowed bots are not collaborators, so they skip the check. */
async function permissionDenied(
  octokit: GitHubApi,
  event: CommentEvent,
  minimum: ActionContext['inputs']['permission'],
): Promise<string | null> {
  const author = event.comment.author;
  if (!author) return 'The comment has no author.';
  if (isBot(author)) return null;
  // The repository's owner is known from the payload, as the App knows it: no lookup.
  const level =
    event.comment.association === 'OWNER'
      ? 'admin'
      : await getPermissionLevel(octokit, event.thread, author.login);
  if (hasPermission(level, minimum)) return null;
  return `${author.login} has ${level} permission on ${event.thread.owner}/${event.thread.repo}; running docwright needs ${minimum}. The comment is ignored.`;
}

async function threadJob(
  context: ActionContext,
  octokit: GitHubApi,
  event: CommentEvent,
): Promise<ThreadJob | null> {
  if (context.inputs.jobId) return { jobId: context.inputs.jobId, commentId: null, commentBody: null };
  return findThreadJob(octokit, event.thread, {
    trust: trustBotsAndPermitted(octokit, event.thread, context.inputs.permission),
    pullRequest: event.pullRequest,
  });
}

/**
 * The job a follow-up goes to: the thread's job unless the server no longer has it in this project
 * or it was archived (its pull request closed or merged), in which case the command starts anew.
 */
async function followUpTarget(context: ActionContext, jobId: string): Promise<string | null> {
  const { client, inputs, log } = context;
  try {
    const job = await client.getJob(inputs.projectId, jobId);
    if (acceptsMessage(job.status)) return job.id;
    log.info(`Job ${jobId} of this thread is archived; starting a new job.`);
  } catch (error) {
    if (!(DocwrightError.isInstance(error) && error.code === 'not_found')) throw error;
    log.info(`Job ${jobId} of this thread is not in project ${inputs.projectId}; starting a new job.`);
  }
  return null;
}
