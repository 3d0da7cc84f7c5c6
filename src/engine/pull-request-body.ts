import { renderPullRequestBody } from '../github/pull-request-body.js';
import type { JobRow, Store } from '../store/index.js';

/**
 * The description of a job's pull request, from what the store knows of the job: its requests and
 * the threads they were asked in (the pull request's own conversation is where the reader already
 * is, so it is not linked).
 */
export function pullRequestBodyFromStore(
  store: Store,
  /** The web root of the GitHub the threads are on (`config.github.hosts.webUrl`): links to them. */
  webUrl: string,
): (job: JobRow, reply: string) => Promise<string> {
  return async (job, reply) => {
    const [threads, messages] = await Promise.all([
      store.githubThreads.ofJob(job.id),
      store.jobs.messages(job.id),
    ]);
    return renderPullRequestBody({
      jobId: job.id,
      reply,
      requests: messages.filter((message) => message.role === 'user').map((message) => message.content),
      threads: threads
        .filter((thread) => thread.pr_number !== thread.issue_number)
        .map((thread) => ({
          repository: thread.repository,
          number: thread.issue_number,
          isPullRequest: thread.is_pull_request === 1,
        })),
      webUrl,
    });
  };
}
