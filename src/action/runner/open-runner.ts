import { budgetText, type PriceTable } from '../../core/usage.js';
import type { GitHubClient } from '../../github-api/types.js';
import { DEFAULT_COMMAND, type AllowedBots } from '../../github/index.js';
import { type GitHubApi, type Thread } from '../../github-api/types.js';
import { type PermissionLevel } from '../../github-api/permission.js';
import type { GitHubHosts } from '../../github-api/hosts.js';
import { readRepositoryStart } from '../../github-api/repository-start.js';
import { SETTINGS_FILE } from '../../github/settings-file.js';
import type { ModelProviders } from '../../models/models.js';
import type { ProjectRow } from '../../store/index.js';
import { ActionError } from '../action-error.js';
import type { Inputs } from '../inputs.js';
import type { RunnerJobs } from './runner-jobs.js';

export interface RunnerOptions {
  /** The workflow's token (or an App's), as createOctokit made it: REST and GraphQL. */
  octokit: GitHubClient & GitHubApi;
  hosts: GitHubHosts;
  /** `owner/repo`: the repository the workflow belongs to. */
  repository: string;
  inputs: Inputs;
  /** Model credentials from the environment the workflow sets from its secrets. */
  providers: ModelProviders;
  /** Prices per model for the runs' cost and `max-cost`. */
  prices: PriceTable;
  thread: Thread | null;
  /** Where the engine's log lines go, one JSON line at a time (the step's debug log). */
  debug: (line: string) => void;
  signal: AbortSignal;
  onRetry: (sentence: string) => void;
}

/** The job service of the runner, and the inputs as the repository's settings file adjusts them. */
export interface Runner {
  jobs: RunnerJobs;
  inputs: Inputs;
}

/**
 * Everything a job needs in the runner, read in one GraphQL request: `.github/docwright.yml` (as the
 * App reads it, with the owner's `.github` repository as fallback) and the default branch's head.
 * The file's docs root, `writable:` globs, base branch, model and branch prefix apply as they do
 * for the App; its command, permission and bots apply where the workflow leaves those inputs at
 * their defaults, so a workflow that sets one means it.
 */
export async function openRunner(options: RunnerOptions): Promise<Runner> {
  const { octokit, hosts, repository, inputs } = options;
  const [owner = '', repo = ''] = repository.split('/');
  if (!owner || !repo)
    throw new ActionError(
      `GITHUB_REPOSITORY is "${repository}", not owner/repo: run the Action in a workflow.`,
    );
  const start = await readRepositoryStart(octokit, { owner, repo }, `.github/${SETTINGS_FILE}`);
  // The settings' parser (YAML and its schema) is read once GitHub has answered, not before the first
  // request: the step's start waits for nothing it does not need yet.
  const { settingsFromText, settingsKeys, SettingsError } = await import('../../github/settings.js');
  const settings = settingsFromText(start.settingsText);
  if (settings instanceof SettingsError) throw new ActionError(`${settings.message}.`);
  if (!start.defaultBranch)
    throw new ActionError(
      `${repository} has no commits yet: docwright needs a default branch to start from.`,
    );
  const keys = settingsKeys(start.settingsText);
  const model = inputs.model || settings.model || 'builtin';
  const defaultBranch = start.defaultBranch.name;
  const project: ProjectRow = {
    id: repository,
    repository,
    base_ref: settings.baseBranch ?? defaultBranch,
    docs_root: settings.docsRoot,
    docs_framework: settings.docsFramework,
    domain: null,
    model,
    created_at: new Date().toISOString(),
    disabled_at: null,
    allowed_origins: null,
    forge: 'github',
    host: new URL(hosts.webUrl).host,
    installation_id: null,
    writable: settings.writable.length === 0 ? null : settings.writable.join('\n'),
    // The settings' limits; the step's own inputs come with each job it creates, over these.
    budget: budgetText(settings.budget),
  };
  // The engine, the agents and the model SDKs are most of the bundle, in chunks of their own: read and
  // parsed only once GitHub has answered the first question (so a step that stops there never pays
  // for them), never in server mode.
  const { createRunnerJobs } = await import('./runner-parts.js');
  const jobs = createRunnerJobs({
    ...options,
    project,
    owner,
    repo,
    defaultBranch,
    defaultHead: start.defaultBranch.head,
    repositoryId: start.repositoryId,
    branchPrefix: settings.branchPrefix,
    docsElsewhere:
      settings.sync.docsRepository && settings.sync.docsRepository.toLowerCase() !== repository.toLowerCase()
        ? settings.sync.docsRepository
        : null,
  });
  return {
    jobs,
    inputs: {
      ...inputs,
      command: chosen(inputs.command, DEFAULT_COMMAND, keys.has('command'), settings.command),
      permission: chosen<PermissionLevel>(
        inputs.permission,
        'write',
        keys.has('required_permission'),
        settings.requiredPermission,
      ),
      allowedBots:
        keys.has('allowed_bots') && noBots(inputs.allowedBots) ? settings.allowedBots : inputs.allowedBots,
    },
  };
}

/** The workflow's value when it differs from the input's default, else the file's when it sets one. */
function chosen<T>(input: T, fallback: T, fileSets: boolean, fromFile: T): T {
  return input === fallback && fileSets ? fromFile : input;
}

function noBots(bots: AllowedBots): boolean {
  return !bots.all && bots.logins.size === 0;
}
