import type { Usage } from '../core/usage.js';
import type { Job } from '../protocol/agent-job.js';
import type { ChangedFiles } from '../github-api/pull-request-files.js';
import type { StatusView } from './status-comment.js';

/**
 * The agent's reply to the latest prompt: its last message, when it came after the last prompt.
 * A follow-up that is still queued must not show the reply to the previous one.
 */
export function latestReply(job: Job): string | null {
  const messages = job.messages ?? [];
  const last = messages.at(-1);
  return last?.role === 'agent' ? last.content : null;
}

/** What the run that answered the latest prompt spent, when the server says. */
export function latestRunUsage(job: Job): Usage | null {
  const last = (job.messages ?? []).at(-1);
  return last?.role === 'agent' ? (last.usage ?? null) : null;
}

/**
 * The status comment state of a job the server reports as finished: completed with or without a
 * pull request, failed with its reason, or archived.
 */
export function finishedJobView(job: Job, files: ChangedFiles | null = null): StatusView {
  const view = finishedState(job, files);
  const usage = latestRunUsage(job);
  return usage && view.state !== 'working' && view.state !== 'archived' ? { ...view, usage } : view;
}

function finishedState(job: Job, files: ChangedFiles | null): StatusView {
  switch (job.status) {
    case 'completed':
      if (job.prLink)
        return { state: 'pr-opened', jobId: job.id, prLink: job.prLink, files, summary: latestReply(job) };
      // A repository without code review (a local one) gets the commit but no pull request.
      if (job.changed === true)
        return { state: 'committed', jobId: job.id, branch: job.source.ref, summary: latestReply(job) };
      return { state: 'no-changes', jobId: job.id, reply: latestReply(job) };
    case 'failed':
      return {
        state: 'failed',
        jobId: job.id,
        reason: job.error?.trim() || 'The server reported the job as failed without a reason.',
      };
    case 'archived':
      return { state: 'archived', jobId: job.id, prLink: job.prLink };
    case 'active':
      return { state: 'working', jobId: job.id, followUp: false, waiting: true };
  }
}
