import { DocwrightError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { budgetFromFields } from '../../core/usage.js';
import { JobService } from '../../engine/job-service.js';
import { runJobDirectly, type DirectRunOptions } from '../../engine/run-directly.js';
import { renderPullRequestBody } from '../../github/pull-request-body.js';
import type { ChangedFiles } from '../../github-api/pull-request-files.js';
import type { Thread } from '../../github-api/types.js';
import type { BudgetBody, Job } from '../../protocol/agent-job.js';
import { parseSyncPrompt } from '../../impact/sync-request.js';
import {
  MemoryStore,
  type ClaimedJob,
  type JobRow,
  type ProjectRow,
  type RunOutcome,
} from '../../store/index.js';
import { ActionError } from '../action-error.js';
import { recoverJob, type RecoveredJob, type RecoverOptions } from './recover-job.js';

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

/** The runner's name on the lease of the job it runs. */
const RUNNER = 'runner';
/**
 * How long a claim holds a job. One run goes at a time in a step, so the lease only marks the job
 * taken; it must outlast any run the step allows.
 */
const LEASE_MS = 24 * 60 * 60 * 1000;

/**
 * The job service of a runner: what the Action asks a docwright server for (create a job, send it a
 * follow-up, read it), answered in this process by the server's own JobService over a store held
 * in memory, so a job here moves through the statuses a server's would. A request starts its run
 * at once; `getJob` shows the job as the server would, `active` until the run ends. A job of an
 * earlier workflow run is taken into the store from GitHub the first time it is asked for.
 */
export class RunnerJobs {
  private readonly store: MemoryStore;
  private readonly service: JobService;
  /** The threads each job's pull request links to, kept when its description is rewritten. */
  private readonly threads = new Map<string, RecoveredJob['threads']>();
  /** Jobs of earlier workflow runs being read from GitHub, so two asks read once. */
  private readonly recoveries = new Map<string, Promise<void>>();
  private running: Promise<void> = Promise.resolve();
  /** Jobs of earlier workflow runs that committed: their pull request holds files this step never saw. */
  private readonly committedBefore = new Set<string>();

  constructor(private readonly options: RunnerJobsOptions) {
    // Message ids name a run in its commit's trailer (job and message), which a retry looks for to
    // know its commit landed; counted from the clock, a key never repeats one an earlier workflow
    // run wrote.
    this.store = new MemoryStore([options.project], { firstMessageId: Date.now() });
    this.service = new JobService({
      store: this.store,
      forge: options.run.forge,
      defaultModel: options.recover.model,
      now: options.recover.now,
    });
  }

  async createJob(_projectId: string, prompt: string, options: { budget?: BudgetBody } = {}): Promise<Job> {
    const { docsElsewhere, project } = this.options;
    if (docsElsewhere && parseSyncPrompt(prompt))
      throw new ActionError(
        `\`sync.docs_repository\` in .github/docwright.yml names ${docsElsewhere}, and the Action with no server works on the repository of its workflow only, so nothing was started. Run \`docwright impact --check\` in this workflow to list the pages, or let the GitHub App or a docwright server (\`base-url\`) run the sync.`,
      );
    const job = await this.service.create(project.id, prompt, {
      branchPrefix: this.options.branchPrefix,
      ...(options.budget ? { budget: budgetFromFields(options.budget) } : {}),
    });
    try {
      this.checkBranch(job.id, job.source.ref);
    } catch (error) {
      // Never run, so archived: nothing is left waiting for a run that will not come.
      await this.service.archive(project.id, job.id);
      throw error;
    }
    this.runWaiting();
    return job;
  }

  /** The files the job's pull request changes, when this step's runs are all its commits. */
  async changedFiles(jobId: string): Promise<ChangedFiles | null> {
    if (this.committedBefore.has(jobId)) return null;
    const paths = await this.store.runs.changedFiles(jobId);
    return paths && { paths, total: paths.length, more: false };
  }

  async getJob(_projectId: string, id: string): Promise<Job> {
    await this.known(id);
    return this.service.get(this.options.project.id, id);
  }

  async sendMessage(_projectId: string, id: string, prompt: string): Promise<Job> {
    await this.known(id);
    const job = await this.service.message(this.options.project.id, id, prompt);
    this.runWaiting();
    return job;
  }

  /** Resolves when the run going on (if any) has ended: polling need not wait a whole interval. */
  settled(): Promise<void> {
    return this.running;
  }

  /** Takes a job of an earlier workflow run into the store, read from GitHub, unless it is there. */
  private async known(id: string): Promise<void> {
    if (await this.store.jobs.get(this.options.project.id, id)) return;
    let recovery = this.recoveries.get(id);
    if (!recovery) {
      recovery = this.recover(id);
      this.recoveries.set(id, recovery);
      // A read that failed (GitHub said no for now) is tried again at the next ask.
      void recovery.catch(() => this.recoveries.delete(id));
    }
    await recovery;
  }

  private async recover(id: string): Promise<void> {
    const branch = JobService.branchOf(id, this.options.branchPrefix);
    this.checkBranch(id, branch);
    const recovered = await recoverJob(this.options.recover, id, branch);
    this.store.jobs.importJob(recovered.job, this.options.recover.now());
    this.threads.set(id, recovered.threads);
    // A branch means earlier runs committed files this step never saw: GitHub lists them.
    if (recovered.job.branchHead !== null) this.committedBefore.add(id);
  }

  private checkBranch(id: string, branch: string): void {
    const { defaultBranch, project } = this.options;
    if (branch === defaultBranch || branch === project.base_ref)
      throw new DocwrightError(
        'invalid_request',
        `Job ${id} would commit to ${branch}, the repository's ${branch === defaultBranch ? 'default' : 'base'} branch; docwright only commits to a branch of its own (change \`branch_prefix\`)`,
      );
  }

  /** Runs what waits, one run at a time, after the one going on (a follow-up waits for its job's run). */
  private runWaiting(): void {
    this.running = this.running
      .then(async () => {
        for (;;) {
          const claimed = await this.store.jobs.claim(RUNNER, LEASE_MS, this.options.recover.now());
          if (!claimed) return;
          await this.run(claimed);
        }
      })
      // A run whose end could not be recorded must not stop the runs after it, nor the polling.
      .catch((error: unknown) => this.options.logger.error({ err: error }, 'a run could not be recorded'));
  }

  /** One run of a claimed job, its outcome recorded as a worker records it (a failure included). */
  private async run(claimed: ClaimedJob): Promise<void> {
    const { options } = this;
    const { job, pending } = claimed;
    const history = (await this.store.jobs.messages(job.id)).filter((message) => message.state !== 'pending');
    let outcome: RunOutcome;
    try {
      outcome = await runJobDirectly(
        {
          ...options.run,
          runFiles: this.store.runs,
          pullRequestBody: (row, reply) => this.pullRequestBody(row, reply),
        },
        options.project,
        claimed,
        history,
        options.signal,
      );
    } catch (error) {
      const reason = options.signal.aborted
        ? 'The run was stopped before it finished; nothing more was committed.'
        : error instanceof Error
          ? error.message
          : String(error);
      outcome = {
        handledMessageIds: pending.map((message) => message.id),
        reply: `The job failed: ${reason}`,
        error: reason,
      };
    }
    await this.store.jobs.finishRun(job.id, RUNNER, outcome, options.recover.now());
  }

  /** The description the App writes: the reply, every request, the threads they came from, the marker. */
  private async pullRequestBody(row: JobRow, reply: string): Promise<string> {
    const { thread, recover } = this.options;
    const threads = [...(this.threads.get(row.id) ?? [])];
    const here = thread && {
      repository: `${thread.owner}/${thread.repo}`,
      number: thread.number,
      isPullRequest: thread.isPullRequest,
    };
    const ownPullRequest = row.pr_link?.endsWith(`/pull/${thread?.number}`) ?? false;
    if (here && !ownPullRequest && !threads.some((known) => known.number === here.number)) threads.push(here);
    const messages = await this.store.jobs.messages(row.id);
    return renderPullRequestBody({
      jobId: row.id,
      reply,
      requests: messages.filter((message) => message.role === 'user').map((message) => message.content),
      threads,
      webUrl: recover.webUrl,
    });
  }
}
