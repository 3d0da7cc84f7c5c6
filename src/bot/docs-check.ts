import type { Octokit } from '@octokit/rest';
import { DocwrightError, notFound } from '../core/errors.js';
import { redactSecrets } from '../core/redact.js';
import { docsTreeOf } from '../docs/index.js';
import { readPullRequestChange } from '../github/pull-request-change.js';
import { classifyRequestError } from '../github/request-error.js';
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

/** The fields of a rerequested check run (`check_run.rerequested`) that say what it checked. */
export interface RerequestedCheckRun {
  name: string;
  head_sha: string;
  external_id: string | null;
  app: { id: number } | null;
  pull_requests: readonly { number: number }[];
}

/**
 * The pull request a check run someone asked to run again was written for, when the run is this
 * app's docs check: the number it was created with, or the one GitHub lists with it. GitHub sends
 * every app with the Checks permission the re-runs of other apps' check runs too; those are null.
 */
export function rerequestedPullRequest(appId: number | null, run: RerequestedCheckRun): number | null {
  if (appId === null || run.app?.id !== appId || run.name !== DOCS_CHECK_NAME) return null;
  if (run.external_id && /^\d+$/.test(run.external_id)) return Number(run.external_id);
  return run.pull_requests[0]?.number ?? null;
}

/** The fields of a rerequested check suite (`check_suite.rerequested`) that say what it checked. */
export interface RerequestedCheckSuite {
  id: number;
  head_sha: string;
  app: { id: number | null } | null;
  pull_requests: readonly { number: number }[];
}

/**
 * The pull requests whose docs check "Re-run all checks" on this app's check suite asks for again:
 * those GitHub lists with the suite or, for a pull request from a fork (none listed), those its
 * docs check runs were written for. Other apps' suites, which GitHub sends too, have none.
 */
export async function rerequestedSuitePullRequests(
  appId: number | null,
  octokit: { rest: Pick<Octokit['rest'], 'checks'> },
  repository: EventRepository,
  suite: RerequestedCheckSuite,
): Promise<number[]> {
  if (appId === null || suite.app?.id !== appId) return [];
  const listed = suite.pull_requests.map((pullRequest) => pullRequest.number);
  if (listed.length > 0) return [...new Set(listed)];
  const { data } = await octokit.rest.checks.listForSuite({
    owner: repository.owner,
    repo: repository.repo,
    check_suite_id: suite.id,
    check_name: DOCS_CHECK_NAME,
    per_page: 100,
  });
  const written = data.check_runs
    .map((run) => run.external_id ?? '')
    .filter((id) => /^\d+$/.test(id))
    .map(Number);
  return [...new Set(written)];
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
    return await readImpactPages(docsTreeOf(snapshot, docs.docs_root));
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
