import { DocwrightError } from '../core/errors.js';
import { ApiError, DocwrightClient } from '../client/index.js';
import { redactConfiguredSecrets } from '../core/redact.js';
import { createOctokit, type PolicyOctokit } from '../github-api/octokit.js';
import { providerSecrets } from '../models/provider-settings.js';
import type { ActionContext, ActionResult, Log } from './context.js';
import { describeError } from './describe-error.js';
import { readEventPayload, readRunnerEnvironment, type RunnerEnvironment } from './environment.js';
import { parseEvent, type ActionEvent, type PullRequestEvent } from './event.js';
import {
  parseDocsCheckInputs,
  parseGapsIssueInput,
  parseInputs,
  parseRouteInputs,
  type Inputs,
} from './inputs.js';
import { failureOf, nothingChanged, outputsOf, summaryMarkdown } from './outcome.js';
import { routeEvent } from './route.js';
import { runRoute } from './run-action.js';
import { WorkflowCommands } from './workflow-commands.js';

// eslint-disable-next-line no-restricted-properties -- the Action's edge, like cli.ts for the CLI
const step = new WorkflowCommands(process.env);

const read = (name: string): string => step.getInput(name);

const log: Log = {
  info: (message) => step.info(message),
  notice: (message) => step.notice(message),
  warning: (message) => step.warning(message),
};

/**
 * The Action's entry: the only place that reads inputs and the runner's environment.
 * It builds the typed inputs, the API client (or, with no server named, the job service of the
 * runner) and the GitHub client, runs the event, and turns the result into outputs, a job summary
 * and, when the job did not succeed, one failing sentence.
 */
export async function run(): Promise<void> {
  // eslint-disable-next-line no-restricted-properties -- the Action's edge, like cli.ts for the CLI
  const environment = readRunnerEnvironment(process.env);
  // Before anything could print them: the key, the token and the model credentials.
  const secrets = [
    step.getInput('api-key'),
    step.getInput('github-token'),
    ...providerSecrets(environment.providers),
  ];
  for (const secret of secrets) if (secret) step.setSecret(secret);
  redactConfiguredSecrets(secrets);
  const cancel = new AbortController();
  const abort = () => cancel.abort();
  // The runner sends SIGINT, then SIGTERM, when the run is cancelled: finish the comment, then exit.
  process.once('SIGINT', abort).once('SIGTERM', abort);
  let inputs: Inputs | null = null;
  try {
    const event = parseEvent(environment.eventName, await readEventPayload(environment.eventPath));
    // A schedule with `gaps-issue: true` refreshes the "Docs gaps" issue; with no prompt, that is all.
    if (event.kind === 'prompt' && event.eventName === 'schedule' && parseGapsIssueInput(read)) {
      inputs = parseInputs(read);
      await refreshGapsIssue(inputs);
      if (read('prompt') === '') return;
    }
    // In the runner, a slash comment is routed with the repository's settings (its own command,
    // its bots), which opening the runner reads; every other event is routed on the inputs alone,
    // so a comment that is not a command ends here whatever the other inputs hold.
    let runner: Awaited<ReturnType<typeof openRunnerFor>> | null = null;
    if (read('base-url') === '' && startsWithSlash(event)) {
      runner = await openRunnerFor(event, parseInputs(read), environment, cancel);
      inputs = runner.inputs;
    }
    const route = routeEvent(event, inputs ?? parseRouteInputs(read));
    // A pull request without a `prompt`: the docs check, which needs no job, server or runner.
    if (route.kind === 'docs-check') return await docsCheck(route.event, environment);
    if (route.kind === 'ignore') return log.info(route.reason);
    inputs ??= parseInputs(read);
    const octokit = githubClient(inputs.githubToken, environment);
    let context: ActionContext;
    if (inputs.mode === 'server') {
      context = contextOf(inputs, environment, octokit, serverClient(inputs), cancel.signal);
    } else {
      const opened = runner ?? (await openRunnerFor(event, inputs, environment, cancel));
      inputs = opened.inputs;
      context = {
        ...contextOf(inputs, environment, opened.octokit, opened.jobs, cancel.signal),
        stopsWithStep: true,
        poll: { sleep: (ms, signal) => settledOrSlept(opened.jobs.settled(), ms, signal) },
      };
    }
    const result = await runRoute(context, route);
    report(result, inputs);
  } catch (error) {
    step.setFailed(describeError(error, inputs ?? { baseUrl: 'base-url', projectId: 'project-id' }));
  } finally {
    // A job still running in the runner when the step ends (timed out) stops, committing nothing more.
    cancel.abort();
    process.off('SIGINT', abort).off('SIGTERM', abort);
  }
}

function startsWithSlash(event: ActionEvent): boolean {
  return event.kind === 'comment' && event.comment.body.trimStart().startsWith('/');
}

