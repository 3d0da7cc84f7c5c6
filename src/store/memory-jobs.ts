import { conflict, DocwrightError } from '../core/errors.js';
import { redactSecrets } from '../core/redact.js';
import { addedUsageText } from '../core/usage.js';
import type { JobStatus } from '../protocol/agent-job.js';
import {
  jobNotFound,
  jobTakesNoMessage,
  newJobRow,
  replyMessage,
  requestMessage,
  type JobRecords,
  type JobRunRecords,
  type JobServiceStore,
} from './job-records.js';
import { acceptsMessage, nextStatus, runEnd, type JobEvent } from './job-states.js';
import type {
  ClaimedJob,
  JobListRow,
  JobMessageReadRow,
  JobMessageRow,
  JobReadRow,
  JobRow,
  ListOptions,
  NewJob,
  RunOutcome,
} from './jobs.js';
import type { ProjectRow } from './projects.js';

/**
 * A job known from elsewhere (what an earlier process left on a forge), taken in as if its runs had
 * happened here: its requests and replies, oldest first, all handled.
 */
export interface ImportedJob extends Omit<NewJob, 'prompt' | 'budget'> {
  turns: { role: 'user' | 'agent'; content: string }[];
  prLink: string | null;
  branchHead: string | null;
  /** Whether the job was archived (its pull request closed or merged). */
  archived: boolean;
}

interface HeldJob {
  row: JobRow;
  messages: JobMessageRow[];
}

/**
 * The store's jobs kept in this process, for a place that keeps nothing once it ends (the Action's
 * runner). It answers what the database's JobStore answers, with the same refusals, and moves
 * every status by the same transition table, so a job here lives the lifecycle a server's does.
 * Rows handed out are copies: nothing changes a job but these methods.
 */
export class MemoryJobStore implements JobRecords, JobRunRecords {
  private readonly jobs = new Map<string, HeldJob>();
  private nextMessageId: number;

  /** `firstMessageId`: where message ids start (they name runs in commit trailers, see the runner). */
  constructor(options: { firstMessageId?: number } = {}) {
    this.nextMessageId = options.firstMessageId ?? 1;
  }

  create(job: NewJob, now = new Date()): Promise<JobRow> {
    return settled(() => {
      if (this.jobs.has(job.id)) throw conflict(`Job ${job.id} already exists`);
      const held: HeldJob = { row: newJobRow(job, now), messages: [] };
      this.jobs.set(job.id, held);
      this.push(held, requestMessage(job.id, job.prompt, now));
      return { ...held.row };
    });
  }

  /**
   * Takes in a job of an earlier process: made as a new job is, its turns added as handled, then
   * moved as its runs moved it (a run that ended well; an archive when it was archived).
   */
  importJob(job: ImportedJob, now = new Date()): JobRow {
    if (this.jobs.has(job.id)) throw conflict(`Job ${job.id} already exists`);
    const held: HeldJob = { row: newJobRow(job, now), messages: [] };
    for (const turn of job.turns) {
      // A reply of an earlier run is known from the commit that run made, so that run changed something.
      const message =
        turn.role === 'user'
          ? requestMessage(job.id, turn.content, now)
          : replyMessage(job.id, { handledMessageIds: [], reply: turn.content, changed: true }, now);
      this.push(held, { ...message, state: turn.role === 'user' ? 'handled' : null });
    }
    held.row = { ...held.row, pr_link: job.prLink, branch_head: job.branchHead };
    this.move(held, runEnd({ failed: false, messagesWaiting: false }), now);
    if (job.archived) this.archiveHeld(held, now);
    this.jobs.set(job.id, held);
    return { ...held.row };
  }

  get(projectId: string, id: string): Promise<JobRow | undefined> {
    const held = this.find(projectId, id);
    return Promise.resolve(held && { ...held.row });
  }

  getWithMessages(
    projectId: string,
    id: string,
  ): Promise<{ job: JobReadRow; messages: JobMessageReadRow[] } | undefined> {
    const held = this.find(projectId, id);
    return Promise.resolve(
      held && { job: { ...held.row }, messages: held.messages.map((message) => ({ ...message })) },
    );
  }

