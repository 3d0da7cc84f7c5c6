import type { Agent, AgentResult, AgentRunInput } from '../agent/types.js';
import { checkChanges, type CheckProblem } from '../checks/index.js';
import { UnrecoverableError } from '../core/errors.js';
import type { OutputBudget } from '../write-policy/output-budget.js';
import { Overlay } from '../forge/overlay.js';
import type { CommitInfo, FileChange, Forge, Snapshot } from '../forge/types.js';
import type { Logger } from '../core/logger.js';
import { redactSecrets } from '../core/redact.js';
import {
  budgetOfText,
  dollars,
  mergeBudgets,
  parseUsage,
  UsageMeter,
  type JobBudget,
  type PriceTable,
} from '../core/usage.js';
import { frameworkOption } from '../core/docs-frameworks.js';
import { siteLayoutOf } from '../docs/index.js';
import type { ClaimedJob, JobRow, ProjectRow, RunOutcome } from '../store/index.js';
import { projectWritable } from '../store/project-writable.js';
import { renderPullRequestBody } from '../github/pull-request-body.js';
import { InvalidDocsRootError, parseDocsRoot, WritePolicy } from '../write-policy/index.js';
import { blockingFailure, runReply } from './run-findings.js';
import { formatCommitMessage, oneLine, parseCommitMessage, RUN_TRAILER } from './commit-message.js';

/** Where a run records the files it commits (the store's run files), for the status comments. */
export interface RunFileBook {
  planned(jobId: string, runKey: string, paths: string[]): Promise<void>;
  landed(jobId: string, runKey: string): Promise<void>;
}

export interface RunDependencies {
  forge: Forge;
  /**
   * The files each run commits, kept with the job: the paths before the commit, and "landed" once
   * the commit is on the branch (returned, or found again after a crash by its run trailer), so
   * the status comment names them on any replica without asking the forge.
   */
  runFiles: RunFileBook;
  agentFor(model: string): Agent;
  logger: Logger;
  /** Rounds in which an agent that can repair is handed the docs checks' findings (default 2). */
  maxRepairRounds?: number;
  /** What one run may change (files, bytes per file, bytes in all); default DEFAULT_OUTPUT_BUDGET. */
  outputBudget?: OutputBudget;
  /**
   * The pull request's description (the app adds the requests and a link back to the thread); it
   * must keep the hidden job marker. Default: the agent's reply and the marker.
   */
  pullRequestBody?: (job: JobRow, reply: string) => Promise<string>;
  /** The server's limits for jobs and projects that set none (`DOCWRIGHT_MAX_TURNS` and the others). */
  defaultBudget?: JobBudget;
  /** Prices per model, for the cost of a run and `max_cost` (`DOCWRIGHT_MODEL_PRICES`). */
  prices?: PriceTable;
}

/** Enough for a model to fix a broken link or two; a third attempt rarely fixes what two did not. */
const DEFAULT_REPAIR_ROUNDS = 2;

/**
 * One run of a job: snapshot -> agent -> checks -> one commit -> pull request. Safe to repeat after
 * a crash at any point: a commit that already landed is recognised by its run trailer and reused.
 * Three phases: where the run starts (and whether it already committed), the edit and its commit,
 * and the pull request.
 */
export async function runJob(
  deps: RunDependencies,
  project: ProjectRow,
  claimed: ClaimedJob,
  history: { role: 'user' | 'agent'; content: string; created_at: string }[],
  signal: AbortSignal,
  meter: UsageMeter = new UsageMeter(undefined),
): Promise<RunOutcome> {
  const { job } = claimed;
  const budget = jobBudget(deps, project, job);
  if (budget.maxCostUsd !== undefined && !meter.priced && job.model !== 'builtin')
    throw new UnrecoverableError(
      `The job has a cost limit (max_cost: ${dollars(budget.maxCostUsd)}) but no price is known for ${job.model}, so nothing was started. Set its price in DOCWRIGHT_MODEL_PRICES, or remove max_cost.`,
    );
  const start = await locateRun(deps, project, claimed, history);
  const result = start.landed
    ? await reuseLandedRun(deps, job, start.runKey, start.landed)
    : await editAndCommit(deps, project, claimed, history, signal, start, { budget, meter });
  const prLink = result.branchHead === null ? job.pr_link : await publish(deps, project, job, result);
  return {
    handledMessageIds: start.handledMessageIds,
    reply: result.reply,
    prLink,
    branchHead: result.branchHead,
    changed: result.changed,
    usage: meter.thisAttempt(),
    runUsage: meter.run(),
  };
}

/** Where a run starts: the messages it answers, its key, the branch's head, and its commit if it landed. */
interface RunStart {
  handledMessageIds: number[];
  runKey: string;
  head: string | null;
  landed: CommitInfo | null;
}

/** What the edit came to: the reply and title, where the branch is now, whether the run committed. */
interface RunResult {
  reply: string;
  title: string;
  branchHead: string | null;
  changed: boolean;
}

