import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Octokit } from '@octokit/rest';
import { frameworkOption } from '../core/docs-frameworks.js';
import { folderWithSurroundings } from '../docs/docs-tree.js';
import {
  DOCS_CHECK_NAME,
  docsCheckOutput,
  evidenceLines,
  noCodeChanged,
  type DocsCheckOutput,
} from '../github/docs-check-output.js';
import { DEFAULT_COMMAND } from '../github/index.js';
import { type GitHubApi } from '../github-api/types.js';
import { readPullRequestChange } from '../github-api/pull-request-change.js';
import { classifyRequestError } from '../github-api/request-error.js';
import { SETTINGS_FILE } from '../github/settings-file.js';
import { settingsFromText, settingsKeys, SettingsError } from '../github/settings.js';
import {
  analyzeImpact,
  changesCode,
  describeEvidence,
  pagesLeftStale,
  parseUnifiedDiff,
  readImpactPages,
  type ImpactPage,
} from '../impact/index.js';
import type { AnnotationProperties } from './workflow-commands.js';
import { ActionError } from './action-error.js';
import type { Log } from './context.js';
import type { PullRequestEvent } from './event.js';
import type { DocsCheckInputs } from './inputs.js';

/** The workflow's Octokit: reads the pull request, writes the check run. */
type DocsCheckOctokit = GitHubApi & { rest: Pick<Octokit['rest'], 'checks'> };

/** Everything the docs check needs, built in main.ts. */
export interface DocsCheckContext {
  inputs: DocsCheckInputs;
  octokit: DocsCheckOctokit;
  /** The checkout (GITHUB_WORKSPACE): the repository's files at the commit the workflow runs on. */
  workspace: string;
  /** The GitHub web root the page links start with. */
  webUrl: string;
  log: Log;
}

/** One warning on a stale page, shown on its file when no check run could be written. */
export interface StalePageAnnotation {
  message: string;
  properties: AnnotationProperties;
}

/** What the docs check found and where it said so. */
export interface DocsCheckResult {
  /** The check run's conclusion, title and Markdown, also the job summary's. */
  output: DocsCheckOutput;
  /** The stale pages' paths in the repository (the docs root included), most affected first. */
  stalePaths: string[];
  /**
   * The check run's page, or why GitHub wrote none (the annotations carry the pages then);
   * `refused` when the token may not write check runs (403).
   */
  checkRun: { written: true; url: string } | { written: false; reason: string; refused: boolean };
  /** Empty when the check run was written. */
  annotations: StalePageAnnotation[];
}

/**
 * GitHub shows at most 10 warning annotations of a step; the job summary lists every page, so the
 * rest are named there rather than dropped silently.
 */
const MAX_ANNOTATIONS = 10;

/**
 * The App's docs check, run by the Action on a pull request event: the pull request's diff read
 * through the API (as `/docs sync` reads it), the pages read from the checkout, and the analysis of
 * `docwright impact --check`. The result becomes a check run on the pull request's head; when the
 * token may not write one (a fork's pull request, no `checks: write`), warnings on the pages.
 */
export async function checkPullRequestDocs(
  context: DocsCheckContext,
  event: PullRequestEvent,
): Promise<DocsCheckResult> {
  const { owner, repo, number } = event.pullRequest;
  const change = await readChange(context, event);
  const diff = parseUnifiedDiff(change.diff);
  context.log.info(
    `Read ${owner}/${repo}#${number}: ${diff.files.length} changed ${diff.files.length === 1 ? 'file' : 'files'}.`,
  );
  let output: DocsCheckOutput;
  let stalePaths: string[] = [];
  let annotations: StalePageAnnotation[] = [];
  if (!changesCode(diff)) {
    // As the App's check: no code, no page can be affected, and the docs are not read.
    output = noCodeChanged();
  } else {
    const site = await docsSite(context, event);
    const pages = await readImpactPages(
      folderWithSurroundings(join(context.workspace, site.docsRoot), context.workspace).repository,
      site.docsRoot,
      frameworkOption(site.framework),
    );
    const listed = analyzeImpact({ diff, pages }).pages.filter((page) => page.affected);
    // A page the pull request changes itself counts as brought up to date.
    const stale = pagesLeftStale(listed, diff, site.docsRoot);
    const place = {
      repository: `${owner}/${repo}`,
      branch: event.pullRequest.baseRef,
      docsRoot: site.docsRoot,
      webUrl: context.webUrl,
      ownRepository: true,
    };
    output = docsCheckOutput(listed, stale, place, site.command, describeEvidence);
    stalePaths = stale.map((page) => inRepository(site.docsRoot, page.path));
    annotations = stale.map((page) => annotationOf(page, site.docsRoot));
  }
  context.log.info(`${output.title}.`);
  for (const path of stalePaths) context.log.info(`  ${path}`);
  const checkRun = await writeCheckRun(context, event, output);
  return { output, stalePaths, checkRun, annotations: checkRun.written ? [] : annotations };
}

