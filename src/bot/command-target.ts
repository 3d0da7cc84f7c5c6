import { findJobMarker, isBot } from '../github/index.js';
import { acceptsMessage, type JobRow, type ProjectRow } from '../store/index.js';
import type { CommandComment } from './comment-event.js';
import { headIsJobBranch, isFromFork } from './job-pull-request.js';
import type { BotDependencies } from './types.js';

/** What a command in a thread leads to. */
export type CommandTarget =
  | { kind: 'create' }
  | { kind: 'follow-up'; job: JobRow }
  /** A command on the pull request of a job that was archived (the PR was closed or merged). */
  | { kind: 'closed'; job: JobRow };

/**
 * The job a command continues: the job already talking in this thread (the job_threads
 * table), or, on a pull request a job opened, that job: found by its recorded `prLink`, else by the
 * hidden marker in the body. A marker counts only on a pull request from the repository itself,
 * written by a bot or with the job's own branch as its head, so a body someone else wrote (say, on
 * a fork with a branch named like the job's) cannot steer a command to another job.
 */
export async function commandTarget(
  deps: BotDependencies,
  project: ProjectRow,
  comment: CommandComment,
): Promise<CommandTarget> {
  const { thread } = comment;
  const known = await deps.store.githubThreads.find({
    repository: comment.repository.fullName,
    issueNumber: thread.number,
  });
  const onItsPullRequest = known?.pr_number === thread.number;
  let job = known ? await deps.store.jobs.get(project.id, known.job_id) : undefined;
  let isJobPullRequest = onItsPullRequest;
  if (!job && comment.pullRequest) {
    job = await jobOfPullRequest(deps, project, comment.repository.fullName, comment.pullRequest);
    isJobPullRequest = job !== undefined;
  }
  if (!job) return { kind: 'create' };
  if (acceptsMessage(job.status)) return { kind: 'follow-up', job };
  // An archived job's issue thread can start a new job; its closed pull request cannot be continued.
  return isJobPullRequest ? { kind: 'closed', job } : { kind: 'create' };
}

async function jobOfPullRequest(
  deps: BotDependencies,
  project: ProjectRow,
  repository: string,
  pullRequest: NonNullable<CommandComment['pullRequest']>,
): Promise<JobRow | undefined> {
  // A job created through the API, the CLI or the Action has no thread, and in token mode its
  // pull request's author is the token's user, not a bot; but the job recorded the link of the
  // pull request it opened, which an issue comment's payload shows: no request needed.
  if (pullRequest.htmlUrl) {
    const job = await deps.store.jobs.withPullRequest(project.id, pullRequest.htmlUrl);
    if (job) return job;
  }
  // Before the link is recorded (the run that opened the pull request is still going), the marker.
  if (isFromFork(repository, pullRequest)) return undefined;
  const jobId = findJobMarker(pullRequest.body);
  if (!jobId) return undefined;
  const job = await deps.store.jobs.get(project.id, jobId);
  if (!job) return undefined;
  const trusted = isBot(pullRequest.author) || headIsJobBranch(repository, pullRequest, job);
  return trusted ? job : undefined;
}
