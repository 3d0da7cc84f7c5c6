import type { Octokit } from '@octokit/rest';
import { DocwrightError, notFound } from '../core/errors.js';
import { redactSecrets } from '../core/redact.js';
import { frameworkOption } from '../core/docs-frameworks.js';
import { readPullRequestChange } from '../github-api/pull-request-change.js';
import { classifyRequestError } from '../github-api/request-error.js';
import { SettingsError, type RepositorySettings } from '../github/settings.js';
import {
  analyzeImpact,
  changesCode,
  pagesLeftStale,
  parseUnifiedDiff,
  readImpactPages,
} from '../impact/index.js';
import type { ProjectRow } from '../store/index.js';
import type { EventRepository } from './comment-event.js';
import {
  DOCS_CHECK_NAME,
  docsCheckOutput,
  noCodeChanged,
  uncheckedOutput,
  type DocsCheckOutput,
} from './docs-check-output.js';
import { applySettings, projectForEvent } from './projects.js';
import type { RepositoryClient } from './repository-clients.js';
import type { ConfigReader } from './settings-cache.js';
import { docsProjectOf, docsRepositoryNotInstalled } from './sync-command.js';
import type { BotDependencies } from './types.js';

/** The fields of a pull request that was opened, reopened or pushed to that the docs check needs. */
export interface CheckedPullRequest {
  repository: EventRepository;
  installationId: number | null;
  number: number;
  /** The commit the check run belongs to. */
  headSha: string;
}

/** The repositories told, per running app, that token mode writes no docs check. */
const tokenModeWarnings = new WeakMap<BotDependencies, Set<string>>();

/** The installation's Octokit, which also writes check runs. */
type ChecksClient = RepositoryClient & { rest: Pick<Octokit['rest'], 'checks'> };

/**
 * `sync.check: true`: a pull request gets a check run listing the docs pages its change makes
 * stale, from the same diff `/docs sync` reads and the same analysis as `docwright impact`, with no
 * job and no model. A repository without the setting costs the settings read and nothing more.
 * Whatever goes wrong reading the change or the docs becomes a warning on the pull request, never
 * a failed delivery.
 */
export async function checkPullRequestDocs(
  deps: BotDependencies,
  context: ConfigReader & { octokit: ChecksClient },
  pullRequest: CheckedPullRequest,
): Promise<void> {
  const { repository } = pullRequest;
  const settings = await deps.settings.get(repository.fullName, context);
  if (settings instanceof SettingsError || !settings.sync.check) return;
  const log = deps.logger.child({ pullRequest: `${repository.fullName}#${pullRequest.number}` });
  // GitHub lets only an app write check runs: a token's request would be refused. Said once per
  // repository and process, not on every pull request.
  if (deps.appId === null) {
    const warned = tokenModeWarnings.get(deps) ?? new Set<string>();
    tokenModeWarnings.set(deps, warned);
    if (warned.has(repository.fullName)) return;
    warned.add(repository.fullName);
    log.warn('sync.check is set, but only the GitHub App writes check runs: no docs check in token mode');
    return;
  }
  let output: DocsCheckOutput;
  try {
    const project = await projectForEvent(deps, {
      fullName: repository.fullName,
      defaultBranch: repository.defaultBranch,
      installationId: pullRequest.installationId,
    });
    if (!project) return;
    output = await docsCheck(deps, context.octokit, { project, settings, pullRequest });
  } catch (error) {
    log.warn({ err: error }, 'the docs check could not read the change or the docs');
    output = uncheckedOutput(
      `The docs pages this pull request affects could not be listed: ${failureSentence(error)}`,
    );
  }
  try {
    await context.octokit.rest.checks.create({
      owner: repository.owner,
      repo: repository.repo,
      name: DOCS_CHECK_NAME,
      head_sha: pullRequest.headSha,
      // The pull request a "Re-run" is for: GitHub lists none for a pull request from a fork.
      external_id: String(pullRequest.number),
      status: 'completed',
      conclusion: output.conclusion,
      output: { title: output.title, summary: output.summary },
    });
    log.info({ conclusion: output.conclusion, title: output.title }, 'docs check run written');
  } catch (error) {
    log.warn({ err: error }, 'the docs check run could not be written');
  }
}

/** A check run or suite someone asked to run again ("Re-run", "Re-run all checks"). */
export interface RerequestedCheck {
  repository: EventRepository;
  installationId: number | null;
  /** The commit it checked. */
  headSha: string;
  /** The app that wrote it: GitHub sends every app with the Checks permission other apps' re-runs too. */
  appId: number | null;
  /** The pull requests GitHub lists with it: none for a pull request from a fork. */
  pullRequests: readonly { number: number }[];
  /** What was re-run: a check run (its name and `external_id`) or a suite (its id, to list its runs). */
  rerun: { kind: 'run'; name: string; externalId: string | null } | { kind: 'suite'; suiteId: number };
}

/**
 * "Re-run" on the docs check, or "Re-run all checks" on this app's suite: the docs check of the same
 * commit written again for each pull request it was for. Those are the ones GitHub lists with it or,
 * for a fork's (none listed), the number each docs check run carries as its `external_id`. Other
 * apps' checks cost nothing; a suite whose runs cannot be listed is a warning, not a failed delivery.
 */
