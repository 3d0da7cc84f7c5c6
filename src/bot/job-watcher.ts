import { StatusCommentWriter } from '../github/index.js';
import { listChangedFiles, pullRequestOfJob, type ChangedFiles } from '../github-api/pull-request-files.js';
import { reactAndComment, type CommandNodes } from '../github/acknowledge.js';
import { hasStatus } from '../github-api/request-error.js';
import type { Logger } from '../core/logger.js';
import type { JobRow, JobThreadRow, Store } from '../store/index.js';
import type { RepositoryClient, RepositoryClients } from './repository-clients.js';
import { renderJobStatus, type StatusRendering } from './status-view.js';

export interface JobWatcherOptions {
  store: Store;
  clients: RepositoryClients;
  logger: Logger;
  /** How often to look for jobs whose change notice was missed (default 30 s). */
  sweepMs?: number;
  now?: () => Date;
}

/**
 * The command a refresh answers: its thread gets the reaction with its first status comment, in
 * one request when the comment is new; otherwise `react` sends the reaction on its own.
 */
export interface CommandAcknowledgement {
  repository: string;
  issueNumber: number;
  nodes: CommandNodes | null;
  react(): Promise<void>;
}

/** A sweep looks at threads touched within this window; older ones change only through notices. */
const SWEEP_WINDOW_MS = 7 * 24 * 3600 * 1000;

/**
 * Keeps every job's status comments current: told when a job changed (a command, a recorded run),
 * it renders the job's status and edits each thread's comment whose shown state differs. Refreshes
 * of one job run one after another, so two notices never post two comments.
 */
export class JobWatcher {
  private readonly chains = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private readonly now: () => Date;

