import {
  sql,
  type ExpressionBuilder,
  type ExpressionWrapper,
  type Kysely,
  type Selectable,
  type SqlBool,
} from 'kysely';
import { notFound } from '../core/errors.js';
import { redactSecrets } from '../core/redact.js';
import { addedUsageText, type JobBudget, type Usage } from '../core/usage.js';
import { compiledRead } from './compiled-read.js';
import type { OpenDatabase } from './database.js';
import { dialectOf, type DialectName } from './dialect.js';
import { jobNotFound, jobTakesNoMessage, newJobRow, replyMessage, requestMessage } from './job-records.js';
import { acceptsMessage, nextStatus, runEnd, runnable, statusAfter, statusesAllowing } from './job-states.js';
import type { Database, JobMessageTable, JobTable } from './schema.js';
import { rowInsert, type SqliteWriteBatch } from './write-batch.js';

export type JobRow = Selectable<JobTable>;
export type JobMessageRow = Selectable<JobMessageTable>;
import type { JobStatus } from '../protocol/agent-job.js';

export type { JobStatus };

/** The columns of a job the API shows. */
export type JobReadRow = Pick<
  JobRow,
  | 'id'
  | 'status'
  | 'repository_url'
  | 'branch'
  | 'model'
  | 'pr_link'
  | 'created_at'
  | 'archived_at'
  | 'updated_at'
  | 'error'
  | 'usage'
>;
/** The columns of a job's message the API shows. */
export type JobMessageReadRow = Pick<JobMessageRow, 'role' | 'content' | 'created_at' | 'changed' | 'usage'>;

/** A job joined with one of its messages (the message's columns null for a job without messages). */
type JobWithMessageRow = JobReadRow & {
  message_role: JobMessageRow['role'] | null;
  message_content: string | null;
  message_created_at: string | null;
  message_changed: number | null;
  message_usage: string | null;
};

export interface NewJob {
  id: string;
  projectId: string;
  model: string;
  repositoryUrl: string;
  branch: string;
  prompt: string;
  /** The limits the job was asked with, beside the project's and the server's. */
  budget?: JobBudget;
}

/**
 * A job as a list shows it: its columns, and the role and `changed` of its latest message, so a
 * list says whether each job's last run committed without reading every conversation.
 */
export type JobListRow = JobRow & {
  latest_role: JobMessageRow['role'] | null;
  latest_changed: number | null;
};

export interface ListOptions {
  limit: number;
  /** Exclusive: jobs strictly older than this (createdAt, id) position. */
  before?: { createdAt: string; id: string };
  status?: JobStatus;
}

/** A job a worker holds the lease of, with the user messages this run handles. */
export interface ClaimedJob {
  job: JobRow;
  pending: JobMessageRow[];
}

export interface RunOutcome {
  handledMessageIds: number[];
  reply: string;
  prLink?: string | null;
  /** Where the job's branch is after the run, when the run knows (a commit it made or found). */
  branchHead?: string | null;
  /** Whether the run committed a change (or found the commit it made before a restart). */
  changed?: boolean;
  /** Set when the run failed: the reason, in words. */
  error?: string;
  /** What this attempt spent (the job's total grows by it). */
  usage?: Usage;
  /** What the whole run spent, earlier attempts included (shown beside its reply). */
  runUsage?: Usage;
}

const iso = (date: Date) => date.toISOString();

// A new job and its first message as written on SQLite through the group commit.
export const JOB_COLUMNS = [
  'id',
  'project_id',
  'status',
  'model',
  'repository_url',
  'branch',
  'pr_link',
  'error',
  'created_at',
  'updated_at',
  'archived_at',
  'lease_owner',
  'lease_expires_at',
  'attempts',
  'branch_head',
  'usage',
  'run_usage',
  'budget',
] as const satisfies readonly (keyof JobRow)[];
const MESSAGE_COLUMNS = [
  'job_id',
  'role',
  'content',
  'created_at',
  'state',
  'changed',
  'usage',
] as const satisfies readonly (keyof JobMessageRow)[];
// A column added to the table without a place in JOB_COLUMNS fails to compile here.
const everyJobColumn: Exclude<keyof JobRow, (typeof JOB_COLUMNS)[number]> extends never ? true : never = true;
void everyJobColumn;
const insertJob = rowInsert<JobRow>('jobs', JOB_COLUMNS);
const insertMessage = rowInsert<Omit<JobMessageRow, 'id'>>('job_messages', MESSAGE_COLUMNS);