  messages(jobId: string): Promise<JobMessageRow[]> {
    const held = this.jobs.get(jobId);
    return Promise.resolve(held ? held.messages.map((message) => ({ ...message })) : []);
  }

  /** Newest first, from `before` on, as the database's keyset pages are. */
  list(projectId: string, options: ListOptions): Promise<JobListRow[]> {
    const { before, status } = options;
    const rows = [...this.jobs.values()]
      .filter(({ row }) => row.project_id === projectId && (!status || row.status === status))
      .filter(
        ({ row }) =>
          !before ||
          row.created_at < before.createdAt ||
          (row.created_at === before.createdAt && row.id < before.id),
      )
      .sort((a, b) => compare(b.row.created_at, a.row.created_at) || compare(b.row.id, a.row.id))
      .slice(0, options.limit)
      .map(({ row, messages }): JobListRow => {
        const latest = messages.at(-1);
        return { ...row, latest_role: latest?.role ?? null, latest_changed: latest?.changed ?? null };
      });
    return Promise.resolve(rows);
  }

  /** Refuses, with the error `addMessage` would throw, a message to a job that takes none. */
  checkMessage(projectId: string, id: string): Promise<void> {
    return settled(() => {
      this.messageable(projectId, id);
    });
  }

  /** Queues a follow-up: the job becomes active again; a run going on finishes first (it holds the lease). */
  addMessage(projectId: string, id: string, prompt: string, now = new Date()): Promise<JobRow> {
    return settled(() => {
      const held = this.messageable(projectId, id);
      this.move(held, 'message', now);
      held.row = { ...held.row, error: null };
      this.push(held, requestMessage(id, prompt, now));
      return { ...held.row };
    });
  }

  /** Archives the job (idempotent). A run in progress still records its result. */
  archive(projectId: string, id: string, now = new Date()): Promise<JobRow> {
    return settled(() => {
      const held = this.find(projectId, id);
      if (!held) throw jobNotFound(projectId, id);
      this.archiveHeld(held, now);
      return { ...held.row };
    });
  }

  /** The oldest active job nobody holds, with the requests its run is to handle. */
  claim(owner: string, leaseMs: number, now = new Date()): Promise<ClaimedJob | null> {
    const time = now.toISOString();
    const next = [...this.jobs.values()]
      .filter(
        ({ row }) =>
          row.status === 'active' && (row.lease_expires_at === null || row.lease_expires_at < time),
      )
      .sort((a, b) => compare(a.row.updated_at, b.row.updated_at))[0];
    if (!next) return Promise.resolve(null);
    next.row = {
      ...next.row,
      lease_owner: owner,
      lease_expires_at: new Date(now.getTime() + leaseMs).toISOString(),
      attempts: next.row.attempts + 1,
    };
    const pending = next.messages.filter((message) => message.state === 'pending');
    return Promise.resolve({ job: { ...next.row }, pending: pending.map((message) => ({ ...message })) });
  }

  /**
   * Records a finished run and gives the lease back, as the database's finishRun does: the job's
   * usage grows by what the run spent, its reply is added, and its status follows how the run
   * ended (active still when follow-ups wait; archived stays archived). False when `owner` does
   * not hold the job, and then nothing is written.
   */
  finishRun(id: string, owner: string, outcome: RunOutcome, now = new Date()): Promise<boolean> {
    const held = this.jobs.get(id);
    if (!held || held.row.lease_owner !== owner) return Promise.resolve(false);
    const handled = new Set(outcome.handledMessageIds);
    held.messages = held.messages.map((message): JobMessageRow =>
      handled.has(message.id) ? { ...message, state: 'handled' } : message,
    );
    this.push(held, replyMessage(id, outcome, now));
    held.row = {
      ...held.row,
      lease_owner: null,
      lease_expires_at: null,
      attempts: 0,
      run_usage: null,
      usage: outcome.usage ? addedUsageText(held.row.usage, outcome.usage) : held.row.usage,
      error: outcome.error === undefined ? null : redactSecrets(outcome.error),
      ...(outcome.prLink ? { pr_link: outcome.prLink } : {}),
      ...(outcome.branchHead ? { branch_head: outcome.branchHead } : {}),
    };
    const waiting = held.messages.some((message) => message.state === 'pending');
    this.move(held, runEnd({ failed: outcome.error !== undefined, messagesWaiting: waiting }), now);
    return Promise.resolve(true);
  }

