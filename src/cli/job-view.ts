import type { Job } from '../protocol/agent-job.js';

/** A job as a person reads it: state and outcome, where the change is, then the conversation. */
export function describeJob(job: Job): string {
  const lines = [`Job ${job.id}: ${job.status}${outcome(job)}`];
  if (job.prLink) lines.push(`Pull request: ${job.prLink}`);
  else if (job.changed) lines.push(`Branch: ${job.source.ref} in ${job.source.repository}`);
  if (job.error) lines.push(`Why: ${job.error}`);
  const messages = job.messages ?? [];
  if (messages.length > 0) {
    for (const message of messages) {
      lines.push(
        '',
        `${message.role === 'user' ? 'You' : 'docwright'} (${message.createdAt}):`,
        indent(message.content),
      );
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
  };
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