/**
 * Jobs and their messages. Every multi-statement transaction starts with a write, so on SQLite it
 * takes the write lock first (a deferred read-then-write transaction could fail with SQLITE_BUSY),
 * and on PostgreSQL it locks the job's row first, which serialises a run's end with a follow-up.
 */
export class JobStore {
  private readonly dialect: DialectName;

  /** A job of a project with its messages in order: one query for the API's most frequent read. */
  private readonly readWithMessages: (projectId: string, id: string) => Promise<JobWithMessageRow[]>;

  private readonly db: Kysely<Database>;
  private readonly writes: SqliteWriteBatch | undefined;

  constructor(database: OpenDatabase) {
    const db = database.db;
    this.db = db;
    this.writes = database.dialect === 'sqlite' ? database.writes : undefined;
    this.dialect = dialectOf(db);
    this.readWithMessages = compiledRead(
      database,
      (projectId: string, id: string) =>
        db
          .selectFrom('jobs')
          .leftJoin('job_messages', 'job_messages.job_id', 'jobs.id')
          // Only what the API shows: each column read is a value made for every row.
          .select([
            'jobs.id',
            'jobs.status',
            'jobs.repository_url',
            'jobs.branch',
            'jobs.model',
            'jobs.pr_link',
            'jobs.created_at',
            'jobs.archived_at',
            'jobs.updated_at',
            'jobs.error',
            'jobs.usage',
            'job_messages.role as message_role',
            'job_messages.content as message_content',
            'job_messages.created_at as message_created_at',
            'job_messages.changed as message_changed',
            'job_messages.usage as message_usage',
          ])
          .where('jobs.id', '=', id)
          .where('jobs.project_id', '=', projectId)
          .orderBy('job_messages.id'),
      ['project', 'job'],
    );
  }

