import { parseUsage } from '../core/usage.js';
import type { Job, JobMessage } from '../protocol/agent-job.js';
import type { JobMessageReadRow, JobReadRow } from '../store/index.js';

/** The wire shape of a job (the contract's fields plus our own), from its row and, optionally, its messages. */
export function toJob(row: JobReadRow, messages?: JobMessageReadRow[]): Job {
  return {
    id: row.id,
    status: row.status,
    source: { repository: row.repository_url, ref: row.branch },
    model: row.model,
    // The contract keeps prLink null while the job is active.
    prLink: row.status === 'active' ? null : row.pr_link,
    createdAt: row.created_at,
    archivedAt: row.archived_at,
    updatedAt: row.updated_at,
    error: row.status === 'failed' ? row.error : null,
    ...usageField(row.usage),
    ...(messages ? { messages: messages.map(messageView), ...latestReply(row.status, messages) } : {}),
  };
}

function messageView(message: JobMessageReadRow): JobMessage {
  return {
    role: message.role,
    content: message.content,
    createdAt: message.created_at,
    ...(message.role === 'agent' && message.changed !== null ? { changed: message.changed === 1 } : {}),
    ...(message.role === 'agent' ? usageField(message.usage) : {}),
  };
}

function usageField(text: string | null): { usage?: NonNullable<Job['usage']> } {
  const usage = parseUsage(text);
  return usage ? { usage } : {};
}

/**
 * The reply to the latest prompt and whether its run changed anything; both null while a prompt
 * waits for its run (a reply before it answered an earlier prompt).
 */
function latestReply(
  status: JobReadRow['status'],
  messages: JobMessageReadRow[],
): { reply: string | null; changed: boolean | null } {
  const last = messages.at(-1);
  if (status === 'active' || last?.role !== 'agent') return { reply: null, changed: null };
  return { reply: last.content, changed: last.changed === null ? null : last.changed === 1 };
}
