import { ApiKeyStore } from './api-keys.js';
import { AssistantThreadStore } from './assistant-threads.js';
import { openDatabase, type DatabaseLocation, type OpenDatabase } from './database.js';
import { DeliveryStore } from './deliveries.js';
import { FeedbackStore } from './feedback.js';
import { GapsIssueStore } from './gaps-issues.js';
import { GitHubThreadStore } from './github-threads.js';
import { JobStore } from './jobs.js';
import { PageFeedbackStore } from './page-feedback.js';
import { ProjectStore } from './projects.js';
import { RunStore } from './runs.js';
import { SectionEmbeddingStore } from './section-embeddings.js';
import { StorageHealth, type StorageFault } from './storage-faults.js';
import type { Logger } from '../core/logger.js';

export type { ApiKeyRow } from './api-keys.js';
export type { JobThreadRow } from './github-threads.js';
export type {
  ClaimedJob,
  JobListRow,
  JobMessageReadRow,
  JobMessageRow,
  JobReadRow,
  JobRow,
  RunOutcome,
} from './jobs.js';
export { type ProjectRow } from './projects.js';
export type { JobServiceStore } from './job-records.js';
export { MemoryStore, type ImportedJob } from './memory-jobs.js';
export { acceptsMessage } from './job-states.js';
export { projectWritable } from './project-writable.js';
export type { SectionEmbeddingStore } from './section-embeddings.js';
export { VERIFIED_KEY_TTL_MS } from './verified-keys.js';
export { namedStorageError, type StorageFault } from './storage-faults.js';
export type { AnswerRecord, Exchange, ThreadMessage } from './assistant-threads.js';
export type { FeedbackRow } from './feedback.js';

/**
 * The store, one part per concept over one database (SQLite or PostgreSQL with the same code):
 * projects, API keys, jobs and their messages, the runs of jobs, the assistant's threads, the
 * GitHub conversations jobs are talked about in, and the webhook deliveries already handled.
 */
export class Store {
  readonly projects: ProjectStore;
  readonly keys: ApiKeyStore;
  readonly jobs: JobStore;
  /** What each run of a job committed. */
  readonly runs: RunStore;
  /** The assistant's conversations with readers. */
  readonly assistantThreads: AssistantThreadStore;
  /** Readers' ratings of answers, and the exchanges the gaps report reads. */
  readonly feedback: FeedbackStore;
  /** Reports that a docs page is wrong or lacking, from the MCP server. */
  readonly pageFeedback: PageFeedbackStore;
  /** The issues and pull requests each job is talked about in, with their status comments. */
  readonly githubThreads: GitHubThreadStore;
  readonly deliveries: DeliveryStore;
  /** Embedding vectors of the docs' sections, reused across index builds and replicas. */
  readonly sectionEmbeddings: SectionEmbeddingStore;
  /** Each GitHub project's "Docs gaps" issue, and when it was last refreshed. */
  readonly gapsIssues: GapsIssueStore;

  constructor(readonly database: OpenDatabase) {
    this.projects = new ProjectStore(database);
    this.keys = new ApiKeyStore(database.db);
    this.jobs = new JobStore(database);
    this.runs = new RunStore(database.db);
    this.assistantThreads = new AssistantThreadStore(database);
    this.feedback = new FeedbackStore(database.db);
    this.pageFeedback = new PageFeedbackStore(database.db);
    this.githubThreads = new GitHubThreadStore(database.db);
    this.deliveries = new DeliveryStore(database.db);
    this.sectionEmbeddings = new SectionEmbeddingStore(database.db);
    this.gapsIssues = new GapsIssueStore(database.db);
  }

  close(): Promise<void> {
    return this.database.close();
  }
}

/**
 * Opens the store: on PostgreSQL when `databaseUrl` is set (DATABASE_URL), else in `dataDir`
 * (docwright.db), or in memory. A `Config` is a location as it is. A storage fault (the database
 * gone, the disk full) is logged to `logger` once per episode and counted through `onFault`.
 */
export async function openStore(
  location: DatabaseLocation,
  options: { logger?: Logger; onFault?: (fault: StorageFault) => void } = {},
): Promise<Store> {
  return new Store(await openDatabase(location, new StorageHealth(options.logger, options.onFault)));
}