  constructor(private readonly options: JobWatcherOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** A job changed: refresh its comments in the background (errors are logged). */
  notify(jobId: string): void {
    void this.refresh(jobId);
  }

  /** Refreshes a job's status comments; resolves when they show its current state. Never throws. */
  refresh(jobId: string, acknowledge: CommandAcknowledgement | null = null): Promise<void> {
    const previous = this.chains.get(jobId) ?? Promise.resolve();
    const next = previous.then(async () => {
      const pending = { acknowledge };
      await this.render(jobId, pending);
      // Not sent with a new status comment (the thread had one, or rendering failed): on its own.
      if (pending.acknowledge) await pending.acknowledge.react();
    });
    this.chains.set(jobId, next);
    void next.finally(() => {
      if (this.chains.get(jobId) === next) this.chains.delete(jobId);
    });
    return next;
  }

  /** Resolves when no refresh is under way (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sweep(), this.options.sweepMs ?? 30_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.idle();
  }

  /** Re-renders the jobs that changed since their comments were last looked at. */
  async sweep(): Promise<void> {
    try {
      const since = new Date(this.now().getTime() - SWEEP_WINDOW_MS);
      const jobIds = await this.options.store.githubThreads.staleJobs(since);
      await Promise.all(jobIds.map((jobId) => this.refresh(jobId)));
    } catch (error) {
      this.options.logger.warn({ err: error }, 'status sweep failed');
    }
  }

  private async render(
    jobId: string,
    pending: { acknowledge: CommandAcknowledgement | null } = { acknowledge: null },
  ): Promise<void> {
    const { store, logger } = this.options;
    try {
      const threads = await store.githubThreads.ofJob(jobId);
      const first = threads[0];
      if (!first) return;
      const row = await store.jobs.getUnscoped(jobId);
      if (!row) return;
      const client = await this.options.clients.forRepository(first.repository);
      const rendering = await renderJobStatus(row, await store.jobs.messages(jobId), () =>
        this.changedFiles(client, row, first.repository),
      );
      if (rendering?.view.state === 'pr-opened') await this.recordPullRequest(row, threads);
      for (const thread of threads) {
        if (rendering && needsEdit(thread, rendering, pending.acknowledge))
          await this.show(client, thread, rendering, pending);
      }
    } catch (error) {
      // The threads are left as they were: a thread whose comment was not shown stays older than
      // the job, so the sweep tries it again (threads shown already were touched by `show`).
      logger.warn({ err: error, job: jobId }, 'updating the status comments failed');
      return;
    }
    // Every thread shows the job's state: the sweep waits for the job's next change.
    await store.githubThreads.touch(jobId, this.now()).catch(() => undefined);
  }

  /** Edits the thread's comment (or posts it); a comment someone deleted is posted again. */
  private async show(
    client: RepositoryClient,
    thread: JobThreadRow,
    rendering: StatusRendering,
    pending: { acknowledge: CommandAcknowledgement | null },
  ) {
    const [owner = '', repo = ''] = thread.repository.split('/');
    const target = { owner, repo, number: thread.issue_number, isPullRequest: thread.is_pull_request === 1 };
    const existing =
      thread.status_comment_id === null
        ? await this.reactAndComment(client, thread, rendering, pending)
        : { commentId: Number(thread.status_comment_id), body: null };
    let writer = new StatusCommentWriter(client, target, existing);
    try {
      await writer.show(rendering.body);
    } catch (error) {
      if (!existing || !hasStatus(error, 404)) throw error;
      writer = new StatusCommentWriter(client, target);
      await writer.show(rendering.body);
    }
    await this.options.store.githubThreads.recordRendered(
      thread.id,
      { commentId: writer.id ?? 0, state: rendering.key },
      this.now(),
    );
    this.options.logger.info(
      {
        job: thread.job_id,
        thread: `${thread.repository}#${thread.issue_number}`,
        state: rendering.view.state,
      },
      'status comment updated',
    );
  }

  /**
   * The thread's first status comment and the command's reaction in one request, when this refresh
   * answers a command in this thread; null when not (or when that failed: both go apart then).
   */
  private async reactAndComment(
    client: RepositoryClient,
    thread: JobThreadRow,
    rendering: StatusRendering,
    pending: { acknowledge: CommandAcknowledgement | null },
  ): Promise<{ commentId: number; body: string } | null> {
    const acknowledge = pending.acknowledge;
    const here =
      acknowledge?.issueNumber === thread.issue_number &&
      acknowledge.repository.toLowerCase() === thread.repository.toLowerCase();
    if (!here || !acknowledge.nodes) return null;
    try {
      const commentId = await reactAndComment(client, acknowledge.nodes, rendering.body);
      pending.acknowledge = null;
      return { commentId, body: rendering.body };
    } catch (error) {
      this.options.logger.debug({ err: error }, 'reaction and status comment in one request failed');
      return null;
    }
  }

  private async changedFiles(client: RepositoryClient, row: JobRow, repository: string) {
    // Recorded with the job's runs; a job from before that was kept asks GitHub.
    const known = await this.options.store.runs.changedFiles(row.id);
    if (known) return { paths: known, total: known.length, more: false } satisfies ChangedFiles;
    const pullRequest = row.pr_link ? pullRequestOfJob(row.pr_link, repository) : null;
    if (!pullRequest) return null;
    try {
      return await listChangedFiles(client, pullRequest);
    } catch (error) {
      this.options.logger.debug({ err: error, job: row.id }, 'listing the changed files failed');
      return null;
    }
  }

  /** Comments on the job's pull request continue the job: remember its number on the threads. */
  private async recordPullRequest(row: JobRow, threads: JobThreadRow[]): Promise<void> {
    const repository = threads[0]?.repository;
    const pullRequest = row.pr_link && repository ? pullRequestOfJob(row.pr_link, repository) : null;
    if (pullRequest && threads.some((thread) => thread.pr_number !== pullRequest.number)) {
      await this.options.store.githubThreads.recordPullRequest(row.id, pullRequest.number);
    }
  }
}

/**
 * Whether a thread's status comment must change to show `rendering`. "Working" goes only to the
 * thread the command came from (or one still showing an earlier "working"): the job's other
 * threads keep their last result until the next one is ready, so a follow-up on the pull request
 * edits the issue's comment once, with the new result, instead of twice.
 */
function needsEdit(
  thread: JobThreadRow,
  rendering: StatusRendering,
  command: CommandAcknowledgement | null,
): boolean {
  if (thread.rendered_state === rendering.key) return false;
  if (rendering.view.state !== 'working' || thread.rendered_state === null) return true;
  const here =
    command !== null &&
    command.issueNumber === thread.issue_number &&
    command.repository.toLowerCase() === thread.repository.toLowerCase();
  return here || thread.rendered_state.startsWith('working:');
}