/** The step's outputs (action.yml): the stale pages as a JSON array and their count. */
export function docsCheckOutputs(result: DocsCheckResult): Record<string, string> {
  return {
    'stale-pages': JSON.stringify(result.stalePaths),
    'stale-count': String(result.stalePaths.length),
  };
}

/** The job summary: what the check run says, and where it is (or why there is none). */
export function docsCheckSummary(result: DocsCheckResult): string {
  const { output, checkRun } = result;
  const instead =
    result.annotations.length > 0 ? ' The stale pages are warnings on this workflow run instead.' : '';
  const where = checkRun.written
    ? `The check run: ${checkRun.url ? `[${DOCS_CHECK_NAME}](${checkRun.url})` : `\`${DOCS_CHECK_NAME}\``}.`
    : checkRun.refused
      ? `No check run was written (${checkRun.reason}): one needs \`permissions: checks: write\`, which a pull request from a fork never gets.${instead}`
      : `No check run was written (${checkRun.reason}).${instead}`;
  return [`## ${DOCS_CHECK_NAME}`, '', `**${output.title}**`, '', output.summary, '', where, ''].join('\n');
}

/** The annotations to show, and a line for the pages past GitHub's bound, if any. */
export function shownAnnotations(result: DocsCheckResult): {
  annotations: StalePageAnnotation[];
  more: string | null;
} {
  const { annotations } = result;
  const left = annotations.length - MAX_ANNOTATIONS;
  return {
    annotations: annotations.slice(0, MAX_ANNOTATIONS),
    more:
      left > 0
        ? `${left} more stale ${left === 1 ? 'page is' : 'pages are'} listed in the job summary.`
        : null,
  };
}

/** The sentence the step fails with under `fail-on-stale: true`, or null. */
export function docsCheckFailure(
  result: DocsCheckResult,
  inputs: Pick<DocsCheckInputs, 'failOnStale'>,
): string | null {
  const count = result.stalePaths.length;
  if (!inputs.failOnStale || count === 0) return null;
  return `${count} docs ${count === 1 ? 'page' : 'pages'} may be stale (${result.stalePaths.join(', ')}): this pull request changes what ${count === 1 ? 'it describes' : 'they describe'} and leaves ${count === 1 ? 'it' : 'them'} as ${count === 1 ? 'it is' : 'they are'}, and \`fail-on-stale\` is true.`;
}

/** The pull request's diff, as `/docs sync` reads it; a refusal says which permission is missing. */
async function readChange(context: DocsCheckContext, event: PullRequestEvent) {
  const { owner, repo, number } = event.pullRequest;
  try {
    return await readPullRequestChange(context.octokit, { owner, repo, number });
  } catch (error) {
    const failed = classifyRequestError(error);
    if (
      failed &&
      (failed.kind === 'forbidden' || failed.kind === 'credentials' || failed.kind === 'not-found')
    )
      throw new ActionError(
        `GitHub refused ${failed.request ?? `to read pull request #${number}`} (${failed.status}: ${failed.messages.join('; ')}). The docs check reads the pull request with \`github-token\`: give the workflow \`permissions: pull-requests: read\`, or pass a token that may read ${owner}/${repo}.`,
      );
    throw error;
  }
}

