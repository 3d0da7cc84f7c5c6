import { DocwrightClient, pollJob } from '../client/index.js';
import type { BudgetBody, Job } from '../protocol/agent-job.js';
import { parseBudgetLimits } from '../core/usage.js';
import { EXIT, UsageError } from './exit-codes.js';

export interface RemoteOptions {
  url?: string;
  key?: string;
  project?: string;
}

/** The environment the `job` commands read: DOCWRIGHT_URL, DOCWRIGHT_KEY and DOCWRIGHT_PROJECT. */
export type RemoteEnvironment = Readonly<Record<string, string | undefined>>;

export interface Remote {
  client: DocwrightClient;
  projectId: string;
  /** The flags that name this server and project, for a command printed to run later (never the key). */
  flags: string;
}

/** The `job` commands are a thin client of a running server: flags win over DOCWRIGHT_URL/KEY/PROJECT. */
export function remote(options: RemoteOptions, env: RemoteEnvironment, fetchImpl?: typeof fetch): Remote {
  const baseUrl = options.url ?? env['DOCWRIGHT_URL'] ?? 'http://localhost:3000';
  const apiKey = options.key ?? env['DOCWRIGHT_KEY'];
  const projectId = options.project ?? env['DOCWRIGHT_PROJECT'];
  if (!apiKey) throw new UsageError('No API key: pass --key or set DOCWRIGHT_KEY');
  if (!projectId) throw new UsageError('No project: pass --project or set DOCWRIGHT_PROJECT');
  return {
    client: new DocwrightClient({
      baseUrl,
      apiKey,
      fetch: fetchImpl,
      userAgent: 'docwright-cli',
      // Someone at a terminal wants to hear at once that nothing answers, not after four tries.
      retryUnreachable: false,
    }),
    projectId,
    flags: [options.url ? `--url ${options.url}` : '', options.project ? `--project ${projectId}` : '']
      .filter(Boolean)
      .join(' '),
  };
}

export interface WaitOptions {
  wait?: boolean;
  timeout?: string;
}

/** What a waiting command tells its caller: the job as last read, and how waiting ended. */
export interface JobResult {
  job: Job;
  /** `created`: not waited for; `finished`: reached completed, archived or failed; `timed-out`. */
  end: 'created' | 'finished' | 'timed-out';
}

/** How `--wait` reports: progress lines, and how to look again after a time-out. */
export interface WaitReporter {
  note(text: string): void;
  /** The command line as the person can run it again (`docwright`, `npx docwright`). */
  command: string;
}

/** `--max-turns`, `--max-tokens`, `--max-cost`: the limits of a new job, as typed. */
export interface LimitOptions {
  maxTurns?: string;
  maxTokens?: string;
  maxCost?: string;
}

/** The limits as the API takes them; one that is not a positive number is refused in words. */
function budgetOf(options: LimitOptions): BudgetBody {
  const { fields, problems } = parseBudgetLimits(
    { turns: options.maxTurns, tokens: options.maxTokens, cost: options.maxCost },
    (name) => `--${name}`,
  );
  if (problems.length > 0) throw new UsageError(problems.join('; '));
  return fields;
}

/** Creates a job; with --wait, polls until it is completed, archived or failed. */
export async function jobCreate(
  target: Remote,
  prompt: string,
  options: WaitOptions & LimitOptions,
  reporter: WaitReporter,
): Promise<JobResult> {
  const job = await target.client.createJob(target.projectId, prompt, { budget: budgetOf(options) });
  return options.wait ? wait(target, job, options, reporter) : { job, end: 'created' };
}

export async function jobMessage(
  target: Remote,
  id: string,
  prompt: string,
  options: WaitOptions,
  reporter: WaitReporter,
): Promise<JobResult> {
  const job = await target.client.sendMessage(target.projectId, id, prompt);
  return options.wait ? wait(target, job, options, reporter) : { job, end: 'created' };
}

/** Seconds between "still active" lines when nothing changes. */
const QUIET_PROGRESS_S = 15;

async function wait(
  target: Remote,
  start: Job,
  options: WaitOptions,
  reporter: WaitReporter,
): Promise<JobResult> {
  const timeoutS = Number(options.timeout ?? 600);
  if (!Number.isFinite(timeoutS) || timeoutS <= 0)
    throw new UsageError('--timeout must be a number of seconds above 0');
  const began = Date.now();
  const elapsed = () => `${Math.round((Date.now() - began) / 1000)} s`;
  let status = start.status;
  let lastNote = began;
  reporter.note(`Waiting for job ${start.id} (${status}); Ctrl-C stops waiting, not the job.`);
  const { job, end } = await pollJob(target.client, target.projectId, start, {
    intervalMs: 1000,
    timeoutMs: timeoutS * 1000,
    onPoll: (read) => {
      if (read.status !== status) {
        reporter.note(`${elapsed()}: ${status} → ${read.status}`);
        status = read.status;
        lastNote = Date.now();
      } else if (Date.now() - lastNote >= QUIET_PROGRESS_S * 1000) {
        reporter.note(`${elapsed()}: still ${status}`);
        lastNote = Date.now();
      }
    },
    onTransientError: (error) =>
      reporter.note(
        `${elapsed()}: could not read the job (${error instanceof Error ? error.message : String(error)}); trying again`,
      ),
  });
  if (end === 'timed-out') {
    reporter.note(
      `Job ${job.id} is still ${job.status} after ${timeoutS} s; it goes on without us. Look again with:\n  ${[reporter.command, 'job get', target.flags, job.id].filter(Boolean).join(' ')}`,
    );
    return { job, end: 'timed-out' };
  }
  return { job, end: 'finished' };
}

/** The exit status of a job command: 0 completed (or created), 1 failed or archived, 124 timed out. */
export function exitStatus(result: JobResult): number {
  if (result.end === 'timed-out') return EXIT.timedOut;
  if (result.end === 'created') return EXIT.ok;
  return result.job.status === 'completed' ? EXIT.ok : EXIT.failed;
}
