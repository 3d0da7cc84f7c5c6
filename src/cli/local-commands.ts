import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { GitHubForge } from '../forge/github/github-forge.js';
import { parseRepository } from '../github-api/repository-name.js';
import { hostOf } from '../github-api/hosts.js';
import { createOctokit } from '../github-api/octokit.js';
import { badRequest, conflict, notFound } from '../core/errors.js';
import { silentLogger } from '../core/logger.js';
import { LocalGitForge } from '../forge/local-git.js';
import type { GitEnvironment } from '../forge/git-command.js';
import type { Forge } from '../forge/types.js';
import { parseModelSpec } from '../core/model-spec.js';
import { openStore, type ProjectRow, type Store } from '../store/index.js';
import { SITE_CONFIG_FILES } from '../docs/index.js';
import { UsageError } from './exit-codes.js';
import { parseDocsRoot } from '../write-policy/index.js';
import { parseFramework } from './docs-framework-option.js';

export interface ProjectAddOptions {
  id: string;
  repository: string;
  ref: string;
  docsRoot?: string;
  /** `--docs-framework`: the docs framework, for a site whose config does not show it. */
  docsFramework?: string;
  /** Comma-separated globs: the repository's `writable:` setting for a project without one. */
  writable?: string;
  domain?: string;
  model?: string;
  allowedOrigins?: string;
}

/** `docwright project add`: checks the repository and its base branch before saving the project. */
export async function addProject(
  config: Config,
  environment: GitEnvironment,
  options: ProjectAddOptions,
): Promise<ProjectListing> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(options.id)) {
    throw badRequest('--id must be 1–64 letters, digits, dots, dashes or underscores');
  }
  // Checked before the repository is: a root outside the repository is refused in words.
  const docsRoot = parseDocsRoot(options.docsRoot ?? '');
  const docsFramework = options.docsFramework === undefined ? null : parseFramework(options.docsFramework);
  if (options.model) parseModelSpec(options.model); // throws "Unknown model …: use builtin or <provider>:<model>, …"
  const { repository, forge, reader, head } = await checkRepository(config, environment, options);
  await checkDocsRoot(reader, repository, head, docsRoot, options.ref);
  const store = await openStore(config);
  try {
    if (await store.projects.get(options.id))
      throw conflict(`A project with id ${options.id} already exists`, { retryable: false });
    if (options.domain && (await store.projects.getByDomain(options.domain))) {
      throw conflict(`The domain ${options.domain} already belongs to another project`, { retryable: false });
    }
    await store.projects.create({
      id: options.id,
      repository,
      baseRef: options.ref,
      docsRoot,
      docsFramework,
      writable: options.writable === undefined ? undefined : list(options.writable),
      domain: options.domain ?? null,
      model: options.model ?? null,
      allowedOrigins: options.allowedOrigins === undefined ? undefined : list(options.allowedOrigins),
      forge,
      host: forge === 'github' ? hostOf(config.github.hosts) : '',
    });
    return (await listProjectsIn(store)).find((listed) => listed.id === options.id) as ProjectListing;
  } finally {
    await store.close();
  }
}

/** `owner/repo` as people type it; an existing folder of that name is a local repository. */
const OWNER_REPO = /^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+$/;

/**
 * The repository of a new project, checked to have the base branch: a local git path, or in token
 * mode (GITHUB_TOKEN) a GitHub `owner/repo` or its web address on the configured GitHub
 * (GHE_HOST). Without a token, GitHub projects come from installing the app.
 */
async function checkRepository(
  config: Config,
  environment: GitEnvironment,
  options: ProjectAddOptions,
): Promise<{ repository: string; forge: 'local' | 'github'; reader: Forge; head: string }> {
  const { hosts } = config.github;
  const named = options.repository;
  const onGitHub = named.startsWith(`${hosts.webUrl}/`) || (OWNER_REPO.test(named) && !fs.existsSync(named));
  if (onGitHub) {
    const token = config.github.token;
    if (!token) {
      throw badRequest(
        `${named} is a GitHub repository: set GITHUB_TOKEN to add it in token mode, or install the docwright GitHub App on it (its project is created on install)`,
      );
    }
    const { owner, repo } = parseRepository(named, hosts.webUrl);
    const repository = `${owner}/${repo}`;
    const forge = tokenForge(config, token);
    const head = await forge.resolveRef(repository, options.ref);
    if (!head) throw notFound(`The branch "${options.ref}" does not exist in ${repository}`);
    return { repository, forge: 'github', reader: forge, head };
  }
  const repository = path.resolve(named);
  const forge = new LocalGitForge({ environment });
  const head = await forge.resolveRef(repository, options.ref);
  if (!head) throw notFound(`The branch "${options.ref}" does not exist in ${repository}`);
  return { repository, forge: 'local', reader: forge, head };
}

/**
 * A docs root must be a folder of the repository at the base branch: a typo would otherwise give
 * every job an empty site. Where the repository has a docs site's config, the message says where.
 */
async function checkDocsRoot(
  forge: Forge,
  repository: string,
  head: string,
  docsRoot: string,
  ref: string,
): Promise<void> {
  if (docsRoot === '') return;
  const snapshot = await forge.snapshot(repository, head);
  try {
    const paths = snapshot.paths();
    if (paths.some((file) => file.startsWith(`${docsRoot}/`))) return;
    const configs = paths
      .filter(
        (file) =>
          !file.includes('node_modules/') &&
          SITE_CONFIG_FILES.some((name) => file === name || file.endsWith(`/${name}`)),
      )
      .slice(0, 3);
    const hint = configs.length > 0 ? ` (a docs site's config is at ${configs.join(', ')})` : '';
    throw badRequest(`--docs-root ${docsRoot} is not a folder of ${repository} on ${ref}${hint}`);
  } finally {
    snapshot.close?.();
  }
}

