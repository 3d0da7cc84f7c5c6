import type { Generated } from 'kysely';
import type { JobStatus } from '../protocol/agent-job.js';

/** Table shapes, as Kysely sees them. Timestamps are ISO 8601 strings (UTC), which sort as text. */
export interface ProjectTable {
  id: string;
  repository: string;
  base_ref: string;
  docs_root: string;
  /** The docs framework the settings name (`docs_framework:`); null: found from the repository's files. */
  docs_framework: string | null;
  domain: string | null;
  model: string | null;
  created_at: string;
  disabled_at: string | null;
  /** Origins allowed to call the assistant from a browser, comma-separated; null means any. */
  allowed_origins: string | null;
  /** Where `repository` lives: a local git path, or `owner/repo` on GitHub. */
  forge: 'local' | 'github';
  /** The GitHub host of a `github` project (`github.com`, an Enterprise Server's); '' for local ones. */
  host: string;
  /** The GitHub App installation that gives access to the repository; null in token mode and locally. */
  installation_id: number | null;
  /**
   * Globs, one a line, of files the write policy refuses by default that jobs may write (the
   * repository's `writable:` setting); null for none.
   */
  writable: string | null;
  /** The settings' `budget:` as JSON (`{ max_turns, max_tokens, max_cost }`); null for none. */
  budget: string | null;
}

export interface ApiKeyTable {
  id: string;
  /** SHA-256 of the whole key, hex; the key itself is never stored. */
  hash: string;
  kind: 'admin' | 'assistant';
  project_id: string | null;
  domain: string | null;
  created_at: string;
  revoked_at: string | null;
  /** When a request last used the key (written a minute apart at most); null: never. */
  last_used_at: string | null;
}

export interface JobTable {
  id: string;
  project_id: string;
  status: JobStatus;
  model: string;
  repository_url: string;
  branch: string;
  pr_link: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
  /** Worker holding the job; null when nobody runs it. */
  lease_owner: string | null;
  /** Until when the lease holds; also "not before" for a retry after a transient error. */
  lease_expires_at: string | null;
  /** Claims of the current run so far; reset when a run finishes. Bounds crash loops. */
  attempts: Generated<number>;
  /** The job branch's head after its last run (null before the first commit). */
  branch_head: string | null;
  /** What every run and attempt of the job spent, as JSON (core/usage.ts); null before the first. */
  usage: string | null;
  /** What earlier attempts of the unfinished run spent, as JSON; null when no run is half done. */
  run_usage: string | null;
  /** The limits the job was created with, as JSON (`{ max_turns, max_tokens, max_cost }`); null for none. */
  budget: string | null;
}

export interface JobMessageTable {
  id: Generated<number>;
  job_id: string;
  role: 'user' | 'agent';
  content: string;
  created_at: string;
  /** For user messages: pending until a run has handled it. Null for the agent's replies. */
  state: 'pending' | 'handled' | null;
  /** For the agent's replies: 1 when the run behind it committed a change, 0 when not; null otherwise. */
  changed: number | null;
  /** For the agent's replies: what the run behind it spent, as JSON; null otherwise. */
  usage: string | null;
}

export interface AssistantThreadTable {
  id: string;
  project_id: string;
  domain: string;
  fp: string;
  created_at: string;
  updated_at: string;
}

export interface AssistantMessageTable {
  id: Generated<number>;
  thread_id: string;
  role: 'user' | 'assistant';
  content: string;
  /** JSON array of the sources cited by an assistant reply. */
  sources: string | null;
  created_at: string;
  /** The id clients know the message by: the stream's `messageId` of a reply, the client's of a question. */
  message_id: string | null;
  /** Of a reply: `answered` or `declined` (the docs did not cover the question); null before it was recorded. */
  outcome: 'answered' | 'declined' | null;
  /** Of a reply: the share (per mille) of the question its best retrieved page held. */
  support: number | null;
  /** Of a reply: JSON array of the closest pages found, `{ url, title }`, best first. */
  closest: string | null;
  /** Of a reply: the same share counted in what the pages say they are about (titles, headings). */
  about: number | null;
  /** Of a reply: JSON array of the question's words no page of the docs holds. */
  unknown_words: string | null;
}

/** A reader's rating of one answer; one per answer, a later rating replaces it. */
export interface FeedbackTable {
  id: Generated<number>;
  project_id: string;
  thread_id: string;
  /** The rated reply's `message_id`. */
  message_id: string;
  rating: 'up' | 'down';
  comment: string | null;
  /** The thread's reader (`fp`), kept so the gaps report counts distinct readers. */
  fp: string;
  created_at: string;
  updated_at: string;
}

/** A report that a docs page is wrong or lacking, sent through the MCP server. */
export interface PageFeedbackTable {
  id: Generated<number>;
  project_id: string;
  /** The page as the report named it: its path or address. */
  page_path: string;
  problem: string;
  /** Id of the key it came with; null on stdio. */
  key_id: string | null;
  created_at: string;
}

/** One GitHub thread (issue or pull request) that talks to a job, and its status comment there. */
export interface JobThreadTable {
  id: Generated<number>;
  job_id: string;
  /** `owner/repo` as GitHub spells it. */
  repository: string;
  issue_number: number;
  /** The thread is the job's own pull request (follow-ups there continue the job). */
  is_pull_request: number;
  /** Null until the status comment is posted. */
  status_comment_id: number | null;
  /** The job's pull request number, once opened (the same on every thread row of the job). */
  pr_number: number | null;
  /** The state last written into the status comment; the comment is edited only when this changes. */
  rendered_state: string | null;
  created_at: string;
  updated_at: string;
}

/** The files one run of a job committed; `landed` once the commit is known to be on the branch. */
interface JobRunFilesTable {
  job_id: string;
  /** The run's `Docwright-Run` trailer: `<job id>/<last handled message id>`. */
  run_key: string;
  /** JSON array of paths, sorted. */
  paths: string;
  landed: number;
  created_at: string;
}

/**
 * One section text's embedding: little-endian float32 values, `dimensions` of them, for the text
 * whose SHA-256 (hex) is `content_hash`, as `model` embedded it for the project's docs index.
 */
interface SectionEmbeddingTable {
  project_id: string;
  /** The embedding model as configured (`openai:text-embedding-3-small`). */
  model: string;
  content_hash: string;
  dimensions: number;
  vector: Uint8Array;
  created_at: string;
}

/** Webhook deliveries already handled, so a redelivery does nothing twice. */
/** A project's "Docs gaps" issue and its weekly refresh. */
export interface GapsIssueTable {
  project_id: string;
  issue_number: number | null;
  refreshed_at: string | null;
}

interface WebhookDeliveryTable {
  id: string;
  event: string;
  received_at: string;
}

export interface Database {
  projects: ProjectTable;
  api_keys: ApiKeyTable;
  jobs: JobTable;
  job_messages: JobMessageTable;
  assistant_threads: AssistantThreadTable;
  assistant_messages: AssistantMessageTable;
  feedback: FeedbackTable;
  page_feedback: PageFeedbackTable;
  job_threads: JobThreadTable;
  webhook_deliveries: WebhookDeliveryTable;
  job_run_files: JobRunFilesTable;
  section_embeddings: SectionEmbeddingTable;
  gaps_issues: GapsIssueTable;
}