  private find(projectId: string, id: string): HeldJob | undefined {
    const held = this.jobs.get(id);
    return held?.row.project_id === projectId ? held : undefined;
  }

  private messageable(projectId: string, id: string): HeldJob {
    const held = this.find(projectId, id);
    if (!held) throw jobNotFound(projectId, id);
    if (!acceptsMessage(held.row.status)) throw jobTakesNoMessage(id);
    return held;
  }

  private push(held: HeldJob, message: Omit<JobMessageRow, 'id'>): void {
    held.messages.push({ ...message, id: this.nextMessageId++ });
  }

  private archiveHeld(held: HeldJob, now: Date): void {
    if (nextStatus(held.row.status, 'archive') === undefined) return;
    this.move(held, 'archive', now);
    held.row = { ...held.row, archived_at: now.toISOString() };
  }

  /** The one status write: the transition table's answer, or a refusal when the event does not apply. */
  private move(held: HeldJob, event: JobEvent, now: Date): void {
    const status: JobStatus | undefined = nextStatus(held.row.status, event);
    if (status === undefined)
      throw new DocwrightError(
        'internal_error',
        `job ${held.row.id} is ${held.row.status}, where ${event} does not apply`,
        { retryable: false },
      );
    held.row = { ...held.row, status, updated_at: now.toISOString() };
  }
}

/** The projects a memory store knows, given once: a runner works on its own repository only. */
export class MemoryProjects {
  private readonly projects: Map<string, ProjectRow>;

  constructor(projects: ProjectRow[]) {
    this.projects = new Map(projects.map((project) => [project.id, project]));
  }

  get(id: string): Promise<ProjectRow | undefined> {
    const project = this.projects.get(id);
    return Promise.resolve(project && { ...project });
  }
}

/** The job service's store, held in this process. */
export class MemoryStore implements JobServiceStore {
  readonly jobs: MemoryJobStore;
  readonly projects: MemoryProjects;
  readonly runs = new MemoryRunStore();

  constructor(projects: ProjectRow[], options: { firstMessageId?: number } = {}) {
    this.jobs = new MemoryJobStore(options);
    this.projects = new MemoryProjects(projects);
  }
}

/** The files each run of a job committed, as the database's RunStore keeps them, in memory. */
class MemoryRunStore {
  private readonly runs = new Map<string, Map<string, { paths: string[]; landed: boolean }>>();

  /** Before a run's commit: the paths it is about to write (a repeated attempt replaces them). */
  planned(jobId: string, runKey: string, paths: string[]): Promise<void> {
    const runs = this.runs.get(jobId) ?? new Map<string, { paths: string[]; landed: boolean }>();
    runs.set(runKey, { paths: [...new Set(paths)], landed: false });
    this.runs.set(jobId, runs);
    return Promise.resolve();
  }

  /** The run's commit is on the branch: its paths count among the job's changes. */
  landed(jobId: string, runKey: string): Promise<void> {
    const run = this.runs.get(jobId)?.get(runKey);
    if (run) run.landed = true;
    return Promise.resolve();
  }

  /** Every path the job's landed runs changed, sorted; null when none is recorded. */
  changedFiles(jobId: string): Promise<string[] | null> {
    const landed = [...(this.runs.get(jobId)?.values() ?? [])].filter((run) => run.landed);
    if (landed.length === 0) return Promise.resolve(null);
    return Promise.resolve([...new Set(landed.flatMap((run) => run.paths))].sort());
  }
}

/** The work's answer as a promise, its error as a rejection, as the database's store answers. */
function settled<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => resolve(work()));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
