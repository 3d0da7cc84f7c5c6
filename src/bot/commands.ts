import { DocwrightError } from '../core/errors.js';
import {
  isBot,
  isSyncInstruction,
  mayBeFillInstruction,
  mayTrigger,
  parseGapsInstruction,
  parseSlashCommand,
  syncOutsidePullRequestReply,
  type GapsInstruction,
} from '../github/index.js';
import { acknowledgeComment } from '../github-api/reaction.js';
import { getPermissionLevel, hasPermission, type PermissionLevel } from '../github-api/permission.js';
import { pullRequestOfJob } from '../github-api/pull-request-files.js';
import { readPullRequestChange } from '../github-api/pull-request-change.js';
import { formatSyncPrompt } from '../impact/index.js';
import type { ProjectRow } from '../store/index.js';
import { commandTarget, type CommandTarget } from './command-target.js';
import { mayBeCommand, type CommandComment } from './comment-event.js';
import { oncePerDelivery } from './deliveries.js';
import type { RepositoryClient } from './repository-clients.js';
import { applySettings, projectForEvent } from './projects.js';
import {
  agentPrompt,
  closedPullRequestReply,
  emptyInstructionReply,
  failedBeforeJobReply,
  gapsOffReply,
  gapsRefreshedReply,
  permissionReply,
  settingsReply,
  unknownGapReply,
} from './replies.js';
import type { ConfigReader } from './settings-cache.js';
import { SettingsError, type RepositorySettings } from '../github/settings.js';
import { syncDocsProject } from './sync-command.js';
import type { BotDependencies } from './types.js';

/** What a handler gets from Probot's context: the installation's Octokit and `context.config`. */
export interface CommentContext extends ConfigReader {
  octokit: RepositoryClient;
}

/**
 * A comment that may be a command. Cheap checks first: a comment that does not start
 * with a slash, or that the app itself wrote, costs no request and no database write.
 */
export async function handleCommandComment(
  deps: BotDependencies,
  context: CommentContext,
  comment: CommandComment,
): Promise<void> {
  if (!mayBeCommand(comment.comment.body)) return;
  if (deps.appId !== null && comment.comment.viaAppId === deps.appId) return;
  const project = await projectForEvent(deps, {
    fullName: comment.repository.fullName,
    defaultBranch: comment.repository.defaultBranch,
    installationId: comment.installationId,
  });
  if (!project) {
    deps.logger.debug(
      { repository: comment.repository.fullName },
      'comment in a repository without a project',
    );
    return;
  }
  await oncePerDelivery(deps.store, { id: comment.deliveryId, event: 'comment' }, () =>
    handleCommand(deps, context, comment, project),
  );
}

async function handleCommand(
  deps: BotDependencies,
  context: CommentContext,
  comment: CommandComment,
  project: ProjectRow,
): Promise<void> {
  const { body, author } = comment.comment;
  const settings = await deps.settings.get(comment.repository.fullName, context);
  if (settings instanceof SettingsError) {
    if (parseSlashCommand(body, settings.command))
      await reply(context, comment, settingsReply(settings.message));
    return;
  }
  const command = parseSlashCommand(body, settings.command);
  if (!command) return;
  const log = deps.logger.child({ repository: comment.repository.fullName, thread: comment.thread.number });
  if (!mayTrigger(author, settings.allowedBots)) {
    log.info({ author: author.login }, 'command from a bot that is not allowed; ignored');
    return;
  }
  const permission = await checkPermission(context.octokit, comment, settings.requiredPermission);
  if (!permission.ok) {
    log.info({ author: author.login, permission: permission.actual }, 'command without permission');
    await reply(
      context,
      comment,
      permissionReply(author.login, settings.requiredPermission, permission.actual),
    );
    return;
  }
  if (command.instruction === '') {
    await reply(context, comment, emptyInstructionReply(author.login, settings.command));
    return;
  }
  const sync = isSyncInstruction(command.instruction);
  if (sync && !comment.thread.isPullRequest) {
    await reply(context, comment, syncOutsidePullRequestReply(author.login, settings.command));
    return;
  }
  // The 👀 reaction goes out with the first status comment when the thread gets one (one request).
  const react = () =>
    acknowledgeComment(context.octokit, comment.repository, comment.comment).catch((error: unknown) =>
      log.warn({ err: error }, 'could not react to the command'),
    );
  const current = await applySettings(deps, project, settings, comment.repository.defaultBranch);
  const gaps = await gapsInstruction(deps, current, comment, command.instruction);
  if (gaps) {
    await handleGapsInstruction(deps, context, comment, { project: current, settings, react }, gaps);
    return;
  }
  if (!sync) {
    const prompt = agentPrompt(command.instruction, comment.location);
    await startOrContinue(deps, context, comment, { project: current, settings, react }, prompt);
    return;
  }
  // A sync's job works on the docs project, which may be another repository's.
  const docs = await syncDocsProject(deps, current, settings);
  if (typeof docs === 'string') {
    await react();
    await reply(context, comment, docs);
    return;
  }
  const prompt = formatSyncPrompt(await readPullRequestChange(context.octokit, comment.thread));
  await startOrContinue(deps, context, comment, { project: docs, settings, react }, prompt);
}

