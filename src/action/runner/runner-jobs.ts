import { conflict, DocwrightError } from '../../core/errors.js';
import { newJobId } from '../../core/ids.js';
import type { Logger } from '../../core/logger.js';
import { JobService } from '../../engine/job-service.js';
import { toJob } from '../../engine/job-view.js';
import { runJobDirectly, type DirectRunOptions } from '../../engine/run-directly.js';
import { renderPullRequestBody } from '../../github/pull-request-body.js';
import type { Thread } from '../../github/index.js';
import type { Job } from '../../protocol/agent-job.js';
import { parseSyncPrompt } from '../../impact/sync-request.js';
import { acceptsMessage, type JobMessageRow, type JobRow, type ProjectRow } from '../../store/index.js';
import { ActionError } from '../action-error.js';
import { recoverJob, type RecoverOptions, type RunnerJob } from './recover-job.js';

export interface RunnerJobsOptions {
  /** The repository as a project: its docs root, `writable:` globs and base branch from the settings file. */
  project: ProjectRow;
  /** The repository's default branch: no run ever commits to it, whatever a branch prefix makes. */
  defaultBranch: string;
  branchPrefix: string;
  /** How the job runs: the forge on the workflow's token, the agent of its model, the logger. */
  run: Omit<DirectRunOptions, 'pullRequestBody'>;
  recover: RecoverOptions;
  /** The conversation the request came from, linked from the pull request; null for other events. */
  thread: Thread | null;
  logger: Logger;
  /** Aborted when the workflow run is cancelled or the step stops waiting: the run commits nothing more. */
  signal: AbortSignal;
  /** `sync.docs_repository` of the settings when it names a repository other than this one. */
  docsElsewhere: string | null;
}

/**
 * The job service of a runner: what the Action asks a docwright server for (create a job, send it a
 * follow-up, read it), answered in this process. A request starts its run at once; `getJob` shows
 * the job as the server would, `active` until the run ends. A job of an earlier workflow run is
 * rebuilt from GitHub the first time it is asked for.
 */
export class RunnerJobs {
  private readonly jobs = new Map<string, RunnerJob>();
  private running: Promise<void> = Promise.resolve();
  /**
   * Message ids name a run in its commit's trailer (job and message), which a retry looks for to
   * know its commit landed. Recovered jobs number their old messages from 1, so new ones count from
   * the clock: a key never repeats one an earlier workflow run wrote.
   */
  private nextMessageId = Date.now();

  constructor(private readonly options: RunnerJobsOptions) {}

  createJob(_projectId: string, prompt: string): Promise<Job> {
    const { docsElsewhere } = this.options;
    if (docsElsewhere && parseSyncPrompt(prompt))
      throw new ActionError(
        `\`sync.docs_repository\` in .github/docwright.yml names ${docsElsewhere}, and the Action with no server works on the repository of its workflow only, so nothing was started. Run \`docwright impact --check\` in this workflow to list the pages, or let the GitHub App or a docwright server (\`base-url\`) run the sync.`,
      );
    const id = newJobId();
    const time = new Date().toISOString();
    const { project } = this.options;
    const row: JobRow = {
      id,
      project_id: project.id,
      status: 'active',
      model: this.options.recover.model,
      repository_url: this.options.recover.repositoryUrl,
      branch: this.branchOf(id),
      pr_link: null,
      error: null,
      created_at: time,
      updated_at: time,
      archived_at: null,
      lease_owner: null,
      lease_expires_at: null,
      attempts: 0,
      branch_head: null,
    };
    const job: RunnerJob = { row, messages: [], threads: [] };
    this.jobs.set(id, job);
    return Promise.resolve(this.start(job, prompt));
  }

  async getJob(_projectId: string, id: string): Promise<Job> {
    const job = await this.find(id);
    return toJob(job.row, job.messages);
  }

