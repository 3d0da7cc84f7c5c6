import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { relativeToDocsRoot } from './url-path.js';

/**
 * The files of a docs site, relative to its docs root, whatever holds them: a snapshot of a commit,
 * a job's overlay, a folder on disk. Everything that reads a docs site (the index, the checks, the
 * agents' tools) reads it through one of these.
 */
export interface DocsTree {
  /** Every file (pages, navigation config, snippets, assets), POSIX paths relative to the docs root, sorted. */
  paths(): string[];
  read(path: string): Promise<string>;
}

/** Files of a whole repository: a forge's snapshot or a job's overlay both fit. */
export interface RepositoryFiles {
  paths(): readonly string[];
  read(path: string): Promise<Buffer | string>;
}

/** Folders never read: installed packages hold no pages and can be very large. */
const SKIPPED_FOLDERS = new Set(['node_modules']);

/** The part of a repository under its docs root (`''`: the whole repository), as a docs tree. */
export function docsTreeOf(repository: RepositoryFiles, docsRoot: string): DocsTree {
  const prefix = docsRoot === '' ? '' : `${docsRoot}/`;
  const paths = repository
    .paths()
    .map((path) => relativeToDocsRoot(path, docsRoot))
    .filter((path): path is string => path !== null && !inSkippedFolder(path))
    .sort();
  return {
    paths: () => [...paths],
    read: async (path) => {
      const content = await repository.read(prefix + path);
      return typeof content === 'string' ? content : content.toString('utf8');
    },
  };
}

/** The one dot-folder a docs site keeps its own files in: VitePress's config and theme. */
const SITE_DOT_FOLDERS = new Set(['.vitepress']);

/**
 * A docs folder on disk (`docwright check`, benchmarks, tests). Dot-folders (`.git`, `.github`)
 * other than `.vitepress` and `node_modules` are skipped; symlinks are not followed, so nothing
 * outside the folder is read.
 */
export function folderDocsTree(folder: string): DocsTree {
  const files = listFiles(folder, '').sort();
  return {
    paths: () => [...files],
    read: (path) => readFile(join(folder, path), 'utf8'),
  };
}

function inSkippedFolder(path: string): boolean {
  return path.split('/').some((segment) => SKIPPED_FOLDERS.has(segment));
}

function listFiles(folder: string, relative: string): string[] {
  const paths: string[] = [];
  const entries = readdirSync(join(folder, relative), { withFileTypes: true });
  for (const entry of entries) {
    const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
    const hidden = entry.name.startsWith('.') && !SITE_DOT_FOLDERS.has(entry.name);
    if (entry.isDirectory() && !hidden && !SKIPPED_FOLDERS.has(entry.name)) {
      paths.push(...listFiles(folder, path));
    } else if (entry.isFile()) {
      paths.push(path);
    }
  }
  return paths;
}

/**
 * A docs folder on disk with what a docs framework keeps around it: every file under the folder,
 * and the files directly in each folder above it up to the repository's top (the folder holding
 * `.git`), `.vitepress/` included, where a framework's config and navigation file sit. Enough to
 * read the site the folder names (`website/docs` of a Docusaurus site, `docs/src/content/docs` of a
 * Starlight one) without listing the whole repository. Outside a repository, the folder alone.
 * `knownTop` names the repository's top when the caller knows it (the Action's checkout, which may
 * have been made without `.git`); it must hold the folder.
 */
export function folderWithSurroundings(
  folder: string,
  knownTop?: string,
): { repository: RepositoryFiles; docsRoot: string } {
  const start = resolve(folder);
  const top = knownTop === undefined ? repositoryTop(start) : resolve(knownTop);
  const docsRoot = relative(top, start).split(sep).join('/');
  const paths = new Set(listFiles(start, '').map((path) => (docsRoot === '' ? path : `${docsRoot}/${path}`)));
  // The root of the disk ends the walk too, should `knownTop` not hold the folder.
  for (let current = start; current !== top && dirname(current) !== current;) {
    current = dirname(current);
    const prefix = relative(top, current).split(sep).join('/');
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isFile()) paths.add(path);
      else if (entry.isDirectory() && SITE_DOT_FOLDERS.has(entry.name))
        for (const file of listFiles(join(current, entry.name), '')) paths.add(`${path}/${file}`);
    }
  }
  const sorted = [...paths].sort();
  return {
    repository: { paths: () => sorted, read: (path) => readFile(join(top, path), 'utf8') },
    docsRoot,
  };
}

/** The nearest folder at or above `start` that holds `.git`; `start` itself outside a repository. */
function repositoryTop(start: string): string {
  for (let current = start; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return current;
    if (dirname(current) === current) return start;
  }
}
