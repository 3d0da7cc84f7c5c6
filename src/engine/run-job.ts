import type { Agent } from '../agent/types.js';
import { UnrecoverableError } from '../errors.js';
import { normalizePath, Overlay } from '../forge/overlay.js';
import type { CommitInfo, FileChange, Forge } from '../forge/types.js';
import type { Logger } from '../logger.js';
import type { ClaimedJob, ProjectRow, RunOutcome } from '../store/index.js';
import { formatCommitMessage, oneLine, parseCommitMessage, RUN_TRAILER } from './commit-message.js';

export interface RunDependencies {
  forge: Forge;
  agentFor(model: string): Agent;
  logger: Logger;
}

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
  const head = await deps.forge.resolveRef(repository, job.branch);
  const landed = head ? await landedRun(deps.forge, repository, head, runKey) : null;

  let reply: string;
  let title: string;
  if (landed) {
    ({ reply, title } = parseCommitMessage(landed.message));
    deps.logger.info(
      { job: job.id, commit: landed.sha },
      'run already committed before a restart; reusing it',
    );
  } else {
    const base = head ?? (await deps.forge.resolveRef(repository, project.base_ref));
    if (!base)
      throw new UnrecoverableError(`The base branch "${project.base_ref}" does not exist in the repository`);
    const snapshot = await deps.forge.snapshot(repository, base);
    const instructions = pending.map((message) => message.content);
    let changes;
    try {
      const files = new Overlay(snapshot);
      const result = await deps.agentFor(job.model).run({
        jobId: job.id,
        instructions,
        history: history.map((message) => ({
          role: message.role,
          content: message.content,
          createdAt: message.created_at,
        })),
        files,
        docsRoot: project.docs_root,
        signal,
        logger: deps.logger.child({ job: job.id }),
      });
      signal.throwIfAborted();
      reply = result.reply;
      title = result.title ?? oneLine(instructions.join('; '), 72);
      changes = await files.changes();
    } finally {
      snapshot.close?.();
    }
    assertChangesAllowed(changes, project.docs_root);
    if (changes.length > 0) {
      const message = formatCommitMessage({ title, reply, jobId: job.id, runKey });
      await deps.forge.commit({
        repository,
        branch: job.branch,
        parent: base,
        expectedHead: head,
        changes,
        message,
      });
    }
  }

  const branchExists = landed !== null || (await deps.forge.resolveRef(repository, job.branch)) !== null;
  let prLink: string | null = job.pr_link;
  if (branchExists) {
    const pullRequest = await deps.forge.ensurePullRequest({
      repository,
      base: project.base_ref,
      head: job.branch,
      title: `docs: ${title}`,
      body: `${reply}\n\n<!-- docwright-job: ${job.id} -->`,
    });
    prLink = pullRequest?.url ?? prLink;
  }
  return { handledMessageIds, reply, prLink };
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

/** The invariant every agent is held to, whatever it claims: only the docs root, never `.github/`. */
export function assertChangesAllowed(changes: FileChange[], docsRoot: string): void {
  const root = docsRoot === '' ? '' : `${normalizePath(docsRoot)}/`;
  for (const change of changes) {
    const file = normalizePath(change.path);
    if (file === '.github' || file.startsWith('.github/')) {
      throw new UnrecoverableError(
        `The agent tried to change ${file}; nothing under .github/ is ever written`,
      );
    }
    if (root !== '' && !file.startsWith(root)) {
      throw new UnrecoverableError(`The agent tried to change ${file}, outside the docs root ${docsRoot}`);
    }
  }
}
