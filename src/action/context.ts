import type { DocwrightClient } from '../client/index.js';
import type { StatusLinks } from '../github/index.js';
import type { GitHubApi } from '../github-api/types.js';
import type { ChangedFiles } from '../github-api/pull-request-files.js';
import type { Job } from '../protocol/agent-job.js';
import type { Inputs } from './inputs.js';
import type { PollEnd, PollOptions } from '../client/wait-for-job.js';

/** Where the Action writes what it does: main.ts passes the runner's workflow commands. */
export interface Log {
  info(message: string): void;
  notice(message: string): void;
  warning(message: string): void;
}

/** Everything a request handler needs, built at the edge (main.ts) and passed in. */
export interface ActionContext {
  inputs: Inputs;
  client: Pick<DocwrightClient, 'createJob' | 'getJob' | 'sendMessage'> & {
    /**
     * The files the job's pull request changes, when the jobs run in this step and it booked them
     * all (the runner): the status comment names them without asking GitHub. Null: ask GitHub.
     */
    changedFiles?(jobId: string): Promise<ChangedFiles | null>;
  };
  /** Null when there is no token; only comment events need GitHub. */
  octokit: GitHubApi | null;
  links: StatusLinks;
  /** The GitHub web address, to recognise pull request links GitHub can list files of. */
  serverUrl: string;
  log: Log;
  signal?: AbortSignal;
  /**
   * True when the job runs inside this step (no server): a step that stops waiting stops the job
   * too, and the status comment says so instead of "still running on the server".
   */
  stopsWithStep?: boolean;
  /** Clock and sleep for polling; tests replace them. */
  poll?: Pick<PollOptions, 'now' | 'sleep'>;
}

/** The job a run created or messaged, and how far the Action followed it. */
export interface JobRun {
  job: Job;
  created: boolean;
  /** `not-waited` when `wait` is false. */
  end: PollEnd | 'not-waited';
  commentId: number | null;
}

/** The outcome of one run of the Action. */
export type ActionResult = { kind: 'ignored'; reason: string } | { kind: 'job'; run: JobRun };