async function locateRun(
  deps: RunDependencies,
  project: ProjectRow,
  { job, pending }: ClaimedJob,
  history: readonly unknown[],
): Promise<RunStart> {
  const handledMessageIds = pending.map((message) => message.id);
  const runKey = `${job.id}/${handledMessageIds.at(-1) ?? 0}`;
  // A run's first attempt cannot find a commit of its own on the branch (it made none yet), and the
  // job's books say where its branch is: nothing new has the branch yet, a follow-up starts from the
  // head its last run left. A branch someone moved meanwhile fails the commit's compare-and-set,
  // and the retry looks the branch up (and, after a crash, finds this run's commit by its trailer).
  const firstAttempt = job.attempts <= 1;
  const isNewJob = history.length === 0 && job.pr_link === null;
  const head = firstAttempt
    ? (job.branch_head ?? (isNewJob ? null : await deps.forge.resolveRef(project.repository, job.branch)))
    : await deps.forge.resolveRef(project.repository, job.branch);
  const landed = head && !firstAttempt ? await landedRun(deps.forge, project.repository, head, runKey) : null;
  return { handledMessageIds, runKey, head, landed };
}

/** The commit landed before a restart: its message is the run's reply, its files the job's changes. */
async function reuseLandedRun(
  deps: RunDependencies,
  job: JobRow,
  runKey: string,
  landed: CommitInfo,
): Promise<RunResult> {
  await deps.runFiles.landed(job.id, runKey);
  deps.logger.info({ job: job.id, commit: landed.sha }, 'run already committed before a restart; reusing it');
  const { reply, title } = parseCommitMessage(landed.message);
  return { reply, title, branchHead: landed.sha, changed: true };
}

/** The agent's edit of a snapshot, checked, as one commit on the job's branch (none when nothing changed). */
async function editAndCommit(
  deps: RunDependencies,
  project: ProjectRow,
  claimed: ClaimedJob,
  history: { role: 'user' | 'agent'; content: string; created_at: string }[],
  signal: AbortSignal,
  start: RunStart,
  limits: { budget: JobBudget; meter: UsageMeter },
): Promise<RunResult> {
  const { job } = claimed;
  const { repository } = project;
  const base = start.head ?? (await deps.forge.resolveRef(repository, project.base_ref));
  if (!base)
    throw new UnrecoverableError(`The base branch "${project.base_ref}" does not exist in the repository`);
  const snapshot = await deps.forge.snapshot(repository, base);
  let edit;
  try {
    edit = await editWithChecks(deps, project, claimed, history, snapshot, signal, limits);
  } finally {
    snapshot.close?.();
  }
  const { reply, title, changes, policy } = edit;
  if (changes.length === 0) return { reply, title, branchHead: start.head, changed: false };
  assertChangesAllowed(changes, policy);
  await deps.runFiles.planned(
    job.id,
    start.runKey,
    changes.map((change) => change.path),
  );
  const commit = await deps.forge.commit({
    repository,
    branch: job.branch,
    parent: base,
    expectedHead: start.head,
    changes,
    message: formatCommitMessage({ title, reply, jobId: job.id, runKey: start.runKey }),
  });
  await deps.runFiles.landed(job.id, start.runKey);
  return { reply, title, branchHead: commit.sha, changed: true };
}

/** The job's pull request, opened or brought up to date; its link (the job's own when the forge has none). */
async function publish(
  deps: RunDependencies,
  project: ProjectRow,
  job: JobRow,
  result: RunResult,
): Promise<string | null> {
  const body =
    (await deps.pullRequestBody?.(job, result.reply)) ??
    renderPullRequestBody({ jobId: job.id, reply: result.reply, requests: [], threads: [], webUrl: '' });
  const pullRequest = await deps.forge.ensurePullRequest({
    repository: project.repository,
    base: project.base_ref,
    head: job.branch,
    title: `docs: ${result.title}`,
    existing: job.pr_link,
    body,
  });
  return pullRequest?.url ?? job.pr_link;
}

/** The job's limits: its own, then its project's settings, then the server's, limit by limit. */
function jobBudget(deps: RunDependencies, project: ProjectRow, job: JobRow): JobBudget {
  return mergeBudgets(budgetOfText(job.budget), budgetOfText(project.budget), deps.defaultBudget);
}

/** A meter for one run of `job`: priced when the operator set a price for its model, carrying what earlier attempts spent. */
export function usageMeterFor(job: Pick<JobRow, 'model' | 'run_usage'>, prices: PriceTable = {}): UsageMeter {
  return new UsageMeter(prices[job.model], parseUsage(job.run_usage) ?? undefined);
}

