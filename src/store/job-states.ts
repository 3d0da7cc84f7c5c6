import type { ExpressionBuilder, ExpressionWrapper, SqlBool } from 'kysely';
import { DocwrightError } from '../core/errors.js';
import type { JobStatus } from '../protocol/agent-job.js';
import type { Database } from './schema.js';

/** What happens to a job; a new job starts `active`. */
export type JobEvent =
  /** A follow-up message arrived. */
  | 'message'
  /** Archived by hand (the API, the CLI) or because its pull request was closed or merged. */
  | 'archive'
  /** A run ended well and no follow-up is waiting. */
  | 'run-succeeded'
  /** A run ended in a failure that trying again will not mend, and no follow-up is waiting. */
  | 'run-failed'
  /** A run ended, one way or the other, while follow-ups it did not handle were waiting. */
  | 'run-left-messages';

interface Transition {
  from: readonly JobStatus[];
  event: JobEvent;
  to: JobStatus;
}

const OPEN: readonly JobStatus[] = ['active', 'completed', 'failed'];
const RUN_ENDS: readonly JobEvent[] = ['run-succeeded', 'run-failed', 'run-left-messages'];

/**
 * The job's state machine, the one table every status write of the store follows. A message
 * reopens a finished or failed job; an archived job takes none and stays archived; a run that was
 * going when its job was archived still records its reply, and the job stays archived.
 */
const JOB_TRANSITIONS: readonly Transition[] = [
  { from: OPEN, event: 'message', to: 'active' },
  { from: OPEN, event: 'archive', to: 'archived' },
  { from: ['active'], event: 'run-succeeded', to: 'completed' },
  { from: ['active'], event: 'run-failed', to: 'failed' },
  { from: ['active'], event: 'run-left-messages', to: 'active' },
  ...RUN_ENDS.map((event): Transition => ({ from: ['archived'], event, to: 'archived' })),
];

/** The status `event` moves a job in `from` to, or undefined when the event does not apply there. */
export function nextStatus(from: JobStatus, event: JobEvent): JobStatus | undefined {
  return JOB_TRANSITIONS.find((transition) => transition.event === event && transition.from.includes(from))
    ?.to;
}

/** Whether a job in `status` takes a follow-up message (an archived one takes none). */
export function acceptsMessage(status: JobStatus): boolean {
  return nextStatus(status, 'message') !== undefined;
}

/** The one status `event` leads to from wherever it applies (a message, an archive). */
export function statusAfter(event: 'message' | 'archive'): JobStatus {
  const targets = new Set(JOB_TRANSITIONS.filter((t) => t.event === event).map((t) => t.to));
  const [target] = targets;
  if (targets.size !== 1 || target === undefined)
    throw new DocwrightError('internal_error', `${event} leads to ${targets.size} statuses`, {
      retryable: false,
    });
  return target;
}

/** The statuses in which `event` applies: the `where` of the write that makes it happen. */
export function statusesAllowing(event: JobEvent): JobStatus[] {
  return [...new Set(JOB_TRANSITIONS.filter((t) => t.event === event).flatMap((t) => t.from))];
}

/** How a run ended, as the state machine names it. */
export function runEnd(outcome: { failed: boolean; messagesWaiting: boolean }): JobEvent {
  if (outcome.messagesWaiting) return 'run-left-messages';
  return outcome.failed ? 'run-failed' : 'run-succeeded';
}

/**
 * A job a worker may take now: active, with no live lease (a crashed worker's has run out) and no
 * retry delay running. The one definition the claim (on either dialect) and the queue's depth use.
 */
export function runnable(
  eb: ExpressionBuilder<Database, 'jobs'>,
  now: string,
): ExpressionWrapper<Database, 'jobs', SqlBool> {
  return eb.and([
    eb('jobs.status', '=', 'active'),
    eb.or([eb('jobs.lease_expires_at', 'is', null), eb('jobs.lease_expires_at', '<', now)]),
  ]);
}
