import { conflict, notFound } from '../core/errors.js';
import { redactSecrets } from '../core/redact.js';
import { budgetText } from '../core/usage.js';
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
 * The jobs as the job service asks for them: create, read, list, follow up, archive. The database's
 * JobStore and the runner's MemoryJobStore both answer it, each writing statuses by the one
 * transition table (job-states.ts).
 */
export interface JobRecords {
  create(job: NewJob, now?: Date): Promise<JobRow>;
  get(projectId: string, id: string): Promise<JobRow | undefined>;
  getWithMessages(
    projectId: string,
    id: string,
  ): Promise<{ job: JobReadRow; messages: JobMessageReadRow[] } | undefined>;
  messages(jobId: string): Promise<JobMessageRow[]>;
  list(projectId: string, options: ListOptions): Promise<JobListRow[]>;
  checkMessage(projectId: string, id: string): Promise<void>;
  addMessage(projectId: string, id: string, prompt: string, now?: Date): Promise<JobRow>;
  archive(projectId: string, id: string, now?: Date): Promise<JobRow>;
}

/** What running a job asks of the jobs: take one that waits, and record how its run ended. */
export interface JobRunRecords {
  claim(owner: string, leaseMs: number, now?: Date): Promise<ClaimedJob | null>;
  finishRun(id: string, owner: string, outcome: RunOutcome, now?: Date): Promise<boolean>;
}

/** The part of the store the job service stands on: its jobs, and the projects they belong to. */
export interface JobServiceStore {
  jobs: JobRecords;
  projects: { get(id: string): Promise<ProjectRow | undefined> };
}

/**
 * A new job's row: active, unleased, nothing spent yet. The one place a job row is made, whichever
 * store keeps it.
 */
export function newJobRow(job: Omit<NewJob, 'prompt'>, now: Date): JobRow {
  const time = now.toISOString();
  return {
    id: job.id,
    project_id: job.projectId,
    status: 'active',
    model: job.model,
    repository_url: job.repositoryUrl,
    branch: job.branch,
    pr_link: null,
    error: null,
    created_at: time,
    updated_at: time,
    archived_at: null,
    lease_owner: null,
    lease_expires_at: null,
    attempts: 0,
    branch_head: null,
    usage: null,
    run_usage: null,
    budget: budgetText(job.budget),
  };
}

/**
 * A request waiting for its run. Requests and replies are kept redacted: a key pasted into a
 * request must neither be stored nor come back through the API, the thread or the next prompt.
 */
export function requestMessage(jobId: string, prompt: string, now: Date): Omit<JobMessageRow, 'id'> {
  return {
    job_id: jobId,
    role: 'user',
    content: redactSecrets(prompt),
    created_at: now.toISOString(),
    state: 'pending',
    changed: null,
    usage: null,
  };
}

/** The reply a finished run leaves, with whether it committed and what the whole run spent. */
export function replyMessage(jobId: string, outcome: RunOutcome, now: Date): Omit<JobMessageRow, 'id'> {
  return {
    job_id: jobId,
    role: 'agent',
    content: redactSecrets(outcome.reply),
    created_at: now.toISOString(),
    state: null,
    changed: outcome.changed === undefined ? null : outcome.changed ? 1 : 0,
    usage: outcome.runUsage ? JSON.stringify(outcome.runUsage) : null,
  };
}

export function jobNotFound(projectId: string, id: string) {
  return notFound(`Job ${id} not found in project ${projectId}`);
}

export function jobTakesNoMessage(id: string) {
  return conflict(`Job ${id} is archived and takes no more messages; create a new job instead`, {
    retryable: false,
  });
}
