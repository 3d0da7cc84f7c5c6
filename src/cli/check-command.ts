import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { checkDocs, formatProblemsForTerminal, summarizeProblems } from '../checks/index.js';
import { isBlocking } from '../checks/index.js';
import type { DeclaredDocsFramework } from '../core/docs-frameworks.js';
import { badRequest, notFound } from '../core/errors.js';
import { folderWithSurroundings, openDocsSite, SITE_CONFIG_FILES } from '../docs/index.js';
import { SETTINGS_FILE, settingsFromText } from '../github/settings.js';
import { parseDocsRoot } from '../write-policy/index.js';

export interface CheckCommandOptions {
  /** Folder of the docs inside the checked folder (a repository's `docs/`); default: the folder itself. */
  docsRoot?: string;
  /** The docs framework, when its config does not show it (`--docs-framework`). */
  docsFramework?: DeclaredDocsFramework;
}

export interface CheckCommandResult {
  /** What to print: one problem a line and a summary, or a line saying all is well. */
  output: string;
  /** False when problems were found (the command exits with 1). */
  ok: boolean;
  /** Which folder was checked and why, when it was found rather than given. */
  found?: string;
}

/**
 * `docwright check [--docs-root DIR] [PATH]`: the docs checks every job runs, over a folder on
 * disk, so that authors (and CI) see the same findings before they push. Without PATH the docs are
 * found as the server finds them: the repository's settings name the docs root, else the folder of
 * the nearest docs.json.
 */
export async function checkCommand(
  folder: string | undefined,
  options: CheckCommandOptions = {},
  cwd = process.cwd(),
): Promise<CheckCommandResult> {
  const located =
    folder === undefined && options.docsRoot === undefined
      ? findDocsRoot(cwd)
      : { root: path.resolve(cwd, folder ?? '.', parseDocsRoot(options.docsRoot ?? '')) };
  const { root } = located;
  if (!isFolder(root)) throw badRequest(`${root} is not a folder`);
  // The site is read with what surrounds the folder in its repository: a framework's config may
  // sit above its pages (Docusaurus' website/, Starlight's src/content/docs), and the folder may
  // name either.
  const { repository, docsRoot } = folderWithSurroundings(root);
  const site = await openDocsSite(
    repository,
    docsRoot,
    options.docsFramework === undefined ? {} : { framework: options.docsFramework },
  );
  const problems = await checkDocs(site);
  const found =
    'reason' in located ? `Checking ${path.relative(cwd, root) || '.'} (${located.reason})` : undefined;
  const base = found ? { found } : {};
  const pages = path.join(root, path.relative(docsRoot || '.', site.layout.pagesRoot || '.'));
  if (problems.length === 0) return { ...base, output: `${pages}: no problems found`, ok: true };
  return {
    ...base,
    output: `${formatProblemsForTerminal(problems)}\n\n${pages}: ${summarizeProblems(problems)}`,
    // Errors are what the framework's build refuses; warnings alone leave the exit status 0.
    ok: !problems.some(isBlocking),
  };
}

/** How far below the working folder a docs.json is looked for. */
const SEARCH_DEPTH = 4;

/** Where the docs are, seen from `cwd`: the settings' docs_root, the folder's own docs.json, or the nearest one below. */
export function findDocsRoot(cwd: string): { root: string; reason: string } {
  const repository = repositoryRoot(cwd);
  const settingsFile = path.join(repository, '.github', SETTINGS_FILE);
  if (existsSync(settingsFile)) {
    // Read as the App and the Action read it: a broken file is refused in the same words.
    const settings = settingsFromText(readFileSync(settingsFile, 'utf8'));
    if (settings instanceof Error) throw settings;
    if (settings.docsRoot !== '') {
      return {
        root: path.join(repository, settings.docsRoot),
        reason: `docs_root in .github/${SETTINGS_FILE}`,
      };
    }
  }
  const config = nearestSiteConfig(cwd);
  if (config) return { root: config.folder, reason: `it holds ${config.file}` };
  throw notFound(
    `No docs site config (docs.json, mint.json, mkdocs.yml, docusaurus.config.*, .vitepress/config.*, astro.config.*) in ${cwd} or the folders below it, and no docs_root in .github/${SETTINGS_FILE}: name the docs folder, as in docwright check docs`,
  );
}

/** The folder holding `.git` at or above `cwd`; `cwd` itself outside a repository. */
function repositoryRoot(cwd: string): string {
  for (let folder = path.resolve(cwd); ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, '.git'))) return folder;
    if (path.dirname(folder) === folder) return path.resolve(cwd);
  }
}

/**
 * The shallowest docs site config at or below `cwd` (any framework's), folders in name order;
 * dependencies and hidden folders skipped.
 */
function nearestSiteConfig(cwd: string): { folder: string; file: string } | undefined {
  let level = [path.resolve(cwd)];
  for (let depth = 0; depth <= SEARCH_DEPTH && level.length > 0; depth += 1) {
    const next: string[] = [];
    for (const folder of level) {
      const file = SITE_CONFIG_FILES.find((name) => existsSync(path.join(folder, name)));
      if (file) return { folder, file };
      next.push(...subfolders(folder));
    }
    level = next;
  }
  return undefined;
}

function subfolders(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
      .map((entry) => path.join(folder, entry.name))
      .sort();
  } catch {
    return [];
  }
}

function isFolder(folder: string): boolean {
  try {
    return statSync(folder).isDirectory();
  } catch {
    return false;
  }
}
