import { ApiKeyStore } from './api-keys.js';
import { BotStore } from './bot.js';
import { openDatabase, type DatabaseLocation, type OpenDatabase } from './database.js';
import { JobStore } from './jobs.js';
import { ProjectStore } from './projects.js';
import { RunFileStore } from './run-files.js';
import { SectionEmbeddingStore } from './section-embeddings.js';
import { ThreadStore } from './threads.js';

export type { ApiKeyRow } from './api-keys.js';
export type { JobThreadRow, ThreadKey } from './bot.js';
export type { ClaimedJob, JobMessageReadRow, JobMessageRow, JobReadRow, JobRow, RunOutcome } from './jobs.js';
export { projectWritable, type ProjectRow, type NewProject } from './projects.js';
export type { SectionEmbeddingStore } from './section-embeddings.js';
export type { ThreadMessage, ThreadMessageRow, ThreadRow } from './threads.js';

/** The store: projects, keys and jobs over one database, SQLite or PostgreSQL with the same code. */
export class Store {
  readonly projects: ProjectStore;
  readonly keys: ApiKeyStore;
  readonly jobs: JobStore;
  readonly threads: ThreadStore;
  /** The GitHub App's tables: installations' projects, job threads, webhook deliveries. */
  readonly bot: BotStore;
  /** The files each run of a job committed. */
  readonly runFiles: RunFileStore;
  /** Embedding vectors of the docs' sections, reused across index builds and replicas. */
  readonly sectionEmbeddings: SectionEmbeddingStore;

  constructor(readonly database: OpenDatabase) {
    this.projects = new ProjectStore(database);
    this.keys = new ApiKeyStore(database.db);
    this.jobs = new JobStore(database);
    this.threads = new ThreadStore(database);
    this.bot = new BotStore(database.db, this.projects);
    this.runFiles = new RunFileStore(database.db);
    this.sectionEmbeddings = new SectionEmbeddingStore(database.db);
  }

  close(): Promise<void> {
    return this.database.close();
  }
}

/**
 * Opens the store: on PostgreSQL when `databaseUrl` is set (DATABASE_URL), else in `dataDir`
 * (docwright.db), or in memory. A `Config` is a location as it is.
 */
export async function openStore(location: DatabaseLocation): Promise<Store> {
  return new Store(await openDatabase(location));
}