/** Runs the agent over an overlay of the snapshot and checks its edits; returns the reply and changes. */
async function editWithChecks(
  deps: RunDependencies,
  project: ProjectRow,
  claimed: ClaimedJob,
  history: { role: 'user' | 'agent'; content: string; created_at: string }[],
  snapshot: Snapshot,
  signal: AbortSignal,
  limits: { budget: JobBudget; meter: UsageMeter },
): Promise<{ reply: string; title: string; changes: FileChange[]; policy: WritePolicy }> {
  const { job, pending } = claimed;
  const instructions = pending.map((message) => message.content);
  const policy = await writePolicy(project, snapshot);
  const input: AgentRunInput = {
    jobId: job.id,
    instructions,
    history: history.map((message) => ({
      role: message.role,
      content: message.content,
      createdAt: message.created_at,
    })),
    files: new Overlay(snapshot, { policy, ...(deps.outputBudget ? { budget: deps.outputBudget } : {}) }),
    policy,
    signal,
    // The worker's logger already names the job.
    logger: deps.logger,
    budget: limits.budget,
    usage: limits.meter,
  };
  const rounds = deps.maxRepairRounds ?? DEFAULT_REPAIR_ROUNDS;
  const checked = await editAndCheck(deps.agentFor(job.model), input, new Overlay(snapshot), rounds);
  signal.throwIfAborted();
  const failure = blockingFailure(checked.problems, checked.result.reply);
  if (failure !== undefined) throw new UnrecoverableError(redactSecrets(failure));
  // An agent may repeat what the request held, secrets included: the reply becomes a commit
  // message, a pull request and a comment, so it is redacted before any of them.
  return {
    policy,
    reply: redactSecrets(runReply(checked.result.reply, checked.changes, checked.problems)),
    title: redactSecrets(checked.result.title ?? oneLine(instructions.join('; '), 72)),
    changes: checked.changes,
  };
}

/**
 * The agent's edits, checked: after the agent runs, the docs checks look at what it
 * changed; an agent that can repair gets their findings back for up to `rounds` rounds, and what is
 * still wrong after that is returned to be listed in the reply and PR body.
 */
async function editAndCheck(
  agent: Agent,
  input: AgentRunInput,
  base: Overlay,
  rounds: number,
): Promise<{ result: AgentResult; changes: FileChange[]; problems: CheckProblem[] }> {
  let result = await agent.run(input);
  let changes = await input.files.changes();
  let problems = await checkEdits(input, base, changes);
  for (let round = 1; round <= rounds && problems.length > 0 && result.repair; round += 1) {
    input.signal.throwIfAborted();
    input.logger.info({ round, problems: problems.length }, 'docs checks failed; the agent repairs');
    result = await result.repair(problems);
    changes = await input.files.changes();
    problems = await checkEdits(input, base, changes);
  }
  return { result, changes, problems };
}

/** The docs checks of a change set; a check that crashes is logged and reported, not fatal. */
async function checkEdits(
  input: AgentRunInput,
  base: Overlay,
  changes: FileChange[],
): Promise<CheckProblem[]> {
  if (changes.length === 0) return [];
  try {
    return await checkChanges({ files: input.files, base, policy: input.policy, changes });
  } catch (error) {
    input.logger.error({ err: error }, 'the docs checks failed to run');
    return [];
  }
}

/**
 * The run's write policy: the pages folder of the site the project's docs root names and the
 * framework's navigation file, the `writable:` globs, the snapshot's symlinks.
 */
async function writePolicy(project: ProjectRow, snapshot: Snapshot): Promise<WritePolicy> {
  try {
    parseDocsRoot(project.docs_root);
    const layout = await siteLayoutOf(snapshot, project.docs_root, frameworkOption(project.docs_framework));
    return new WritePolicy({
      docsRoot: parseDocsRoot(layout.pagesRoot),
      writable: projectWritable(project),
      isSymlink: symlinkTest(snapshot),
      siteFiles: layout.navigationFile === undefined ? [] : [layout.navigationFile],
    });
  } catch (error) {
    if (error instanceof InvalidDocsRootError) throw new UnrecoverableError(error.message);
    throw error;
  }
}

/** The snapshot's symlink test, when it has one (local git snapshots do; see git-snapshot.ts). */
function symlinkTest(snapshot: Snapshot): ((path: string) => boolean) | undefined {
  const withSymlinks = snapshot as Snapshot & { isSymlink?: (path: string) => boolean };
  const isSymlink = withSymlinks.isSymlink;
  return typeof isSymlink === 'function' ? (path) => isSymlink.call(snapshot, path) : undefined;
}

async function landedRun(
  forge: Forge,
  repository: string,
  head: string,
  runKey: string,
): Promise<CommitInfo | null> {
  const commit = await forge.readCommit(repository, head);
  return parseCommitMessage(commit.message).trailers[RUN_TRAILER] === runKey ? commit : null;
}

/**
 * The last word before the commit, whatever an agent claims: every change is one the write
 * policy allows (the overlay already refused the others; this holds for any agent).
 */
function assertChangesAllowed(changes: readonly FileChange[], policy: WritePolicy): void {
  for (const change of changes) policy.assert(change.path);
}