/** A project as `project list` shows it. */
export interface ProjectListing {
  id: string;
  repository: string;
  ref: string;
  docsRoot: string;
  /** The docs framework the project names; null: found from the repository's files. */
  docsFramework: string | null;
  domain: string | null;
  allowedOrigins: string | null;
  enabled: boolean;
}

/** `docwright project list`: oldest first. */
export async function listProjects(config: Config): Promise<ProjectListing[]> {
  const store = await openStore(config);
  try {
    return await listProjectsIn(store);
  } finally {
    await store.close();
  }
}

async function listProjectsIn(store: Store): Promise<ProjectListing[]> {
  return (await store.projects.list()).map((project) => ({
    id: project.id,
    repository: project.repository,
    ref: project.base_ref,
    docsRoot: project.docs_root,
    docsFramework: project.docs_framework,
    domain: project.domain,
    allowedOrigins: project.allowed_origins,
    enabled: project.disabled_at === null,
  }));
}

export type ProjectUpdateOptions = Partial<Omit<ProjectAddOptions, 'id' | 'repository'>>;

/** `docwright project update <id>`: changes the settings given, checked as `project add` checks them. */
export async function updateProject(
  config: Config,
  environment: GitEnvironment,
  id: string,
  options: ProjectUpdateOptions,
): Promise<ProjectListing> {
  const changes = {
    ...(options.ref !== undefined ? { baseRef: options.ref } : {}),
    ...(options.docsRoot !== undefined ? { docsRoot: parseDocsRoot(options.docsRoot) } : {}),
    ...(options.docsFramework !== undefined
      ? { docsFramework: options.docsFramework === '' ? null : parseFramework(options.docsFramework) }
      : {}),
    ...(options.writable !== undefined ? { writable: list(options.writable) } : {}),
    ...(options.domain !== undefined ? { domain: options.domain === '' ? null : options.domain } : {}),
    ...(options.model !== undefined ? { model: options.model === '' ? null : options.model } : {}),
    ...(options.allowedOrigins !== undefined ? { allowedOrigins: list(options.allowedOrigins) } : {}),
  };
  if (Object.keys(changes).length === 0) {
    throw new UsageError(
      'Nothing to change: pass at least one of --ref, --docs-root, --docs-framework, --writable, --domain, --model, --allowed-origins',
    );
  }
  if (options.model) parseModelSpec(options.model);
  const store = await openStore(config);
  try {
    const project = await store.projects.get(id);
    if (!project) throw notFound(`Project ${id} not found (docwright project list shows them)`);
    if (changes.domain) {
      const owner = await store.projects.getByDomain(changes.domain);
      if (owner && owner.id !== id)
        throw conflict(`The domain ${changes.domain} already belongs to project ${owner.id}`, {
          retryable: false,
        });
    }
    if (changes.baseRef !== undefined || changes.docsRoot !== undefined) {
      const ref = changes.baseRef ?? project.base_ref;
      const reader = forgeOf(config, environment, project.forge);
      const head = await reader.resolveRef(project.repository, ref);
      if (!head) throw notFound(`The branch "${ref}" does not exist in ${project.repository}`);
      await checkDocsRoot(reader, project.repository, head, changes.docsRoot ?? project.docs_root, ref);
    }
    await store.projects.update(id, changes);
    return (await listProjectsIn(store)).find((listed) => listed.id === id) as ProjectListing;
  } finally {
    await store.close();
  }
}

/**
 * `docwright project remove <id> --yes`: the project goes with its jobs, their history and its keys.
 * Without --yes it says what would go and changes nothing.
 */
export async function removeProject(
  config: Config,
  id: string,
  options: { yes?: boolean },
): Promise<{ jobs: number; keys: number }> {
  const store = await openStore(config);
  try {
    if (!(await store.projects.get(id)))
      throw notFound(`Project ${id} not found (docwright project list shows them)`);
    const holdings = await store.projects.holdings(id);
    if (!options.yes) {
      throw new UsageError(
        `Removing project ${id} deletes its ${holdings.jobs} job(s), their history and its ${holdings.keys} key(s); pass --yes to do it`,
      );
    }
    await store.projects.remove(id);
    return holdings;
  } finally {
    await store.close();
  }
}

/** A comma-separated flag value as a list: `a, b,` is `['a', 'b']`. */
function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** GitHub in token mode (GITHUB_TOKEN), as `project add --repository owner/repo` uses it. */
function tokenForge(config: Config, token: string): GitHubForge {
  const { hosts } = config.github;
  const octokit = createOctokit({
    auth: token,
    baseUrl: hosts.apiUrl,
    userAgent: 'docwright-cli',
    log: { warn: (message) => silentLogger.warn(message), debug: () => {} },
  });
  return new GitHubForge({ octokitFor: () => Promise.resolve(octokit), auth: 'token', webUrl: hosts.webUrl });
}

/** The forge that reads an existing project's repository from this machine. */
function forgeOf(config: Config, environment: GitEnvironment, forge: ProjectRow['forge']): Forge {
  if (forge === 'local') return new LocalGitForge({ environment });
  const token = config.github.token;
  if (!token) {
    throw badRequest(
      'This project is on GitHub: set GITHUB_TOKEN to check a new branch or docs root from here',
    );
  }
  return tokenForge(config, token);
}