/** Where the pages are and how to read them: the inputs, else the settings file of the checkout. */
async function docsSite(
  context: DocsCheckContext,
  event: PullRequestEvent,
): Promise<{ docsRoot: string; framework: string | null; command: string }> {
  const { inputs, workspace } = context;
  const text = await readFile(join(workspace, '.github', SETTINGS_FILE), 'utf8').catch(() => null);
  const settings = settingsFromText(text);
  if (settings instanceof SettingsError) throw new ActionError(`${settings.message}.`);
  const keys = settingsKeys(text);
  const repository = `${event.pullRequest.owner}/${event.pullRequest.repo}`;
  const elsewhere = settings.sync.docsRepository;
  if (inputs.docs === null && elsewhere && elsewhere.toLowerCase() !== repository.toLowerCase())
    throw new ActionError(
      `.github/${SETTINGS_FILE} says the docs live in ${elsewhere} (sync.docs_repository), and the Action reads the pages from the checkout: check ${elsewhere} out too (actions/checkout with \`repository\` and \`path\`) and set \`docs\` to its docs folder.`,
    );
  // As `docwright impact --docs docs`: the folder most repositories keep their pages in.
  const docsRoot = inputs.docs ?? (keys.has('docs_root') ? settings.docsRoot : 'docs');
  if (!isFolder(join(workspace, docsRoot)))
    throw new ActionError(
      `The docs folder ${docsRoot === '' ? 'at the root' : `\`${docsRoot}\``} is not in the checkout at ${workspace}: add \`- uses: actions/checkout@v4\` before this step (the pages are read from the checkout), or set \`docs\` to the folder that holds them.`,
    );
  return {
    docsRoot,
    framework: inputs.docsFramework ?? settings.docsFramework,
    command: inputs.command === DEFAULT_COMMAND && keys.has('command') ? settings.command : inputs.command,
  };
}

/**
 * The check run on the pull request's head commit. A token that may not write check runs (403:
 * no `checks: write`, or a fork's read-only token) is expected, and so is any other refusal here:
 * the result is shown as annotations instead, and the check is not failed for where it was shown.
 */
async function writeCheckRun(
  context: DocsCheckContext,
  event: PullRequestEvent,
  output: DocsCheckOutput,
): Promise<DocsCheckResult['checkRun']> {
  const { owner, repo, headSha } = event.pullRequest;
  try {
    const { data } = await context.octokit.rest.checks.create({
      owner,
      repo,
      name: DOCS_CHECK_NAME,
      head_sha: headSha,
      status: 'completed',
      conclusion: output.conclusion,
      output: { title: output.title, summary: output.summary },
    });
    context.log.info(`Wrote the check run ${DOCS_CHECK_NAME}: ${data.html_url ?? data.id}`);
    return { written: true, url: data.html_url ?? '' };
  } catch (error) {
    const failed = classifyRequestError(error);
    if (!failed) throw error;
    const said = failed.messages.length > 0 ? `: ${failed.messages.join('; ')}` : '';
    const reason = `GitHub answered ${failed.request ?? 'the check run'} with ${failed.status}${said}`;
    const instead = 'the job summary and warnings on the stale pages show the result instead';
    if (failed.kind === 'forbidden') context.log.info(`${reason}; ${instead}.`);
    else context.log.warning(`Could not write the check run (${reason}); ${instead}.`);
    return { written: false, reason, refused: failed.kind === 'forbidden' };
  }
}

/** A stale page as a warning on its file, at the page line the strongest evidence quotes. */
function annotationOf(page: ImpactPage, docsRoot: string): StalePageAnnotation {
  const file = inRepository(docsRoot, page.path);
  const quoted = page.evidence.find((item) => 'pageLine' in item);
  const line = quoted && 'pageLine' in quoted ? quoted.pageLine.line : undefined;
  return {
    message: [
      `${file} may be stale: this pull request changes what it describes and leaves it as it is.`,
      ...evidenceLines(page, describeEvidence),
    ].join('\n'),
    properties: { file, line, title: 'docs may be stale' },
  };
}

function inRepository(docsRoot: string, path: string): string {
  return docsRoot === '' ? path : `${docsRoot}/${path}`;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
