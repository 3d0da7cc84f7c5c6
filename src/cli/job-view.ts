import { describeUsage, dollars } from '../core/usage.js';
import type { Job } from '../protocol/agent-job.js';

/** A job as a person reads it: state and outcome, where the change is, then the conversation. */
export function describeJob(job: Job): string {
  const lines = [`Job ${job.id}: ${job.status}${outcome(job)}`];
  if (job.prLink) lines.push(`Pull request: ${job.prLink}`);
  else if (job.changed) lines.push(`Branch: ${job.source.ref} in ${job.source.repository}`);
  if (job.error) lines.push(`Why: ${job.error}`);
  if (job.usage && job.usage.modelCalls > 0) lines.push(`Usage: ${describeUsage(job.usage)}`);
  const messages = job.messages ?? [];
  if (messages.length > 0) {
    for (const message of messages) {
      lines.push(
        '',
        `${message.role === 'user' ? 'You' : 'docwright'} (${message.createdAt}):`,
        indent(message.content),
      );
      if (message.usage && message.usage.modelCalls > 0)
        lines.push(indent(`(${describeUsage(message.usage)})`));
    }
  } else if (job.reply) {
    lines.push('', indent(job.reply));
  }
  return lines.join('\n');
}

/** A job as one row of `job list`. */
export function jobRow(job: Job): Record<string, string> {
  return {
    id: job.id,
    status: job.status,
    changed: job.changed === true ? 'yes' : job.changed === false ? 'no' : '-',
    created: job.createdAt,
    'pull request': job.prLink ?? '-',
    usage: usageCell(job.usage),
  };
}

/** `4,210 tokens, $0.0123`: what every run of the job spent, '-' for jobs that used no model. */
function usageCell(usage: Job['usage']): string {
  if (!usage || usage.modelCalls === 0) return '-';
  const tokens = `${(usage.inputTokens + usage.outputTokens).toLocaleString('en-US')} tokens`;
  return usage.costUsd === null ? tokens : `${tokens}, ${dollars(usage.costUsd)}`;
}

function outcome(job: Job): string {
  if (job.status === 'active') return ' (working on the latest prompt)';
  if (job.status === 'completed' && job.changed === false) return ', nothing was changed';
  if (job.status === 'completed' && job.changed === true) return ', committed a change';
  return '';
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