/** The job service of the runner for this event; server mode never loads the runner's parts. */
async function openRunnerFor(
  event: ActionEvent,
  inputs: Inputs,
  environment: RunnerEnvironment,
  cancel: AbortController,
) {
  const octokit = githubClient(inputs.githubToken, environment);
  if (!octokit) throw new DocwrightError('internal_error', 'inputs in the runner always hold a token');
  const { openRunner } = await import('./runner/open-runner.js');
  const runner = await openRunner({
    octokit,
    hosts: environment.hosts,
    repository:
      event.kind === 'comment' ? `${event.thread.owner}/${event.thread.repo}` : environment.repository,
    inputs,
    providers: environment.providers,
    prices: environment.prices,
    thread: event.kind === 'comment' ? event.thread : null,
    debug: (line) => step.debug(line),
    signal: cancel.signal,
    onRetry: (sentence) => log.info(sentence),
  });
  return { ...runner, octokit };
}

function githubClient(token: string, environment: RunnerEnvironment): PolicyOctokit | null {
  return token
    ? createOctokit({
        auth: token,
        baseUrl: environment.hosts.apiUrl,
        userAgent: 'docwright-action',
        log: { warn: (message) => log.warning(message), debug: () => {} },
      })
    : null;
}

/**
 * The docs check of a pull request event: outputs, warnings on the pages when no check run could be
 * written, the job summary always, and a failure only under `fail-on-stale: true`.
 */
async function docsCheck(event: PullRequestEvent, environment: RunnerEnvironment): Promise<void> {
  const inputs = parseDocsCheckInputs(read);
  const octokit = githubClient(inputs.githubToken, environment);
  if (!octokit) throw new DocwrightError('internal_error', 'the docs check inputs always hold a token');
  // The analysis and the docs model are loaded only on a pull request event.
  const check = await import('./docs-check.js');
  const result = await check.checkPullRequestDocs(
    {
      inputs,
      octokit,
      // The runner starts the step in the workspace; outside one, the folder it runs in.
      workspace: environment.workspace ?? process.cwd(),
      webUrl: environment.hosts.webUrl,
      log,
    },
    event,
  );
  for (const [name, value] of Object.entries(check.docsCheckOutputs(result))) step.setOutput(name, value);
  const { annotations, more } = check.shownAnnotations(result);
  for (const annotation of annotations) step.warning(annotation.message, annotation.properties);
  if (more) log.info(more);
  try {
    step.appendSummary(check.docsCheckSummary(result));
  } catch (error) {
    log.warning(`Could not write the job summary: ${error instanceof Error ? error.message : String(error)}`);
  }
  const failure = check.docsCheckFailure(result, inputs);
  if (failure) step.setFailed(failure);
}

/** Asks the server to do now what its weekly refresh of the "Docs gaps" issue does. */
async function refreshGapsIssue(inputs: Inputs): Promise<void> {
  const refreshed = await serverClient(inputs).refreshGapsIssue(inputs.projectId);
  log.notice(
    `The "Docs gaps" issue #${refreshed.issue} of project ${inputs.projectId} was ${refreshed.created ? 'opened' : 'updated'}: ${refreshed.gaps} gap(s).`,
  );
}

function serverClient(inputs: Inputs): DocwrightClient {
  return new DocwrightClient({
    baseUrl: inputs.baseUrl,
    apiKey: inputs.apiKey,
    userAgent: 'docwright-action',
    onRetry: ({ error, delayMs }) =>
      log.info(`${retryReason(error)}; retrying in ${Math.ceil(delayMs / 1000)} s.`),
  });
}

function contextOf(
  inputs: Inputs,
  environment: RunnerEnvironment,
  octokit: PolicyOctokit | null,
  client: ActionContext['client'],
  signal: AbortSignal,
): ActionContext {
  return {
    inputs,
    client,
    octokit,
    links: { run: environment.runUrl },
    serverUrl: environment.hosts.webUrl,
    log,
    signal,
  };
}

/** Polling in the runner wakes when the run ends instead of at the next interval. */
async function settledOrSlept(settled: Promise<void>, ms: number, signal?: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const slept = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await Promise.race([settled, slept]);
  clearTimeout(timer);
}

function report(result: ActionResult, inputs: Inputs): void {
  for (const [name, value] of Object.entries(outputsOf(result))) step.setOutput(name, value);
  if (result.kind === 'ignored') return;
  const unchanged = nothingChanged(result.run);
  if (unchanged) log.warning(unchanged);
  try {
    step.appendSummary(summaryMarkdown(result.run, inputs));
  } catch (error) {
    // Outside a runner there is no summary file; the outputs still carry the result.
    log.warning(`Could not write the job summary: ${error instanceof Error ? error.message : String(error)}`);
  }
  const failure = failureOf(result.run, inputs);
  if (failure) step.setFailed(failure);
}

/** A short line for a repeated attempt (describeError's sentences are for the final failure). */
function retryReason(error: unknown): string {
  if (error instanceof ApiError) return `The docwright server answered ${error.status}`;
  return `The docwright server could not be reached (${error instanceof Error ? error.message : String(error)})`;
}
