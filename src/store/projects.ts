import { createHash } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import { budgetText, type JobBudget } from '../core/usage.js';
import { parseDocsRoot, type DocsRoot } from '../write-policy/index.js';
import { compiledRead } from './compiled-read.js';
import type { OpenDatabase } from './database.js';
import type { Database, ProjectTable } from './schema.js';

export type ProjectRow = Selectable<ProjectTable>;

export interface NewProject {
  id: string;
  repository: string;
  baseRef: string;
  /** As typed (`docs/`, `./docs`): normalised here, once; a root outside the repository is refused. */
  docsRoot?: string;
  /** The docs framework named in the settings; absent or null: found from the repository. */
  docsFramework?: string | null;
  /** Globs of files outside the write policy's defaults that jobs may write (`README.md`). */
  writable?: readonly string[];
  domain?: string | null;
  model?: string | null;
  /** Browser origins allowed to call the assistant; empty or absent means any. */
  allowedOrigins?: string[];
  /** `github` for `owner/repo` projects; local git otherwise. */
  forge?: 'local' | 'github';
  /** The GitHub host of a `github` project (`hostOf(config.github.hosts)`). */
  host?: string;
  installationId?: number | null;
  /** Limits of the project's jobs (`budget:` in the settings). */
  budget?: JobBudget;
}

export interface GitHubProjectInput {
  /** The GitHub it lives on (`github.com`, an Enterprise Server's host). */
  host: string;
  /** `owner/repo` as GitHub spells it. */
  repository: string;
  baseRef: string;
  installationId: number | null;
}

/**
 * Projects: a repository (a local git path, or `owner/repo` on a GitHub host with the app's
 * installation), its base branch and docs root, and the assistant domain it answers for.
 */
export class ProjectStore {
  private readonly db: Kysely<Database>;
  // Every job created and every assistant answer looks its project up: both reads are compiled once.
  private readonly byId: (id: string) => Promise<ProjectRow[]>;
  private readonly byDomain: (domain: string) => Promise<ProjectRow[]>;

  constructor(database: OpenDatabase) {
    const db = database.db;
    this.db = db;
    this.byId = compiledRead(
      database,
      (id: string) => db.selectFrom('projects').selectAll().where('id', '=', id),
      ['id?'],
    );
    this.byDomain = compiledRead(
      database,
      (domain: string) => db.selectFrom('projects').selectAll().where('domain', '=', domain),
      ['domain?'],
    );
  }

  async create(project: NewProject, now = new Date()): Promise<ProjectRow> {
    const row: ProjectRow = {
      id: project.id,
      repository: project.repository,
      base_ref: project.baseRef,
      docs_root: parseDocsRoot(project.docsRoot ?? ''),
      docs_framework: project.docsFramework ?? null,
      domain: project.domain ?? null,
      model: project.model ?? null,
      created_at: now.toISOString(),
      disabled_at: null,
      allowed_origins: project.allowedOrigins?.length ? project.allowedOrigins.join(',') : null,
      forge: project.forge ?? 'local',
      host: project.host ?? '',
      installation_id: project.installationId ?? null,
      writable: joinWritable(project.writable ?? []),
      budget: budgetText(project.budget),
    };
    await this.db.insertInto('projects').values(row).execute();
    return row;
  }

  async get(id: string): Promise<ProjectRow | undefined> {
    return (await this.byId(id))[0];
  }

  async getByDomain(domain: string): Promise<ProjectRow | undefined> {
    return (await this.byDomain(domain))[0];
  }

  async list(): Promise<ProjectRow[]> {
    return this.db.selectFrom('projects').selectAll().orderBy('created_at').orderBy('id').execute();
  }

  /** Which forge holds `repository` (the stored `forge` column); undefined when no project has it. */
  async forgeOf(repository: string): Promise<ProjectRow['forge'] | undefined> {
    const row = await this.db
      .selectFrom('projects')
      .select('forge')
      .where('repository', '=', repository)
      .executeTakeFirst();
    return row?.forge;
  }

  /** Changes what a project's settings say; fields left out stay as they are. */
  async update(
    id: string,
    changes: Partial<
      Pick<
        NewProject,
        'baseRef' | 'docsRoot' | 'docsFramework' | 'writable' | 'domain' | 'model' | 'allowedOrigins'
      >
    >,
  ): Promise<ProjectRow | undefined> {
    const set: Partial<ProjectRow> = {};
    if (changes.baseRef !== undefined) set.base_ref = changes.baseRef;
    if (changes.docsRoot !== undefined) set.docs_root = parseDocsRoot(changes.docsRoot);
    if (changes.docsFramework !== undefined) set.docs_framework = changes.docsFramework;
    if (changes.writable !== undefined) set.writable = joinWritable(changes.writable);
    if (changes.domain !== undefined) set.domain = changes.domain;
    if (changes.model !== undefined) set.model = changes.model;
    if (changes.allowedOrigins !== undefined)
      set.allowed_origins = changes.allowedOrigins.length ? changes.allowedOrigins.join(',') : null;
    if (Object.keys(set).length > 0)
      await this.db.updateTable('projects').set(set).where('id', '=', id).execute();
    return this.get(id);
  }

