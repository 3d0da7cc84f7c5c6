import { Writable } from 'node:stream';
import { createAgentResolver } from '../../agent/registry.js';
import { createLogger } from '../../core/logger.js';
import { GitHubForge } from '../../forge/github/github-forge.js';
import type { BranchHead } from '../../github-api/repository-start.js';
import { languageModel } from '../../models/models.js';
import type { ProjectRow } from '../../store/index.js';
import { ActionError } from '../action-error.js';
import type { RunnerOptions } from './open-runner.js';
import { RunnerJobs } from './runner-jobs.js';

/** What the runner knows once the repository's settings and default branch were read. */
interface RunnerParts extends RunnerOptions {
  project: ProjectRow;
  owner: string;
  repo: string;
  defaultBranch: string;
  defaultHead: BranchHead;
  repositoryId: string | null;
  branchPrefix: string;
  docsElsewhere: string | null;
}

/** How long the runner trusts a branch head it read or wrote: longer than a step may run. */
const STEP_REFS_MS = 6 * 60 * 60 * 1000;

/**
 * The job service of the runner: the GitHub forge on the workflow's token, the agent of the job's
 * model (refused at once, in words, when its key is missing), and the recovery of earlier jobs.
 */
export function createRunnerJobs(parts: RunnerParts): RunnerJobs {
  const { project, repository, hosts, inputs } = parts;
  const logger = createLogger({
    level: 'debug',
    format: 'json',
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        parts.debug(chunk.toString('utf8').trimEnd());
        done();
      },
    }),
  });
  const model = project.model ?? 'builtin';
  try {
    languageModel(model, parts.providers);
  } catch (error) {
    throw new ActionError(
      `The model ${model} cannot be used: ${error instanceof Error ? error.message : String(error)}. Set the key in the step's \`env:\` from a secret.`,
    );
  }
  const forge = new GitHubForge({
    octokitFor: () => Promise.resolve(parts.octokit),
    auth: 'token',
    webUrl: hosts.webUrl,
    // A step lasts minutes and its own commits move the job's branch: what it read or wrote holds
    // for the step, as the App holds a head until a push says otherwise.
    rememberRefsMs: STEP_REFS_MS,
  });
  // The default branch's head came with the settings: a new job starts from it without asking again.
  forge.sawHead(repository, parts.defaultBranch, parts.defaultHead);
  // With the repository's node id a commit is one GraphQL mutation instead of tree, commit and ref.
  if (parts.repositoryId) forge.sawRepository(repository, parts.repositoryId);
  return new RunnerJobs({
    project,
    defaultBranch: parts.defaultBranch,
    branchPrefix: parts.branchPrefix,
    run: {
      forge,
      agentFor: createAgentResolver(parts.providers, { budgets: { maxWallTimeMs: inputs.timeoutMs } }),
      prices: parts.prices,
      logger,
      onRetry: ({ delayMs, error }) =>
        parts.onRetry(
          `The run did not go through (${error instanceof Error ? error.message : String(error)}); trying again in ${Math.ceil(delayMs / 1000)} s.`,
        ),
    },
    recover: {
      octokit: parts.octokit,
      forge,
      repository: { owner: parts.owner, repo: parts.repo },
      fullName: repository,
      webUrl: hosts.webUrl,
      projectId: project.id,
      repositoryUrl: forge.repositoryUrl(repository),
      model,
      now: () => new Date(),
    },
    thread: parts.thread,
    docsElsewhere: parts.docsElsewhere,
    logger,
    signal: parts.signal,
  });
}