  async sendMessage(_projectId: string, id: string, prompt: string): Promise<Job> {
    const job = await this.find(id);
    if (!acceptsMessage(job.row.status))
      throw conflict(`Job ${id} is archived (its pull request was closed), so it takes no more messages`, {
        retryable: false,
      });
    return this.start(job, prompt);
  }

  /** Resolves when the run going on (if any) has ended: polling need not wait a whole interval. */
  settled(): Promise<void> {
    return this.running;
  }

  private async find(id: string): Promise<RunnerJob> {
    let job = this.jobs.get(id);
    if (!job) {
      job = await recoverJob(this.options.recover, id, this.branchOf(id));
      this.jobs.set(id, job);
    }
    return job;
  }

  private branchOf(id: string): string {
    const branch = JobService.branchOf(id, this.options.branchPrefix);
    const { defaultBranch, project } = this.options;
    if (branch === defaultBranch || branch === project.base_ref)
      throw new DocwrightError(
        'invalid_request',
        `Job ${id} would commit to ${branch}, the repository's ${branch === defaultBranch ? 'default' : 'base'} branch; docwright only commits to a branch of its own (change \`branch_prefix\`)`,
      );
    return branch;
  }

  private start(job: RunnerJob, prompt: string): Job {
    const time = new Date().toISOString();
    const pending: JobMessageRow = {
      id: this.nextMessageId++,
      job_id: job.row.id,
      role: 'user',
      content: prompt,
      created_at: time,
      state: 'pending',
      changed: null,
    };
    const history = job.messages.map((message) => ({ ...message }));
    job.messages.push(pending);
    job.row = { ...job.row, status: 'active', error: null, updated_at: time };
    const view = toJob(job.row, job.messages);
    this.running = this.run(job, pending, history);
    return view;
  }

  private async run(job: RunnerJob, pending: JobMessageRow, history: JobMessageRow[]): Promise<void> {
    const { options } = this;
    let outcome;
    try {
      outcome = await runJobDirectly(
        {
          ...options.run,
          pullRequestBody: (row, reply) => Promise.resolve(this.pullRequestBody(job, row, reply)),
        },
        options.project,
        { job: job.row, pending: [pending] },
        history,
        options.signal,
      );
    } catch (error) {
      const reason = options.signal.aborted
        ? 'The run was stopped before it finished; nothing more was committed.'
        : error instanceof Error
          ? error.message
          : String(error);
      outcome = { handledMessageIds: [pending.id], reply: `The job failed: ${reason}`, error: reason };
    }
    pending.state = 'handled';
    const time = new Date().toISOString();
    job.messages.push({
      id: this.nextMessageId++,
      job_id: job.row.id,
      role: 'agent',
      content: outcome.reply,
      created_at: time,
      state: null,
      changed: outcome.error ? null : outcome.changed ? 1 : 0,
    });
    job.row = {
      ...job.row,
      status: outcome.error ? 'failed' : 'completed',
      error: outcome.error ?? null,
      pr_link: outcome.prLink ?? job.row.pr_link,
      branch_head: outcome.branchHead ?? job.row.branch_head,
      updated_at: time,
    };
  }

  /** The description the App writes: the reply, every request, the threads they came from, the marker. */
  private pullRequestBody(job: RunnerJob, row: JobRow, reply: string): string {
    const { thread, recover } = this.options;
    const threads = [...job.threads];
    const here = thread && {
      repository: `${thread.owner}/${thread.repo}`,
      number: thread.number,
      isPullRequest: thread.isPullRequest,
    };
    const ownPullRequest = row.pr_link?.endsWith(`/pull/${thread?.number}`) ?? false;
    if (here && !ownPullRequest && !threads.some((known) => known.number === here.number)) threads.push(here);
    return renderPullRequestBody({
      jobId: row.id,
      reply,
      requests: job.messages.filter((message) => message.role === 'user').map((message) => message.content),
      threads,
      webUrl: recover.webUrl,
    });
  }
}