export async function rerunDocsCheck(
  deps: BotDependencies,
  context: ConfigReader & { octokit: ChecksClient },
  check: RerequestedCheck,
): Promise<void> {
  if (deps.appId === null || check.appId !== deps.appId) return;
  if (check.rerun.kind === 'run' && check.rerun.name !== DOCS_CHECK_NAME) return;
  let numbers: number[];
  try {
    numbers = await pullRequestsOf(context.octokit, check);
  } catch (error) {
    deps.logger.warn(
      { err: error, repository: check.repository.fullName },
      'the pull requests of a re-run check suite could not be listed: no docs check written',
    );
    return;
  }
  for (const number of numbers) {
    await checkPullRequestDocs(deps, context, {
      repository: check.repository,
      installationId: check.installationId,
      number,
      headSha: check.headSha,
    });
  }
}

/** The pull requests a re-run docs check was written for (see `rerunDocsCheck`). */
async function pullRequestsOf(octokit: ChecksClient, check: RerequestedCheck): Promise<number[]> {
  const { rerun } = check;
  const listed = check.pullRequests.map((pullRequest) => pullRequest.number);
  if (rerun.kind === 'run') {
    // A run was written for one pull request: the first GitHub lists, for a run without the number.
    const written = pullRequestOfRun(rerun.externalId);
    return written !== null ? [written] : listed.slice(0, 1);
  }
  if (listed.length > 0) return [...new Set(listed)];
  const { data } = await octokit.rest.checks.listForSuite({
    owner: check.repository.owner,
    repo: check.repository.repo,
    check_suite_id: rerun.suiteId,
    check_name: DOCS_CHECK_NAME,
    per_page: 100,
  });
  const numbers = data.check_runs.map((run) => pullRequestOfRun(run.external_id));
  return [...new Set(numbers.filter((number) => number !== null))];
}

/** The pull request number a docs check run was created with (`external_id`), if it has one. */
function pullRequestOfRun(externalId: string | null | undefined): number | null {
  return externalId && /^\d+$/.test(externalId) ? Number(externalId) : null;
}

/** Reads the change, then (when it changes code) the docs, and says which pages it leaves stale. */
async function docsCheck(
  deps: BotDependencies,
  octokit: RepositoryClient,
  check: { project: ProjectRow; settings: RepositorySettings; pullRequest: CheckedPullRequest },
): Promise<DocsCheckOutput> {
  const { settings, pullRequest } = check;
  const { repository } = pullRequest;
  const project = await applySettings(deps, check.project, settings, repository.defaultBranch);
  const docs = await docsProjectOf(deps, project, settings);
  if (!docs) {
    return uncheckedOutput(
      docsRepositoryNotInstalled(settings.sync.docsRepository ?? '', 'its pages could not be read'),
    );
  }
  const change = await readPullRequestChange(octokit, {
    owner: repository.owner,
    repo: repository.repo,
    number: pullRequest.number,
  });
  const diff = parseUnifiedDiff(change.diff);
  if (!changesCode(diff)) return noCodeChanged();
  const pages = await readDocsPages(deps, docs);
  const listed = analyzeImpact({ diff, pages }).pages.filter((page) => page.affected);
  const ownRepository = docs.id === project.id;
  // Only a page of this repository can be changed by its pull request.
  const stale = ownRepository ? pagesLeftStale(listed, diff, docs.docs_root) : listed;
  const place = {
    repository: docs.repository,
    branch: docs.base_ref,
    docsRoot: docs.docs_root,
    webUrl: deps.webUrl,
    ownRepository,
  };
  return docsCheckOutput(listed, stale, place, settings.command);
}

/** The pages at the head of the docs project's base branch: the docs a sync job would update. */
async function readDocsPages(deps: BotDependencies, docs: ProjectRow) {
  const commit = await deps.forge.resolveRef(docs.repository, docs.base_ref);
  if (!commit) {
    throw notFound(
      `the branch ${docs.base_ref} of ${docs.repository}, where the docs are read, does not exist`,
    );
  }
  const snapshot = await deps.forge.snapshot(docs.repository, commit);
  try {
    return await readImpactPages(snapshot, docs.docs_root, frameworkOption(docs.docs_framework));
  } finally {
    snapshot.close?.();
  }
}

/**
 * Why the check could not run, for anyone who can read the pull request: the sentence of a docwright
 * error (the forge's, for the docs), or what GitHub answered to which request; never the text of an
 * unexpected error, which goes to the log only.
 */
function failureSentence(error: unknown): string {
  const failed = classifyRequestError(error);
  const said = failed && failed.messages.length > 0 ? ` (${failed.messages.join('; ')})` : '';
  const text = DocwrightError.isInstance(error)
    ? error.message
    : failed
      ? `GitHub answered ${failed.request ?? 'a request'} with HTTP ${failed.status}${said}`
      : 'an unexpected error; the server log has the details';
  const sentence = redactSecrets(text);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
