import path from 'node:path';
import { ApiKeyStore } from './api-keys.js';
import { openSqliteDatabase, type OpenDatabase } from './database.js';
import { JobStore } from './jobs.js';
import { ProjectStore } from './projects.js';
import { ThreadStore } from './threads.js';

export type { ApiKeyRow } from './api-keys.js';
export type { ClaimedJob, JobMessageRow, JobRow, RunOutcome } from './jobs.js';
export type { ProjectRow, NewProject } from './projects.js';
export type { ThreadMessage, ThreadMessageRow, ThreadRow } from './threads.js';

/** The store: projects, keys and jobs over one database (SQLite now; PostgreSQL with the same code later). */
export class Store {
  readonly projects: ProjectStore;
  readonly keys: ApiKeyStore;
  readonly jobs: JobStore;
  readonly threads: ThreadStore;

  constructor(readonly database: OpenDatabase) {
    this.projects = new ProjectStore(database.db);
    this.keys = new ApiKeyStore(database.db);
    this.jobs = new JobStore(database.db);
    this.threads = new ThreadStore(database.db);
  }

  close(): Promise<void> {
    return this.database.close();
  }
}

/** Opens the store in `dataDir` (docwright.db), or in memory with ':memory:'. */
export async function openStore(options: { dataDir: string } | { memory: true }): Promise<Store> {
  const file = 'memory' in options ? ':memory:' : path.join(options.dataDir, 'docwright.db');
  return new Store(await openSqliteDatabase(file));
}
