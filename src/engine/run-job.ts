import type { Agent, AgentResult, AgentRunInput } from '../agent/types.js';
import { checkChanges, type CheckProblem } from '../checks/index.js';
import { UnrecoverableError } from '../core/errors.js';
import type { OutputBudget } from '../write-policy/output-budget.js';
import { Overlay } from '../forge/overlay.js';
import type { CommitInfo, FileChange, Forge, Snapshot } from '../forge/types.js';
import type { Logger } from '../core/logger.js';
import { redactSecrets } from '../core/redact.js';
import { frameworkOption } from '../core/docs-frameworks.js';
import { siteLayoutOf } from '../docs/index.js';
import type { ClaimedJob, JobRow, ProjectRow, RunOutcome } from '../store/index.js';
import { projectWritable } from '../store/project-writable.js';
import { InvalidDocsRootError, parseDocsRoot, WritePolicy } from '../write-policy/index.js';
import { blockingFailure, runReply } from './run-findings.js';
import { formatCommitMessage, oneLine, parseCommitMessage, RUN_TRAILER } from './commit-message.js';

/** Where a run records the files it commits (the store's run files), for the status comments. */
interface RunFileBook {
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
}

/** Enough for a model to fix a broken link or two; a third attempt rarely fixes what two did not. */
const DEFAULT_REPAIR_ROUNDS = 2;

/**
 * One run of a job: snapshot -> agent -> checks -> one commit -> pull request. Safe to repeat after
 * a crash at any point: a commit that already landed is recognised by its run trailer and reused.
 */
export async function runJob(
  deps: RunDependencies,
  project: ProjectRow,
  claimed: ClaimedJob,
  history: { role: 'user' | 'agent'; content: string; created_at: string }[],
  signal: AbortSignal,
): Promise<RunOutcome> {
  const { job, pending } = claimed;
  const repository = project.repository;
  const handledMessageIds = pending.map((message) => message.id);
  const runKey = `${job.id}/${handledMessageIds.at(-1) ?? 0}`;
  // A run's first attempt cannot find a commit of its own on the branch (it made none yet), and the
  // job's books say where its branch is: nothing new has the branch yet, a follow-up starts from the
  // head its last run left. A branch someone moved meanwhile fails the commit's compare-and-set,
  // and the retry looks the branch up (and, after a crash, finds this run's commit by its trailer).
  const firstAttempt = job.attempts <= 1;
  const isNewJob = history.length === 0 && job.pr_link === null;
  const head = firstAttempt
    ? (job.branch_head ?? (isNewJob ? null : await deps.forge.resolveRef(repository, job.branch)))
    : await deps.forge.resolveRef(repository, job.branch);
  const landed = head && !firstAttempt ? await landedRun(deps.forge, repository, head, runKey) : null;

  let reply: string;
  let title: string;
  let committed: string | null = null;
  if (landed) {
    ({ reply, title } = parseCommitMessage(landed.message));
    // The commit landed before a restart: its files count among the job's changes now.
    await deps.runFiles.landed(job.id, runKey);
    deps.logger.info(
      { job: job.id, commit: landed.sha },
      'run already committed before a restart; reusing it',
    );
  } else {
    const base = head ?? (await deps.forge.resolveRef(repository, project.base_ref));
    if (!base)
      throw new UnrecoverableError(`The base branch "${project.base_ref}" does not exist in the repository`);
    const snapshot = await deps.forge.snapshot(repository, base);
    let changes;
    let policy;
    try {
      ({ reply, title, changes, policy } = await editWithChecks(
        deps,
        project,
        claimed,
        history,
        snapshot,
        signal,
      ));
    } finally {
      snapshot.close?.();
    }
    if (changes.length > 0) {
      assertChangesAllowed(changes, policy);
      const message = formatCommitMessage({ title, reply, jobId: job.id, runKey });
      await deps.runFiles.planned(
        job.id,
        runKey,
        changes.map((change) => change.path),
      );
      const commit = await deps.forge.commit({
        repository,
        branch: job.branch,
        parent: base,
        expectedHead: head,
        changes,
        message,
      });
      await deps.runFiles.landed(job.id, runKey);
      committed = commit.sha;
    }
  }

  const branchHead = committed ?? landed?.sha ?? head;
  const branchExists = branchHead !== null;
  let prLink: string | null = job.pr_link;
  if (branchExists) {
    const pullRequest = await deps.forge.ensurePullRequest({
      repository,
      base: project.base_ref,
      head: job.branch,
      title: `docs: ${title}`,
      existing: job.pr_link,
      body: (await deps.pullRequestBody?.(job, reply)) ?? `${reply}\n\n<!-- docwright-job: ${job.id} -->`,
    });
    prLink = pullRequest?.url ?? prLink;
  }
  return { handledMessageIds, reply, prLink, branchHead, changed: committed !== null || landed !== null };
}

/** Runs the agent over an overlay of the snapshot and checks its edits; returns the reply and changes. */
async function editWithChecks(
  deps: RunDependencies,
  project: ProjectRow,
  claimed: ClaimedJob,
  history: { role: 'user' | 'agent'; content: string; created_at: string }[],
  snapshot: Snapshot,
  signal: AbortSignal,
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
