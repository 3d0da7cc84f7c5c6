import { readFile } from 'node:fs/promises';
import { runnerHosts, type GitHubHosts } from '../github-api/hosts.js';
import { modelProvidersFrom, type ModelProviders } from '../models/models.js';
import { ActionError } from './action-error.js';
import { parsePriceTable, type PriceTable } from '../core/usage.js';

/** What the runner tells the Action about the run (GitHub's default environment variables). */
export interface RunnerEnvironment {
  eventName: string;
  eventPath: string | null;
  /** GITHUB_API_URL and GITHUB_SERVER_URL: github.com, or the Enterprise Server the runner belongs to. */
  hosts: GitHubHosts;
  /** `owner/repo`, the repository the workflow belongs to (GITHUB_REPOSITORY). */
  repository: string;
  /** Link to this workflow run, for the status comment's footer. */
  runUrl: string | undefined;
  /** The folder actions/checkout fills (GITHUB_WORKSPACE), where the docs check reads the pages; null outside a runner. */
  workspace: string | null;
  /**
   * Model credentials for jobs run in the runner, from the step's `env:` (set from secrets): an
   * input's value can be echoed in the log, an environment variable of a secret is masked.
   */
  providers: ModelProviders;
  /** The operator's prices per model (`DOCWRIGHT_MODEL_PRICES`): runs in the runner report a cost with them. */
  prices: PriceTable;
}

/** Reads the runner's variables from `env` (passed in: main.ts is the only reader of process.env). */
export function readRunnerEnvironment(env: Record<string, string | undefined>): RunnerEnvironment {
  const hosts = runnerHosts(env.GITHUB_API_URL, env.GITHUB_SERVER_URL);
  const repository = env.GITHUB_REPOSITORY;
  const runId = env.GITHUB_RUN_ID;
  return {
    eventName: env.GITHUB_EVENT_NAME ?? '',
    eventPath: env.GITHUB_EVENT_PATH || null,
    hosts,
    repository: repository ?? '',
    runUrl: repository && runId ? `${hosts.webUrl}/${repository}/actions/runs/${runId}` : undefined,
    workspace: env.GITHUB_WORKSPACE || null,
    providers: modelProvidersFrom(env),
    prices: prices(env.DOCWRIGHT_MODEL_PRICES),
  };
}

function prices(text: string | undefined): PriceTable {
  try {
    return parsePriceTable(text);
  } catch (error) {
    throw new ActionError(`${error instanceof Error ? error.message : String(error)}.`);
  }
}

/** The event payload the runner wrote to `GITHUB_EVENT_PATH` (empty outside a runner). */
export async function readEventPayload(path: string | null): Promise<unknown> {
  if (!path) return {};
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (error) {
    throw new ActionError(
      `Could not read the event payload at ${path}: ${error instanceof Error ? error.message : String(error)}.`,
    );
  }
}
