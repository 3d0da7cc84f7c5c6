import type { Kysely, Selectable } from 'kysely';
import { parseDocsRoot } from '../write-policy/index.js';
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
}

/** Projects: a repository, its base branch and docs root, and the assistant domain it answers for. */
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
      domain: project.domain ?? null,
      model: project.model ?? null,
      created_at: now.toISOString(),
      disabled_at: null,
      allowed_origins: project.allowedOrigins?.length ? project.allowedOrigins.join(',') : null,
      forge: project.forge ?? 'local',
      host: project.host ?? '',
      installation_id: project.installationId ?? null,
      writable: joinWritable(project.writable ?? []),
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

  async setDisabled(id: string, disabled: boolean, now = new Date()): Promise<void> {
    await this.db
      .updateTable('projects')
      .set({ disabled_at: disabled ? now.toISOString() : null })
      .where('id', '=', id)
      .execute();
  }
}

/** The `writable:` globs as the projects table stores them (one a line; null for none). */
export function joinWritable(globs: readonly string[]): string | null {
  return globs.length === 0 ? null : globs.join('\n');
}

/** A project's `writable:` globs. */
export function projectWritable(project: Pick<ProjectRow, 'writable'>): string[] {
  return (project.writable ?? '').split('\n').filter((glob) => glob.trim() !== '');
}
