import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, JobThreadTable } from './schema.js';

export type JobThreadRow = Selectable<JobThreadTable>;

/** Where a job is talked about on GitHub: an issue or a pull request of a repository. */
export interface ThreadKey {
  repository: string;
  issueNumber: number;
}

const iso = (date: Date) => date.toISOString();

/**
 * The GitHub conversations (issues, pull requests) a job is talked about in, each with its status
 * comment and what that comment last showed. Not to be confused with the assistant's threads of
 * questions and answers (assistant-threads.ts).
 */
export class GitHubThreadStore {
  constructor(private readonly db: Kysely<Database>) {}

  async ofJob(jobId: string): Promise<JobThreadRow[]> {
    return this.db.selectFrom('job_threads').selectAll().where('job_id', '=', jobId).orderBy('id').execute();
  }
  /** The job a thread talks to: the newest registered in the thread, or the one whose PR it is. */
  async find(thread: ThreadKey): Promise<JobThreadRow | undefined> {
    return this.db
      .selectFrom('job_threads')
      .selectAll()
      .where(sql<string>`lower(repository)`, '=', thread.repository.toLowerCase())
      .where((eb) =>
        eb.or([eb('issue_number', '=', thread.issueNumber), eb('pr_number', '=', thread.issueNumber)]),
      )
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }
  /** Registers a thread of a job (again: a no-op but for its timestamp). */
  async register(
    thread: ThreadKey & { jobId: string; isPullRequest: boolean; prNumber: number | null },
    now = new Date(),
  ): Promise<JobThreadRow> {
    await this.db
      .insertInto('job_threads')
      .values({
        job_id: thread.jobId,
        repository: thread.repository,
        issue_number: thread.issueNumber,
        is_pull_request: thread.isPullRequest ? 1 : 0,
        status_comment_id: null,
        pr_number: thread.prNumber,
        rendered_state: null,
        created_at: iso(now),
        updated_at: iso(now),
      })
      .onConflict((conflict) =>
        conflict.columns(['repository', 'issue_number', 'job_id']).doUpdateSet({ updated_at: iso(now) }),
      )
      .execute();
    return this.db
      .selectFrom('job_threads')
      .selectAll()
      .where('repository', '=', thread.repository)
      .where('issue_number', '=', thread.issueNumber)
      .where('job_id', '=', thread.jobId)
      .executeTakeFirstOrThrow();
  }
  /** Records what the status comment now shows (and its id, once posted). */
  async recordRendered(
    threadId: number,
    rendered: { commentId: number; state: string },
    now = new Date(),
  ): Promise<void> {
    await this.db
      .updateTable('job_threads')
      .set({ status_comment_id: rendered.commentId, rendered_state: rendered.state, updated_at: iso(now) })
      .where('id', '=', threadId)
      .execute();
  }
  /** Remembers the job's pull request on every thread of the job, so comments there find the job. */
  async recordPullRequest(jobId: string, prNumber: number): Promise<void> {
    await this.db
      .updateTable('job_threads')
      .set({ pr_number: prNumber })
      .where('job_id', '=', jobId)
      .execute();
  }
  /**
   * Jobs that changed after their threads' status comments were last looked at: what a sweep
   * re-renders when a change notice was missed (another replica ran the job, a crash).
   */
  async staleJobs(since: Date, limit = 50): Promise<string[]> {
    const rows = await this.db
      .selectFrom('job_threads')
      .innerJoin('jobs', 'jobs.id', 'job_threads.job_id')
      .select('job_threads.job_id')
      .distinct()
      .where('job_threads.updated_at', '>=', iso(since))
      .whereRef('jobs.updated_at', '>', 'job_threads.updated_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.job_id);
  }
  /** Marks a job's threads as looked at, so the sweep leaves them until the job changes again. */
  async touch(jobId: string, now = new Date()): Promise<void> {
    await this.db
      .updateTable('job_threads')
      .set({ updated_at: iso(now) })
      .where('job_id', '=', jobId)
      .execute();
  }
}
