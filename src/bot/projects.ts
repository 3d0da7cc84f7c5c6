import { projectWritable, type ProjectRow } from '../store/index.js';
import { budgetText } from '../core/usage.js';
import {
  readRepositoryStart,
  type GraphqlClient,
  type RepositoryStart,
} from '../github-api/repository-start.js';
import type { RepositoryClient } from './repository-clients.js';
import type { ConfigReader } from './settings-cache.js';
import { SettingsError, type RepositorySettings } from '../github/settings.js';
import type { BotDependencies } from './types.js';

/** Where an event happened: enough to find or create the repository's project. */
export interface EventRepository {
  fullName: string;
  defaultBranch: string;
  installationId: number | null;
}

/**
 * The project of an event's repository. With the app, an event from an installation proves the
 * app is installed there: a missing project (an installation event that never arrived) is
 * created and a disabled one re-enabled. In token mode only projects added by hand count.
 */
export async function projectForEvent(
  deps: BotDependencies,
  event: EventRepository,
): Promise<ProjectRow | null> {
  const existing = await deps.store.projects.findOnGitHub(deps.host, event.fullName);
  if (deps.appId === null || event.installationId === null) {
    return existing && !existing.disabled_at ? existing : null;
  }
  const current =
    existing &&
    !existing.disabled_at &&
    Number(existing.installation_id) === event.installationId &&
    existing.repository === event.fullName;
  if (current) return existing;
  const { project, created } = await deps.store.projects.upsertOnGitHub({
    host: deps.host,
    repository: event.fullName,
    baseRef: event.defaultBranch,
    installationId: event.installationId,
  });
  logProject(deps, project, created);
  return project;
}

/** Writes the settings the engine reads (base branch, docs root, model, writable globs) into the project row. */
export async function applySettings(
  deps: BotDependencies,
  project: ProjectRow,
  settings: RepositorySettings,
  defaultBranch: string,
): Promise<ProjectRow> {
  const wanted = {
    baseRef: settings.baseBranch ?? defaultBranch,
    docsRoot: settings.docsRoot,
    docsFramework: settings.docsFramework,
    model: settings.model,
    writable: settings.writable,
    budget: settings.budget,
  };
  const budget = budgetText(settings.budget);
  if (
    project.budget === budget &&
    project.base_ref === wanted.baseRef &&
    project.docs_root === wanted.docsRoot &&
    project.docs_framework === wanted.docsFramework &&
    project.model === wanted.model &&
    projectWritable(project).join('\n') === wanted.writable.join('\n')
  ) {
    return project;
  }
  await deps.store.projects.applySettings(project.id, wanted);
  return {
    ...project,
    base_ref: wanted.baseRef,
    docs_root: wanted.docsRoot,
    docs_framework: wanted.docsFramework,
    model: wanted.model,
    writable: wanted.writable.length === 0 ? null : wanted.writable.join('\n'),
    budget,
  };
}

/**
 * The app was installed on repositories: one project each, with the default branch, its head and
 * the settings read from GitHub in one request per repository (two for an empty repository).
 */
export async function addInstalledRepositories(
  deps: BotDependencies,
  octokit: RepositoryClient & GraphqlClient,
  installationId: number,
  repositories: { full_name: string }[],
): Promise<void> {
  for (const { full_name: fullName } of repositories) {
    const [owner = '', repo = ''] = fullName.split('/');
    let start: RepositoryStart | null = null;
    const reader: ConfigReader = {
      async settingsText(fileName) {
        start = await readRepositoryStart(octokit, { owner, repo }, `.github/${fileName}`);
        return start.settingsText;
      },
    };
    const settings = await deps.settings.get(fullName, reader);
    const known = start as RepositoryStart | null;
    const defaultBranch =
      known?.defaultBranch?.name ?? (await octokit.rest.repos.get({ owner, repo })).data.default_branch;
    if (known?.defaultBranch) deps.heads.sawHead(fullName, defaultBranch, known.defaultBranch.head);
    const { project, created } = await deps.store.projects.upsertOnGitHub({
      host: deps.host,
      repository: fullName,
      baseRef: defaultBranch,
      installationId,
    });
    logProject(deps, project, created);
    if (settings instanceof SettingsError) {
      deps.logger.warn({ project: project.id, reason: settings.message }, 'repository settings ignored');
    } else {
      await applySettings(deps, project, settings, defaultBranch);
    }
  }
}

/** The app left repositories (uninstalled, suspended, or repositories removed): their projects stop. */
export async function removeInstalledRepositories(
  deps: BotDependencies,
  installationId: number,
  repositories: { full_name: string }[] | null,
): Promise<void> {
  if (repositories === null) {
    const disabled = await deps.store.projects.disableInstallation(installationId);
    if (disabled.length > 0) deps.logger.info({ projects: disabled, installationId }, 'projects disabled');
    return;
  }
  for (const { full_name: fullName } of repositories) {
    const project = await deps.store.projects.findOnGitHub(deps.host, fullName);
    if (!project || Number(project.installation_id) !== installationId || project.disabled_at) continue;
    await deps.store.projects.setDisabled(project.id, true);
    deps.logger.info({ project: project.id, repository: fullName }, 'project disabled');
  }
}

function logProject(deps: BotDependencies, project: ProjectRow, created: boolean): void {
  deps.logger.info(
    { project: project.id, repository: project.repository },
    created ? `project ${project.id} created for ${project.repository}` : `project ${project.id} enabled`,
  );
}
