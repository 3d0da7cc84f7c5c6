import { findJobMarker } from '../github/index.js';
import type { BranchHead } from '../github-api/repository-start.js';
import { acceptsMessage, type JobRow, type ProjectRow } from '../store/index.js';
import { headIsJobBranch, type PullRequestHead } from './job-pull-request.js';
import type { BotDependencies } from './types.js';

/** The fields of `pull_request.closed` the archive needs. */
export interface ClosedPullRequest extends PullRequestHead {
  repository: string;
  number: number;
  /** The pull request's page (`html_url`): a job's `prLink`. */
  htmlUrl: string;
  headRef: string;
  body: string | null;
  merged: boolean;
}

/**
 * A job's pull request was closed or merged: the job is archived (`archivedAt` set). The
 * job is the one whose PR this is (the job_threads table or the job's `prLink`), or the one the
 * hidden marker in the body names, if the head is that job's branch in this repository (not a
 * fork's branch of the same name); someone else's pull request is left alone.
 */
export async function archiveClosedPullRequestJob(
  deps: BotDependencies,
  pullRequest: ClosedPullRequest,
): Promise<JobRow | null> {
  const project = await deps.store.projects.findOnGitHub(deps.host, pullRequest.repository);
  if (!project) return null;
  const job = await jobOfPullRequest(deps, project, pullRequest);
  // A job that takes no message any more is archived already.
  if (!job || !acceptsMessage(job.status)) return null;
  await deps.jobs.archive(project.id, job.id);
  deps.logger.info(
    { job: job.id, project: project.id, pullRequest: pullRequest.number, merged: pullRequest.merged },
    'job archived: its pull request was closed',
  );
  return job;
}

async function jobOfPullRequest(
  deps: BotDependencies,
  project: ProjectRow,
  pullRequest: ClosedPullRequest,
): Promise<JobRow | undefined> {
  const thread = await deps.store.githubThreads.find({
    repository: pullRequest.repository,
    issueNumber: pullRequest.number,
  });
  if (thread?.pr_number === pullRequest.number) {
    const job = await deps.store.jobs.get(project.id, thread.job_id);
    if (job?.branch === pullRequest.headRef) return job;
  }
  // Jobs created through the API have no thread: the job recorded its pull request's link…
  const linked = await deps.store.jobs.withPullRequest(project.id, pullRequest.htmlUrl);
  if (linked?.branch === pullRequest.headRef) return linked;
  // …once its run finished; until then the body carries the marker. Anyone can copy a marker and
  // name a fork's branch like the job's, so only the job's branch in this repository counts.
  const jobId = findJobMarker(pullRequest.body);
  if (!jobId) return undefined;
  const job = await deps.store.jobs.get(project.id, jobId);
  return job && headIsJobBranch(pullRequest.repository, pullRequest, job) ? job : undefined;
}

/**
 * A push: the branch's head is what the push says; to a project's base branch, the assistant's
 * index of it is stale; to the default branch (where `.github/docwright.yml` is read from), so
 * are the remembered settings.
 */
export async function handlePush(
  deps: BotDependencies,
  push: { repository: string; ref: string; defaultBranch: string; head: BranchHead | null },
): Promise<void> {
  const branch = push.ref.startsWith('refs/heads/') ? push.ref.slice('refs/heads/'.length) : null;
  if (branch === null) return;
  // The forge takes the branch's new head from the push instead of asking for it on the next run.
  deps.heads.sawHead(push.repository, branch, push.head);
  if (branch === push.defaultBranch) deps.settings.invalidate(push.repository);
  const project = await deps.store.projects.findOnGitHub(deps.host, push.repository);
  if (project && !project.disabled_at && project.base_ref === branch) {
    deps.indexes.invalidate(project.id);
    deps.logger.debug({ project: project.id, branch }, 'base branch moved: docs index will be rebuilt');
  }
}
