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
    'comment-id': commentId === null ? '' : String(commentId),
  };
}

/** The sentence the step fails with, or null when the run succeeded. */
export function failureOf(run: JobRun, inputs: Pick<Inputs, 'timeoutMs'>): string | null {
  const { job, end } = run;
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

/** The job summary (`core.summary`) in Markdown: the job, the request, its status and the pull request. */
export function summaryMarkdown(run: JobRun, inputs: Pick<Inputs, 'projectId'>): string {
  const { job, created, end } = run;
  const status =
    end === 'not-waited'
      ? `${job.status} (not waited for)`
      : end === 'finished'
        ? job.status
        : `${job.status} (${end})`;
  const rows: [string, string][] = [
    ['Job', `\`${job.id}\` in project \`${inputs.projectId}\``],
    ['Request', created ? 'new job' : 'follow-up message'],
    ['Status', status],
    ['Pull request', job.prLink ?? 'none'],
  ];
  if (job.status === 'failed' && job.error) rows.push(['Reason', cell(job.error)]);
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