  /** What removing a project takes with it: its jobs and its keys, counted. */
  async holdings(id: string): Promise<{ jobs: number; keys: number }> {
    const count = async (table: 'jobs' | 'api_keys') =>
      Number(
        (
          await this.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('project_id', '=', id)
            .executeTakeFirstOrThrow()
        ).count,
      );
    return { jobs: await count('jobs'), keys: await count('api_keys') };
  }

  /**
   * Deletes a project and everything that belongs to it (jobs, their messages, runs and GitHub
   * threads; keys; assistant threads and readers' feedback; stored vectors) in one transaction; false when none had the id.
   */
  async remove(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const jobs = trx.selectFrom('jobs').select('id').where('project_id', '=', id);
      const threads = trx.selectFrom('assistant_threads').select('id').where('project_id', '=', id);
      await trx.deleteFrom('job_messages').where('job_id', 'in', jobs).execute();
      await trx.deleteFrom('job_run_files').where('job_id', 'in', jobs).execute();
      await trx.deleteFrom('job_threads').where('job_id', 'in', jobs).execute();
      await trx.deleteFrom('jobs').where('project_id', '=', id).execute();
      await trx.deleteFrom('feedback').where('project_id', '=', id).execute();
      await trx.deleteFrom('page_feedback').where('project_id', '=', id).execute();
      await trx.deleteFrom('gaps_issues').where('project_id', '=', id).execute();
      await trx.deleteFrom('assistant_messages').where('thread_id', 'in', threads).execute();
      await trx.deleteFrom('assistant_threads').where('project_id', '=', id).execute();
      await trx.deleteFrom('api_keys').where('project_id', '=', id).execute();
      await trx.deleteFrom('section_embeddings').where('project_id', '=', id).execute();
      const removed = await trx.deleteFrom('projects').where('id', '=', id).executeTakeFirst();
      return removed.numDeletedRows > 0n;
    });
  }

  async setDisabled(id: string, disabled: boolean, now = new Date()): Promise<void> {
    await this.db
      .updateTable('projects')
      .set({ disabled_at: disabled ? now.toISOString() : null })
      .where('id', '=', id)
      .execute();
  }
  /**
   * The GitHub project of a repository on `host`; GitHub names are case-insensitive. The host is
   * part of the identity: the same `owner/repo` on another GitHub is another project.
   */
  async findOnGitHub(host: string, repository: string): Promise<ProjectRow | undefined> {
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
  async upsertOnGitHub(
    input: GitHubProjectInput,
    now = new Date(),
  ): Promise<{ project: ProjectRow; created: boolean }> {
    const existing = await this.findOnGitHub(input.host, input.repository);
    if (existing) {
      await this.db
        .updateTable('projects')
        .set({ installation_id: input.installationId, disabled_at: null, repository: input.repository })
        .where('id', '=', existing.id)
        .execute();
      return { project: (await this.get(existing.id)) as ProjectRow, created: false };
    }
    try {
      const project = await this.create(
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
      const winner = await this.findOnGitHub(input.host, input.repository);
      if (winner) return { project: winner, created: false };
      throw error;
    }
  }
  /** Applies `.github/docwright.yml` to the project row the engine reads. */
  async applySettings(
    projectId: string,
    settings: {
      baseRef: string;
      docsRoot: DocsRoot;
      docsFramework?: string | null;
      model: string | null;
      writable: readonly string[];
      budget?: JobBudget;
    },
  ): Promise<void> {
    await this.db
      .updateTable('projects')
      .set({
        base_ref: settings.baseRef,
        docs_root: settings.docsRoot,
        docs_framework: settings.docsFramework ?? null,
        model: settings.model,
        writable: joinWritable(settings.writable),
        budget: budgetText(settings.budget),
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
    for (const row of rows) await this.setDisabled(row.id, true, now);
    return rows.map((row) => row.id);
  }
  /** `owner/repo` -> `owner-repo` (lowercase, id-safe); a hash suffix when that id is taken. */
  private async freeProjectId(repository: string): Promise<string> {
    const base = repository
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[^a-z0-9]+/, '')
      .slice(0, 56);
    if (!(await this.get(base))) return base;
    const suffix = createHash('sha256').update(repository).digest('hex').slice(0, 7);
    return `${base}-${suffix}`;
  }
}

/** The `writable:` globs as the projects table stores them (one a line; null for none). */
function joinWritable(globs: readonly string[]): string | null {
  return globs.length === 0 ? null : globs.join('\n');
}