/** `/docs gaps` anywhere, `/docs fill <gap id>` (in the gaps issue, any word after `fill`). */
async function gapsInstruction(
  deps: BotDependencies,
  project: ProjectRow,
  comment: CommandComment,
  instruction: string,
): Promise<GapsInstruction | null> {
  if (comment.thread.isPullRequest) return parseGapsInstruction(instruction, false);
  // Only a `fill <word>` costs the look-up of the gaps issue's number.
  const inGapsIssue =
    mayBeFillInstruction(instruction) &&
    (await deps.gapsIssues.issueNumber(project.id)) === comment.thread.number;
  return parseGapsInstruction(instruction, inGapsIssue);
}

/**
 * `/docs gaps` refreshes the repository's "Docs gaps" issue (opening it the first time), when the
 * settings ask for one; `/docs fill <gap id>` starts a job from the gap, as any command starts one.
 */
async function handleGapsInstruction(
  deps: BotDependencies,
  context: CommentContext,
  comment: CommandComment,
  start: StartOptions,
  instruction: GapsInstruction,
): Promise<void> {
  const { project, settings, react } = start;
  const login = comment.comment.author.login;
  if (instruction.kind === 'refresh') {
    await react();
    if (!settings.gaps.issue) {
      await reply(context, comment, gapsOffReply(login, settings.command));
      return;
    }
    const refreshed = await deps.gapsIssues.refresh(context.octokit, project, settings);
    if (refreshed.kind === 'off') return;
    deps.logger.info(
      { project: project.id, issue: refreshed.issueNumber, gaps: refreshed.gaps },
      `docs gaps issue ${refreshed.kind} on a command`,
    );
    await reply(context, comment, gapsRefreshedReply(login, refreshed));
    return;
  }
  const found = await deps.gapsIssues.source.gap(project.id, instruction.gapId, settings.gaps.since);
  if (!found) {
    await react();
    await reply(context, comment, unknownGapReply(login, instruction.gapId, settings));
    return;
  }
  // Each gap is its own job, even when the gaps issue already talks to another one.
  await startOrContinue(deps, context, comment, start, found.prompt, { create: true });
}

interface StartOptions {
  project: ProjectRow;
  settings: RepositorySettings;
  react: () => Promise<void>;
}

/** Creates the thread's job or sends it the follow-up, registers the thread, shows "working". */
async function startOrContinue(
  deps: BotDependencies,
  context: CommentContext,
  comment: CommandComment,
  start: StartOptions,
  prompt: string,
  options: { create?: boolean } = {},
): Promise<void> {
  const { project, settings, react } = start;
  const target: CommandTarget = options.create
    ? { kind: 'create' }
    : await commandTarget(deps, project, comment);
  if (target.kind === 'closed') {
    await react();
    await reply(context, comment, closedPullRequestReply(target.job.id, settings.command));
    return;
  }
  let jobId: string;
  try {
    const job =
      target.kind === 'follow-up'
        ? await deps.jobs.message(project.id, target.job.id, prompt)
        : await deps.jobs.create(project.id, prompt, { branchPrefix: settings.branchPrefix });
    jobId = job.id;
  } catch (error) {
    // A disabled project, or a job archived a moment ago: say so where the request was made.
    if (!DocwrightError.isInstance(error)) throw error;
    await react();
    await reply(context, comment, failedBeforeJobReply(error.message));
    return;
  }
  const prLink = target.kind === 'follow-up' ? target.job.pr_link : null;
  await deps.store.githubThreads.register({
    jobId,
    repository: comment.repository.fullName,
    issueNumber: comment.thread.number,
    isPullRequest: comment.thread.isPullRequest,
    prNumber: prLink ? (pullRequestOfJob(prLink, comment.repository.fullName)?.number ?? null) : null,
  });
  deps.logger.info(
    { job: jobId, project: project.id, thread: `${comment.repository.fullName}#${comment.thread.number}` },
    target.kind === 'follow-up' ? 'follow-up queued from a comment' : 'job created from a comment',
  );
  await deps.watcher.refresh(jobId, {
    repository: comment.repository.fullName,
    issueNumber: comment.thread.number,
    nodes: comment.nodes,
    react,
  });
}

/**
 * Whether the author may trigger work. Allowed bots were named by the repository, so they pass;
 * the repository's owner always has admin, which saves a request; everyone else is looked up.
 */
async function checkPermission(
  octokit: RepositoryClient,
  comment: CommandComment,
  required: PermissionLevel,
): Promise<{ ok: boolean; actual: PermissionLevel }> {
  const { author, association } = comment.comment;
  if (isBot(author)) return { ok: true, actual: 'none' };
  const actual =
    association === 'OWNER' ? 'admin' : await getPermissionLevel(octokit, comment.repository, author.login);
  return { ok: hasPermission(actual, required), actual };
}

async function reply(context: CommentContext, comment: CommandComment, body: string): Promise<void> {
  await context.octokit.rest.issues.createComment({
    owner: comment.repository.owner,
    repo: comment.repository.repo,
    issue_number: comment.thread.number,
    body,
  });
}
