import { createHash } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { JobRow } from './jobs.js';
import type { DocsRoot } from '../write-policy/index.js';
import { joinWritable, type ProjectStore, type ProjectRow } from './projects.js';
import type { Database, JobThreadTable } from './schema.js';

export type JobThreadRow = Selectable<JobThreadTable>;

/** Where a job is talked about on GitHub: an issue or a pull request of a repository. */
export interface ThreadKey {
  repository: string;
  issueNumber: number;
}

export interface GitHubProjectInput {
  /** The GitHub it lives on (`github.com`, an Enterprise Server's host). */
  host: string;
  /** `owner/repo` as GitHub spells it. */
  repository: string;
  baseRef: string;
  installationId: number | null;
}

/** How long a delivery id is remembered; GitHub redelivers within days, not weeks. */
const DELIVERY_MEMORY_MS = 7 * 24 * 3600 * 1000;
const iso = (date: Date) => date.toISOString();

/**
 * What the GitHub App keeps: `owner/repo` projects and their installation, the threads
 * a job is talked about in with their status comments, and the webhook deliveries already handled.
 */
export class BotStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly projects: ProjectStore,
  ) {}

  /**
   * The GitHub project of a repository on `host`; GitHub names are case-insensitive. The host is
   * part of the identity: the same `owner/repo` on another GitHub is another project.
   */
  async findProject(host: string, repository: string): Promise<ProjectRow | undefined> {
    return this.db
      .selectFrom('projects')
      .selectAll()
      .where('forge', '=', 'github')
      .where('host', '=', host.toLowerCase())
      .where(sql<string>`lower(repository)`, '=', repository.toLowerCase())
      .orderBy('created_at')
      .executeTakeFirst();
  }

  /**
   * Creates the project of a repository, or re-enables it and records its installation (an app
   * installed again after an uninstall keeps its jobs). Returns whether the project is new.
   */
  async upsertProject(
    input: GitHubProjectInput,
    now = new Date(),
  ): Promise<{ project: ProjectRow; created: boolean }> {
    const existing = await this.findProject(input.host, input.repository);
    if (existing) {
      await this.db
        .updateTable('projects')
        .set({ installation_id: input.installationId, disabled_at: null, repository: input.repository })
        .where('id', '=', existing.id)
        .execute();
      return { project: (await this.projects.get(existing.id)) as ProjectRow, created: false };
    }
    try {
      const project = await this.projects.create(
        {
          id: await this.freeProjectId(input.repository),
          repository: input.repository,
          baseRef: input.baseRef,
          forge: 'github',
          host: input.host.toLowerCase(),
          installationId: input.installationId,
        },
        now,
      );
      return { project, created: true };
    } catch (error) {
      // Two replicas handling the first event of a repository race to create its project: the
      // loser's insert hits the primary key, and the winner's project is the answer.
      const winner = await this.findProject(input.host, input.repository);
      if (winner) return { project: winner, created: false };
      throw error;
    }
  }

  /** Applies `.github/docwright.yml` to the project row the engine reads. */
  async updateProjectSettings(
    projectId: string,
    settings: { baseRef: string; docsRoot: DocsRoot; model: string | null; writable: readonly string[] },
  ): Promise<void> {
    await this.db
      .updateTable('projects')
      .set({
        base_ref: settings.baseRef,
        docs_root: settings.docsRoot,
        model: settings.model,
        writable: joinWritable(settings.writable),
      })
      .where('id', '=', projectId)
      .execute();
  }

  /** Disables the projects of an installation (uninstalled or suspended); returns their ids. */
  async disableInstallation(installationId: number, now = new Date()): Promise<string[]> {
    const rows = await this.db
      .selectFrom('projects')
      .select('id')
      .where('installation_id', '=', installationId)
      .where('disabled_at', 'is', null)
      .execute();
    for (const row of rows) await this.projects.setDisabled(row.id, true, now);
    return rows.map((row) => row.id);
  }

  /** A job by id alone: webhooks and the status watcher know the job before its project. */
  async jobById(jobId: string): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
  }

  /**
   * The job whose pull request is at `link` (the `html_url` GitHub answered when the job opened
   * it, kept as the job's `prLink`): docwright wrote that link itself, so unlike a marker in a pull
   * request body it cannot be forged. The newest job wins if two ever shared a pull request.
   */
  async jobWithPullRequest(projectId: string, link: string): Promise<JobRow | undefined> {
    return this.db
      .selectFrom('jobs')
      .selectAll()
      .where('project_id', '=', projectId)
      .where(sql<string>`lower(pr_link)`, '=', link.toLowerCase())
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  }

  async threadsOfJob(jobId: string): Promise<JobThreadRow[]> {
    return this.db.selectFrom('job_threads').selectAll().where('job_id', '=', jobId).orderBy('id').execute();
  }

  /** The job a thread talks to: the newest registered in the thread, or the one whose PR it is. */
  async jobOfThread(thread: ThreadKey): Promise<JobThreadRow | undefined> {
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
  async registerThread(
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
  async staleThreadJobs(since: Date, limit = 50): Promise<string[]> {
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
  async touchThreads(jobId: string, now = new Date()): Promise<void> {
    await this.db
      .updateTable('job_threads')
      .set({ updated_at: iso(now) })
      .where('job_id', '=', jobId)
      .execute();
  }

  /**
   * Claims a webhook delivery: true the first time an id is seen, false for a redelivery. Old ids
   * are forgotten on the way so the table stays small.
   */
  async claimDelivery(id: string, event: string, now = new Date()): Promise<boolean> {
    await this.db
      .deleteFrom('webhook_deliveries')
      .where('received_at', '<', iso(new Date(now.getTime() - DELIVERY_MEMORY_MS)))
      .execute();
    const result = await this.db
      .insertInto('webhook_deliveries')
      .values({ id, event, received_at: iso(now) })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .executeTakeFirst();
    return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  /** Forgets a delivery whose handling failed, so GitHub's redelivery can try again. */
  async releaseDelivery(id: string): Promise<void> {
    await this.db.deleteFrom('webhook_deliveries').where('id', '=', id).execute();
  }

  /** `owner/repo` -> `owner-repo` (lowercase, id-safe); a hash suffix when that id is taken. */
  private async freeProjectId(repository: string): Promise<string> {
    const base = repository
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[^a-z0-9]+/, '')
      .slice(0, 56);
    if (!(await this.projects.get(base))) return base;
    const suffix = createHash('sha256').update(repository).digest('hex').slice(0, 7);
    return `${base}-${suffix}`;
  }
}
