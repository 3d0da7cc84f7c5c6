import { describeUsage } from '../core/usage.js';
import { latestRunUsage } from '../github/job-status-view.js';
import type { ActionResult, JobRun } from './context.js';
import type { Inputs } from './inputs.js';

/** The Action's outputs (action.yml); none when the event was ignored. */
export function outputsOf(result: ActionResult): Record<string, string> {
  if (result.kind === 'ignored') return {};
  const { job, created, commentId } = result.run;
  return {
    'job-id': job.id,
    status: job.status,
    'pr-link': job.prLink ?? '',
    created: String(created),
    changed: changedOutput(job),
    'comment-id': commentId === null ? '' : String(commentId),
    usage: usageOutput(job),
  };
}

/**
 * What the run answering this request spent, as JSON (tokens, model and tool calls, wall time,
 * cost when priced); empty while that run has not ended or the server does not say.
 */
function usageOutput(job: JobRun['job']): string {
  if (job.status === 'active') return '';
  const usage = latestRunUsage(job);
  return usage ? JSON.stringify(usage) : '';
}

/**
 * `true` when the run answering the latest request committed a change, `false` when the job ended
 * without one (nothing to do, or failed), empty while that is not known (not waited for, still
 * running, or a server that does not say).
 */
function changedOutput(job: JobRun['job']): string {
  if (job.status === 'failed') return 'false';
  if (job.status !== 'completed' || job.changed === null || job.changed === undefined) return '';
  return String(job.changed);
}

/** The sentence the step fails with, or null when the run succeeded. */
export function failureOf(run: JobRun, inputs: Pick<Inputs, 'timeoutMs' | 'mode'>): string | null {
  const { job, end } = run;
  if (end === 'timed-out' && inputs.mode === 'runner')
    return `Job ${job.id} did not finish within ${inputs.timeoutMs / 60_000} minutes, so it was stopped and nothing more was committed. Raise \`timeout-minutes\` or ask for less at once.`;
  if (end === 'timed-out')
    return `Job ${job.id} did not finish within ${inputs.timeoutMs / 60_000} minutes; it is still ${job.status} on the server. Raise \`timeout-minutes\` or follow up later.`;
  if (end === 'cancelled') return `The workflow was cancelled while job ${job.id} was still ${job.status}.`;
  if (job.status === 'failed')
    return `Job ${job.id} failed: ${job.error?.trim() || 'the server gave no reason'}`.replace(
      /([^.])$/,
      '$1.',
    );
  return null;
}

/**
 * The warning of a job that completed without changing anything, with the agent's reply that says
 * why (a request it did not understand, a path it may not write); null otherwise.
 */
export function nothingChanged(run: JobRun): string | null {
  const { job } = run;
  if (job.status !== 'completed' || job.changed !== false) return null;
  const reply = job.reply?.trim();
  return `Job ${job.id} completed without changing anything.${reply ? ` The agent said: ${reply}` : ''}`;
}

/** The job summary (`GITHUB_STEP_SUMMARY`) in Markdown: the job, the request, its status and the pull request. */
export function summaryMarkdown(run: JobRun, inputs: Pick<Inputs, 'projectId' | 'mode'>): string {
  const { job, created, end } = run;
  const status =
    end === 'not-waited'
      ? `${job.status} (not waited for)`
      : end === 'finished'
        ? job.status
        : `${job.status} (${end})`;
  const rows: [string, string][] = [
    [
      'Job',
      inputs.mode === 'runner'
        ? `\`${job.id}\` (run in this workflow)`
        : `\`${job.id}\` in project \`${inputs.projectId}\``,
    ],
    ['Request', created ? 'new job' : 'follow-up message'],
    ['Status', status],
    ['Pull request', job.prLink ?? 'none'],
  ];
  if (job.status === 'failed' && job.error) rows.push(['Reason', cell(job.error)]);
  if (job.status === 'completed' && job.changed !== null && job.changed !== undefined)
    rows.push(['Changed', job.changed ? 'yes' : 'no: nothing was committed']);
  if (job.status === 'completed' && job.changed === false && job.reply) rows.push(['Reply', cell(job.reply)]);
  const usage = job.status === 'active' ? null : latestRunUsage(job);
  if (usage) rows.push(['Usage', cell(describeUsage(usage))]);
  if (job.usage && usage && job.usage.modelCalls !== usage.modelCalls)
    rows.push(['Usage of the job', cell(describeUsage(job.usage))]);
  return [
    '## docwright',
    '',
    '| | |',
    '| --- | --- |',
    ...rows.map(([name, value]) => `| ${name} | ${value} |`),
    '',
  ].join('\n');
}

/** Server text inside a table cell: one line, no pipes or tags that would break the table. */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').replace(/</g, '&lt;');
}
