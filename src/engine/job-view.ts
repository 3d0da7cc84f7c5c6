import type { Job } from '../protocol/agent-job.js';
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
    ...(messages
      ? {
          messages: messages.map((message) => ({
            role: message.role,
            content: message.content,
            createdAt: message.created_at,
          })),
        }
      : {}),
  };
}
