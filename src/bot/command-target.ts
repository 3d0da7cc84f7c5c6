import { findJobMarker, isBot } from '../github/index.js';
import type { JobRow, ProjectRow } from '../store/index.js';
import type { CommandComment } from './comment-event.js';
import type { BotDependencies } from './types.js';

/** What a command in a thread leads to. */
export type CommandTarget =
  | { kind: 'create' }
  | { kind: 'follow-up'; job: JobRow }
  /** A command on the pull request of a job that was archived (the PR was closed or merged). */
  | { kind: 'closed'; job: JobRow };

/**
 * The job a command continues (issue 4): the job already talking in this thread (the job_threads
 * table), or, on a pull request docwright opened, the job named by the hidden marker in its body.
 * A marker counts only when a bot wrote the body or the head branch is the job's own, so a body
 * someone else wrote cannot steer a command to another job.
 */
export async function commandTarget(
  deps: BotDependencies,
  project: ProjectRow,
  comment: CommandComment,
): Promise<CommandTarget> {
  const { thread } = comment;
  const known = await deps.store.bot.jobOfThread({
    repository: comment.repository.fullName,
    issueNumber: thread.number,
  });
  const onItsPullRequest = known?.pr_number === thread.number;
  let job = known ? await deps.store.jobs.get(project.id, known.job_id) : undefined;
  let isJobPullRequest = onItsPullRequest;
  if (!job && comment.pullRequest) {
    job = await markedJob(deps, project, comment.pullRequest);
    isJobPullRequest = job !== undefined;
  }
  if (!job) return { kind: 'create' };
  if (job.status !== 'archived') return { kind: 'follow-up', job };
  // An archived job's issue thread can start a new job; its closed pull request cannot be continued.
  return isJobPullRequest ? { kind: 'closed', job } : { kind: 'create' };
}

async function markedJob(
  deps: BotDependencies,
  project: ProjectRow,
  pullRequest: NonNullable<CommandComment['pullRequest']>,
): Promise<JobRow | undefined> {
  const jobId = findJobMarker(pullRequest.body);
  if (!jobId) return undefined;
  const job = await deps.store.jobs.get(project.id, jobId);
  if (!job) return undefined;
  const trusted = isBot(pullRequest.author) || pullRequest.headRef === job.branch;
  return trusted ? job : undefined;
}
