import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { GitHubForge, parseRepository } from '../forge/github.js';
import { hostOf } from '../github/hosts.js';
import { createOctokit } from '../github/octokit.js';
import { silentLogger } from '../core/logger.js';
import { LocalGitForge } from '../forge/local-git.js';
import type { GitEnvironment } from '../forge/git-command.js';
import { parseModelSpec } from '../models/models.js';
import { openStore } from '../store/index.js';
import { parseDocsRoot } from '../write-policy/index.js';

export interface ProjectAddOptions {
  id: string;
  repository: string;
  ref: string;
  docsRoot?: string;
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
): Promise<string> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(options.id)) {
    throw new Error('--id must be 1–64 letters, digits, dots, dashes or underscores');
  }
  // Checked before the repository is: a root outside the repository is refused in words.
  const docsRoot = parseDocsRoot(options.docsRoot ?? '');
  if (options.model) parseModelSpec(options.model); // throws "Unknown model …: use builtin, openai:<model> or anthropic:<model>"
  const { repository, forge } = await checkRepository(config, environment, options);
  const store = await openStore(config);
  try {
    if (await store.projects.get(options.id))
      throw new Error(`A project with id ${options.id} already exists`);
    if (options.domain && (await store.projects.getByDomain(options.domain))) {
      throw new Error(`The domain ${options.domain} already belongs to another project`);
    }
    await store.projects.create({
      id: options.id,
      repository,
      baseRef: options.ref,
      docsRoot,
      writable: options.writable
        ?.split(',')
        .map((glob) => glob.trim())
        .filter(Boolean),
      domain: options.domain ?? null,
      model: options.model ?? null,
      allowedOrigins: options.allowedOrigins
        ?.split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
      forge,
      host: forge === 'github' ? hostOf(config.github.hosts) : '',
    });
    return `${options.id}\t${repository}\t${options.ref}`;
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
): Promise<{ repository: string; forge: 'local' | 'github' }> {
  const { hosts } = config.github;
  const named = options.repository;
  const onGitHub = named.startsWith(`${hosts.webUrl}/`) || (OWNER_REPO.test(named) && !fs.existsSync(named));
  if (onGitHub) {
    const token = config.github.token;
    if (!token) {
      throw new Error(
        `${named} is a GitHub repository: set GITHUB_TOKEN to add it in token mode, or install the docwright GitHub App on it (its project is created on install)`,
      );
    }
    const { owner, repo } = parseRepository(named, hosts.webUrl);
    const repository = `${owner}/${repo}`;
    const octokit = createOctokit({
      auth: token,
      baseUrl: hosts.apiUrl,
      userAgent: 'docwright-cli',
      log: { warn: (message) => silentLogger.warn(message), debug: () => {} },
    });
    const forge = new GitHubForge({
      octokitFor: () => Promise.resolve(octokit),
      auth: 'token',
      webUrl: hosts.webUrl,
    });
    if (!(await forge.resolveRef(repository, options.ref))) {
      throw new Error(`The branch "${options.ref}" does not exist in ${repository}`);
    }
    return { repository, forge: 'github' };
  }
  const repository = path.resolve(named);
  const forge = new LocalGitForge({ environment });
  const head = await forge.resolveRef(repository, options.ref);
  if (!head) throw new Error(`The branch "${options.ref}" does not exist in ${repository}`);
  return { repository, forge: 'local' };
}

/** `docwright project list`: one project a line, its id first. */
export async function listProjects(config: Config): Promise<string> {
  const store = await openStore(config);
  try {
    const projects = await store.projects.list();
    return projects
      .map((project) =>
        [
          project.id,
          project.repository,
          project.base_ref,
          `docs-root=${project.docs_root || '.'}`,
          `domain=${project.domain ?? '-'}`,
          `origins=${project.allowed_origins ?? '*'}`,
          project.disabled_at ? 'disabled' : 'enabled',
        ].join('\t'),
      )
      .join('\n');
  } finally {
    await store.close();
  }
}

/** `docwright key create`: prints the new key alone (it is stored hashed and never shown again). */
export async function createKey(
  config: Config,
  options: { project?: string; domain?: string },
): Promise<string> {
  if (!options.project === !options.domain)
    throw new Error('key create takes exactly one of --project ID or --domain NAME');
  const store = await openStore(config);
  try {
    if (options.project) {
      if (!(await store.projects.get(options.project)))
        throw new Error(`Project ${options.project} not found`);
      return (await store.keys.create({ kind: 'admin', projectId: options.project })).key;
    }
    const domain = options.domain as string;
    const project = await store.projects.getByDomain(domain);
    if (!project)
      throw new Error(`No project answers for the domain ${domain} (set it with project add --domain)`);
    return (await store.keys.create({ kind: 'assistant', projectId: project.id, domain })).key;
  } finally {
    await store.close();
  }
}
