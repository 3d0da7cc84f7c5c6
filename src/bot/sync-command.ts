import { readPullRequestChange } from '../github-api/pull-request-change.js';
import { SettingsError, type RepositorySettings } from '../github/settings.js';
import { formatSyncPrompt } from '../impact/index.js';
import type { ProjectRow } from '../store/index.js';
import { applySettings, projectForEvent } from './projects.js';
import type { RepositoryClient } from './repository-clients.js';
import type { ConfigReader } from './settings-cache.js';
import type { EventRepository } from './comment-event.js';
import type { BotDependencies } from './types.js';

/**
 * The project holding the docs of this repository's code: the repository's own, or the project of
 * the docs repository its settings name (`sync.docs_repository`); null when the app is not
 * installed on that one.
 */
export async function docsProjectOf(
  deps: BotDependencies,
  project: ProjectRow,
  settings: RepositorySettings,
): Promise<ProjectRow | null> {
  const repository = settings.sync.docsRepository;
  if (!repository || repository.toLowerCase() === project.repository.toLowerCase()) return project;
  const docs = await deps.store.projects.findOnGitHub(deps.host, repository);
  return docs && !docs.disabled_at ? docs : null;
}

/**
 * Why the docs repository `sync.docs_repository` names cannot be worked on, and what came of it
 * (`nothing was started`), for the thread or the check run.
 */
export function docsRepositoryNotInstalled(repository: string, outcome: string): string {
  return `docwright is not installed on ${repository}, the docs repository that \`sync.docs_repository\` in .github/docwright.yml names, so ${outcome}. Install the app on it too.`;
}

/**
 * The project whose docs a sync of this repository's code updates (see docsProjectOf). A string is
 * the reason there is none, for the thread.
 */
export async function syncDocsProject(
  deps: BotDependencies,
  project: ProjectRow,
  settings: RepositorySettings,
): Promise<ProjectRow | string> {
  const docs = await docsProjectOf(deps, project, settings);
  return docs ?? docsRepositoryNotInstalled(settings.sync.docsRepository ?? '', 'nothing was started');
}

/** The fields of a merged pull request a docs sync needs. */
export interface MergedPullRequest {
  repository: EventRepository;
  installationId: number | null;
  number: number;
  headRef: string;
}

/**
 * `sync.on_merge: true`: a merged code pull request gets the job `/docs sync` would start, with its
 * status comment in the pull request's conversation. A docwright job's own pull request (its head is
 * a job branch) is docs already and is left alone.
 */
export async function syncMergedPullRequest(
  deps: BotDependencies,
  context: ConfigReader & { octokit: RepositoryClient },
  merged: MergedPullRequest,
): Promise<void> {
  const settings = await deps.settings.get(merged.repository.fullName, context);
  if (settings instanceof SettingsError || !settings.sync.onMerge) return;
  if (merged.headRef.startsWith(settings.branchPrefix)) return;
  const project = await projectForEvent(deps, {
    fullName: merged.repository.fullName,
    defaultBranch: merged.repository.defaultBranch,
    installationId: merged.installationId,
  });
  if (!project) return;
  const current = await applySettings(deps, project, settings, merged.repository.defaultBranch);
  const docs = await syncDocsProject(deps, current, settings);
  const thread = { owner: merged.repository.owner, repo: merged.repository.repo, number: merged.number };
  if (typeof docs === 'string') {
    await context.octokit.rest.issues.createComment({
      owner: thread.owner,
      repo: thread.repo,
      issue_number: thread.number,
      body: docs,
    });
    return;
  }
  // A comment's or a merge's payload has no diff: the pull request is read as GitHub has it now.
  const prompt = formatSyncPrompt(await readPullRequestChange(context.octokit, thread));
  const job = await deps.jobs.create(docs.id, prompt, { branchPrefix: settings.branchPrefix });
  await deps.store.githubThreads.register({
    jobId: job.id,
    repository: merged.repository.fullName,
    issueNumber: merged.number,
    isPullRequest: true,
    prNumber: null,
  });
  deps.logger.info(
    { job: job.id, project: docs.id, pullRequest: `${merged.repository.fullName}#${merged.number}` },
    'docs sync job created for a merged pull request',
  );
  await deps.watcher.refresh(job.id);
}
