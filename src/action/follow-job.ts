import { finishedJobView, type StatusView } from '../github/index.js';
import {
  listChangedFiles,
  parsePullRequestLink,
  type ChangedFiles,
} from '../github-api/pull-request-files.js';
import type { Job } from '../protocol/agent-job.js';
import type { ActionContext, JobRun } from './context.js';
import { describeError } from './describe-error.js';
import { pollJob, type PollEnd } from '../client/wait-for-job.js';
import type { StatusSink } from './status-sink.js';

/** Creates a job, or sends a follow-up message when `target` names one. */
export async function startJob(
  context: ActionContext,
  prompt: string,
  target: string | null,
): Promise<{ job: Job; created: boolean }> {
  const { client, inputs, log } = context;
  if (target) {
    const job = await client.sendMessage(inputs.projectId, target, prompt);
    log.info(`Sent a follow-up to job ${job.id}.`);
    return { job, created: false };
  }
  const job = await client.createJob(inputs.projectId, prompt, { budget: inputs.budget });
  log.info(`Created job ${job.id}.`);
  return { job, created: true };
}

/**
 * Shows the job as working, waits for it (unless `wait` is false) and finishes the status comment
 * with the outcome. Whatever goes wrong after the job started, the comment is finished with the
 * reason before the error goes on, so no thread is left saying "working".
 */
export async function followJob(
  context: ActionContext,
  started: { job: Job; created: boolean },
  status: StatusSink,
): Promise<JobRun> {
  const { inputs, log } = context;
  const { job, created } = started;
  const run = (last: Job, end: JobRun['end']): JobRun => ({
    job: last,
    created,
    end,
    commentId: status.commentId,
  });
  try {
    await status.show({ state: 'working', jobId: job.id, followUp: !created, waiting: inputs.wait });
    if (!inputs.wait) return run(job, 'not-waited');
    let seen = job.status;
    const { job: last, end } = await pollJob(context.client, inputs.projectId, job, {
      intervalMs: inputs.pollIntervalMs,
      timeoutMs: inputs.timeoutMs,
      signal: context.signal,
      ...context.poll,
      onPoll: (polled) => {
        if (polled.status !== seen) log.info(`Job ${polled.id} is ${polled.status}.`);
        seen = polled.status;
      },
      onTransientError: (error) =>
        log.warning(`Polling job ${job.id} failed; trying again. ${describeError(error, inputs)}`),
    });
    if (status.enabled) await status.show(await endView(context, last, end));
    return run(last, end);
  } catch (error) {
    await status.show({ state: 'failed', jobId: job.id, reason: describeError(error, inputs) });
    throw error;
  }
}

async function endView(context: ActionContext, job: Job, end: PollEnd): Promise<StatusView> {
  if (context.stopsWithStep && end === 'timed-out')
    return {
      state: 'failed',
      jobId: job.id,
      reason: `The job did not finish within the step's ${context.inputs.timeoutMs / 60_000} minutes (\`timeout-minutes\`), so it was stopped and nothing more was committed.`,
    };
  if (context.stopsWithStep && end === 'cancelled')
    return { state: 'failed', jobId: job.id, reason: 'The workflow run was cancelled, so the job stopped.' };
  if (end === 'timed-out')
    return { state: 'timed-out', jobId: job.id, minutes: context.inputs.timeoutMs / 60_000 };
  if (end === 'cancelled')
    return { state: 'stopped', jobId: job.id, reason: 'The workflow run was cancelled.' };
  return finishedJobView(job, await changedFiles(context, job));
}

/** The files of the job's pull request when it is on this GitHub and readable; the comment does without otherwise. */
async function changedFiles(context: ActionContext, job: Job): Promise<ChangedFiles | null> {
  const booked = await context.client.changedFiles?.(job.id);
  if (booked) return booked;
  const pullRequest = job.prLink ? parsePullRequestLink(job.prLink, context.serverUrl) : null;
  if (!pullRequest || !context.octokit) return null;
  try {
    return await listChangedFiles(context.octokit, pullRequest);
  } catch (error) {
    context.log.info(
      `Could not list the files of ${job.prLink}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return null;
  }
}
