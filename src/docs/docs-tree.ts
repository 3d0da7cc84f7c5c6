import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
