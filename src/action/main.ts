import * as core from '@actions/core';
import { ApiError, DocwrightClient } from '../client/index.js';
import { createOctokit } from '../github/octokit.js';
import type { ActionContext, ActionResult, Log } from './context.js';
import { describeError } from './describe-error.js';
import { readEventPayload, readRunnerEnvironment, type RunnerEnvironment } from './environment.js';
import { parseEvent } from './event.js';
import { parseInputs, parseRouteInputs, type Inputs } from './inputs.js';
import { failureOf, outputsOf, summaryMarkdown } from './outcome.js';
import { routeEvent } from './route.js';
import { runRoute } from './run-action.js';

const read = (name: string): string => core.getInput(name);

const log: Log = {
  info: (message) => core.info(message),
  notice: (message) => core.notice(message),
  warning: (message) => core.warning(message),
};

/**
 * The Action's entry: the only place that reads inputs and the runner's environment.
 * It builds the typed inputs, the API client and the GitHub client, runs the event, and turns the
 * result into outputs, a job summary and, when the job did not succeed, one failing sentence.
 */
export async function run(): Promise<void> {
  const apiKey = core.getInput('api-key');
  if (apiKey) core.setSecret(apiKey); // before anything could print it
  const cancel = new AbortController();
  const abort = () => cancel.abort();
  // The runner sends SIGINT, then SIGTERM, when the run is cancelled: finish the comment, then exit.
  process.once('SIGINT', abort).once('SIGTERM', abort);
  let inputs: Inputs | null = null;
  try {
    // eslint-disable-next-line no-restricted-properties -- the Action's edge, like cli.ts for the CLI
    const environment = readRunnerEnvironment(process.env);
    const event = parseEvent(environment.eventName, await readEventPayload(environment.eventPath));
    // Routing first: a comment that is not a command ends here, whatever the other inputs hold.
    const route = routeEvent(event, parseRouteInputs(read));
    if (route.kind === 'ignore') return log.info(route.reason);
    inputs = parseInputs(read);
    const result = await runRoute(contextOf(inputs, environment, cancel.signal), route);
    await report(result, inputs);
  } catch (error) {
    core.setFailed(describeError(error, inputs ?? { baseUrl: 'base-url', projectId: 'project-id' }));
  } finally {
    process.off('SIGINT', abort).off('SIGTERM', abort);
  }
}

function contextOf(inputs: Inputs, environment: RunnerEnvironment, signal: AbortSignal): ActionContext {
  const client = new DocwrightClient({
    baseUrl: inputs.baseUrl,
    apiKey: inputs.apiKey,
    userAgent: 'docwright-action',
    onRetry: ({ error, delayMs }) =>
      log.info(`${retryReason(error)}; retrying in ${Math.ceil(delayMs / 1000)} s.`),
  });
  const octokit = inputs.githubToken
    ? createOctokit({
        auth: inputs.githubToken,
        baseUrl: environment.hosts.apiUrl,
        userAgent: 'docwright-action',
        log: { warn: (message) => log.warning(message), debug: () => {} },
      })
    : null;
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

async function report(result: ActionResult, inputs: Inputs): Promise<void> {
  for (const [name, value] of Object.entries(outputsOf(result))) core.setOutput(name, value);
  if (result.kind === 'ignored') return;
  try {
    await core.summary.addRaw(summaryMarkdown(result.run, inputs)).write();
  } catch (error) {
    // Outside a runner there is no summary file; the outputs still carry the result.
    log.warning(`Could not write the job summary: ${error instanceof Error ? error.message : String(error)}`);
  }
  const failure = failureOf(result.run, inputs);
  if (failure) core.setFailed(failure);
}

/** A short line for a repeated attempt (describeError's sentences are for the final failure). */
function retryReason(error: unknown): string {
  if (error instanceof ApiError) return `The docwright server answered ${error.status}`;
  return `The docwright server could not be reached (${error instanceof Error ? error.message : String(error)})`;
}