  async create(job: NewJob, now = new Date()): Promise<JobRow> {
    const row = newJobRow(job, now);
    const message = requestMessage(job.id, job.prompt, now);
    if (this.writes) {
      // Concurrent creates (and the rate-limit counts of their requests) share one commit; each
      // caller is answered once that commit is in the WAL, as with a transaction of its own.
      await this.writes.run((prepare) => {
        insertJob(prepare, row);
        insertMessage(prepare, message);
      });
      return row;
    }
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('jobs').values(row).execute();
      await trx.insertInto('job_messages').values(message).execute();
    });
    return row;
  }

  async get(projectId: string, id: string): Promise<JobRow | undefined> {
    return this.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', id)
      .where('project_id', '=', projectId)
      .executeTakeFirst();
  }

  /** A job by id alone: webhooks and the status watcher know the job before its project. */
  async getUnscoped(jobId: string): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
  }
  /**
   * The job whose pull request is at `link` (the `html_url` GitHub answered when the job opened
   * it, kept as the job's `prLink`): docwright wrote that link itself, so unlike a marker in a pull
   * request body it cannot be forged. The newest job wins if two ever shared a pull request.
   */
  async withPullRequest(projectId: string, link: string): Promise<JobRow | undefined> {
    return this.db
      .selectFrom('jobs')
      .selectAll()
      .where('project_id', '=', projectId)
      .where(sql<string>`lower(pr_link)`, '=', link.toLowerCase())
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  }

  /** The job and its messages in order as the API shows them, read together. */
  async getWithMessages(
    projectId: string,
    id: string,
  ): Promise<{ job: JobReadRow; messages: JobMessageReadRow[] } | undefined> {
    const rows = await this.readWithMessages(projectId, id);
    const first = rows[0];
    if (!first) return undefined;
    const job: JobReadRow = {
      id: first.id,
      status: first.status,
      repository_url: first.repository_url,
      branch: first.branch,
      model: first.model,
      pr_link: first.pr_link,
      created_at: first.created_at,
      archived_at: first.archived_at,
      updated_at: first.updated_at,
      error: first.error,
      usage: first.usage,
    };
    const messages: JobMessageReadRow[] = [];
    for (const row of rows) {
      // A message's role is never null: null is the left join finding no message.
      if (row.message_role === null) continue;
      messages.push({
        role: row.message_role,
        content: row.message_content!,
        created_at: row.message_created_at!,
        changed: row.message_changed,
        usage: row.message_usage,
      });
    }
    return { job, messages };
  }

  async messages(jobId: string): Promise<JobMessageRow[]> {
    return this.db.selectFrom('job_messages').selectAll().where('job_id', '=', jobId).orderBy('id').execute();
  }

  /** Newest first; keyset pagination on (created_at, id). */
  async list(projectId: string, options: ListOptions): Promise<JobListRow[]> {
    let query = this.db
      .selectFrom('jobs')
      .selectAll('jobs')
      .select((eb) => {
        const latest = eb
          .selectFrom('job_messages')
          .whereRef('job_messages.job_id', '=', 'jobs.id')
          .orderBy('job_messages.id', 'desc')
          .limit(1);
        return [
          latest.select('job_messages.role').as('latest_role'),
          latest.select('job_messages.changed').as('latest_changed'),
        ];
      })
      .where('project_id', '=', projectId);
    if (options.status) query = query.where('status', '=', options.status);
    const before = options.before;
    if (before) {
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '<', before.createdAt),
          eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)]),
        ]),
      );
    }
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
  }

  /**
   * Refuses, with the error `addMessage` would throw, a message to a job that does not exist or takes
   * none: callers ask first so that a refused message costs nothing they count.
   */
  async checkMessage(projectId: string, id: string): Promise<void> {
    const job = await this.get(projectId, id);
    if (!job) throw jobNotFound(projectId, id);
    if (!acceptsMessage(job.status)) throw jobTakesNoMessage(id);
  }

  /** Queues a follow-up: the job becomes active again; a running run finishes first (lease held). */
  async addMessage(projectId: string, id: string, prompt: string, now = new Date()): Promise<JobRow> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('jobs')
        .set({ status: statusAfter('message'), error: null, updated_at: iso(now) })
        .where('id', '=', id)
        .where('project_id', '=', projectId)
        .where('status', 'in', statusesAllowing('message'))
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) {
        const existing = await trx
          .selectFrom('jobs')
          .select('status')
          .where('id', '=', id)
          .where('project_id', '=', projectId)
          .executeTakeFirst();
        if (!existing) throw jobNotFound(projectId, id);
        throw jobTakesNoMessage(id);
      }
      await trx
        .insertInto('job_messages')
        .values(requestMessage(id, prompt, now))
        .execute();
      return trx.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    });
  }

  /** Archives the job (idempotent). A run in progress still records its result. */
  async archive(projectId: string, id: string, now = new Date()): Promise<JobRow> {
    await this.db
      .updateTable('jobs')
      .set({ status: statusAfter('archive'), archived_at: iso(now), updated_at: iso(now) })
      .where('id', '=', id)
      .where('project_id', '=', projectId)
      .where('status', 'in', statusesAllowing('archive'))
      .execute();
    const job = await this.get(projectId, id);
    if (!job) throw notFound(`Job ${id} not found in project ${projectId}`);
    return job;
  }

  /**
   * Claims the oldest runnable job: active, and not leased (or its lease expired, which is how a
   * crashed worker's job is taken over). Two workers, in one process or several replicas, never
   * hold the same job: SQLite claims with a compare-and-set UPDATE, PostgreSQL with a row lock.
   */
  async claim(owner: string, leaseMs: number, now?: Date): Promise<ClaimedJob | null> {
    const clock = await this.leaseClock(now);
    return this.dialect === 'postgres'
      ? this.claimSkipLocked(owner, leaseMs, clock)
      : this.claimCompareAndSet(owner, leaseMs, clock);
  }

  /**
   * The time leases are written and compared in. On PostgreSQL, the database's clock: replicas on
   * several machines then agree on when a lease has run out, whatever their own clocks say. SQLite
   * is one machine's file, so its own clock is the one clock.
   */
  private async leaseClock(now: Date | undefined): Promise<Date> {
    if (now) return now;
    if (this.dialect !== 'postgres') return new Date();
    const { rows } = await sql<{ now: Date | string }>`select now() as now`.execute(this.db);
    return new Date(rows[0]?.now ?? Date.now());
  }

  /**
   * PostgreSQL: `FOR UPDATE SKIP LOCKED` hands each replica a different row at once, where the
   * compare-and-set would have every replica race for the same oldest job. The lock re-checks the
   * row's newest version, so the lease condition still holds when the UPDATE runs; one statement
   * (its own transaction) keeps the claim to one round trip.
   */
  private async claimSkipLocked(owner: string, leaseMs: number, now: Date): Promise<ClaimedJob | null> {
    const next = this.db
      .selectFrom('jobs')
      .select('id')
      .where((eb) => runnable(eb, iso(now)))
      .orderBy('updated_at')
      .limit(1)
      .forUpdate()
      .skipLocked();
    const job = await this.takeLease(owner, leaseMs, now, (eb) => eb('id', '=', next))
      .returningAll()
      .executeTakeFirst();
    return job ? { job, pending: await this.pending(job.id) } : null;
  }

  /** SQLite: one writer at a time, so a conditional UPDATE over a few candidates is enough. */
  private async claimCompareAndSet(owner: string, leaseMs: number, now: Date): Promise<ClaimedJob | null> {
    const candidates = await this.db
      .selectFrom('jobs')
      .select('id')
      .where((eb) => runnable(eb, iso(now)))
      .orderBy('updated_at')
      .limit(8)
      .execute();
    for (const { id } of candidates) {
      const result = await this.takeLease(owner, leaseMs, now, (eb) =>
        eb.and([eb('id', '=', id), runnable(eb, iso(now))]),
      ).executeTakeFirst();
      if (result.numUpdatedRows === 0n) continue;
      const job = await this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return { job, pending: await this.pending(id) };
    }
    return null;
  }

  /** The claim's write, on either dialect: the lease for `owner`, one more attempt counted. */
  private takeLease(
    owner: string,
    leaseMs: number,
    now: Date,
    which: (eb: ExpressionBuilder<Database, 'jobs'>) => ExpressionWrapper<Database, 'jobs', SqlBool>,
  ) {
    return this.db
      .updateTable('jobs')
      .set({
        lease_owner: owner,
        lease_expires_at: iso(new Date(now.getTime() + leaseMs)),
        attempts: sql<number>`attempts + 1`,
      })
      .where(which);
  }

  /** The user messages a run of the job has to handle, oldest first. */
  private pending(jobId: string): Promise<JobMessageRow[]> {
    return this.db
      .selectFrom('job_messages')
      .selectAll()
      .where('job_id', '=', jobId)
      .where('state', '=', 'pending')
      .orderBy('id')
      .execute();
  }

  /** Extends the lease; false when this worker no longer holds it (the run must stop). */
  async heartbeat(
    id: string,
    owner: string,
    leaseMs: number,
    at?: Date,
  ): Promise<'held' | 'lost' | 'archived'> {
    const now = await this.leaseClock(at);
    const result = await this.db
      .updateTable('jobs')
      .set({ lease_expires_at: iso(new Date(now.getTime() + leaseMs)) })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .returning('status')
      .executeTakeFirst();
    if (!result) return 'lost';
    // Archived while it ran (by hand, or its pull request closed): the run is to stop now.
    return result.status === 'archived' ? 'archived' : 'held';
  }

  /**
   * Records a finished run (success, or failure when `outcome.error` is set) and releases the
   * lease. The job stays active when follow-ups arrived during the run; an archived job stays
   * archived. Returns false when the lease was lost, in which case nothing is written.
   */
  async finishRun(id: string, owner: string, outcome: RunOutcome, now = new Date()): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const held = await trx
        .updateTable('jobs')
        .set({
          updated_at: iso(now),
          lease_owner: null,
          lease_expires_at: null,
          attempts: 0,
          run_usage: null,
        })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      if (held.numUpdatedRows === 0n) return false;
      if (outcome.usage) {
        const { usage } = await trx
          .selectFrom('jobs')
          .select('usage')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('jobs')
          .set({ usage: addedUsageText(usage, outcome.usage) })
          .where('id', '=', id)
          .execute();
      }
      if (outcome.handledMessageIds.length > 0) {
        await trx
          .updateTable('job_messages')
          .set({ state: 'handled' })
          .where('id', 'in', outcome.handledMessageIds)
          .execute();
      }
      await trx
        .insertInto('job_messages')
        .values(replyMessage(id, outcome, now))
        .execute();
      const { count } = await trx
        .selectFrom('job_messages')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('job_id', '=', id)
        .where('state', '=', 'pending')
        .executeTakeFirstOrThrow();
      const { status } = await trx
        .selectFrom('jobs')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const end = runEnd({ failed: outcome.error !== undefined, messagesWaiting: Number(count) > 0 });
      await trx
        .updateTable('jobs')
        .set({
          status: nextStatus(status, end) ?? status,
          error: outcome.error === undefined ? null : redactSecrets(outcome.error),
          ...(outcome.prLink ? { pr_link: outcome.prLink } : {}),
          ...(outcome.branchHead ? { branch_head: outcome.branchHead } : {}),
        })
        .where('id', '=', id)
        .execute();
      return true;
    });
  }

  /**
   * Gives the job back after a transient error: it is claimable again after `delayMs`. What the
   * failed attempt spent is added to the job's usage and kept as the run's, so the retry starts
   * its budget where this attempt left it.
   */
  async releaseForRetry(
    id: string,
    owner: string,
    delayMs: number,
    at?: Date,
    spent?: { attempt: Usage; run: Usage },
  ): Promise<void> {
    const now = await this.leaseClock(at);
    const stored = spent
      ? await this.db
          .selectFrom('jobs')
          .select('usage')
          .where('id', '=', id)
          .where('lease_owner', '=', owner)
          .executeTakeFirst()
      : undefined;
    await this.db
      .updateTable('jobs')
      .set({
        lease_owner: null,
        lease_expires_at: iso(new Date(now.getTime() + delayMs)),
        updated_at: iso(now),
        ...(spent && stored
          ? { usage: addedUsageText(stored.usage, spent.attempt), run_usage: JSON.stringify(spent.run) }
          : {}),
      })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  }

  /**
   * How many jobs are in each status, and how many of the active ones a worker could take now (no
   * live lease, no retry delay running): what an operator watches the queue by.
   */
  async stats(at?: Date): Promise<{ byStatus: Partial<Record<JobStatus, number>>; queued: number }> {
    const now = iso(await this.leaseClock(at));
    const rows = await this.db
      .selectFrom('jobs')
      .select((eb) => [
        'status',
        eb.fn.countAll<number | string>().as('count'),
        eb.fn
          .sum<number | string | null>(eb.case().when(runnable(eb, now)).then(1).else(0).end())
          .as('queued'),
      ])
      .groupBy('status')
      .execute();
    const byStatus: Partial<Record<JobStatus, number>> = {};
    let queued = 0;
    for (const row of rows) {
      byStatus[row.status] = Number(row.count);
      queued += Number(row.queued ?? 0);
    }
    return { byStatus, queued };
  }

  /** Gives the job back at shutdown without counting the interrupted attempt. */
  async release(id: string, owner: string): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({
        lease_owner: null,
        lease_expires_at: null,
        attempts: sql<number>`case when attempts > 0 then attempts - 1 else 0 end`,
      })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  }
}
