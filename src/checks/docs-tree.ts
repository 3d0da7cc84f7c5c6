import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Overlay } from '../forge/overlay.js';
import type { DocsRoot } from '../write-policy/index.js';
import type { DocsTree } from './types.js';

/** Folders never read from disk: version control, tooling and installed packages hold no pages. */
const SKIPPED_FOLDERS = new Set(['node_modules']);

/** The docs of a job as the checks see them: the overlay's files under the docs root. */
export function overlayDocsTree(overlay: Overlay, root: DocsRoot): DocsTree {
  const prefix = root === '' ? '' : `${root}/`;
  return {
    paths: () => overlay.list(root).map((file) => file.slice(prefix.length)),
    read: (path) => overlay.read(prefix + path),
  };
}

/**
 * A docs folder on disk, for `docwright check`. Dot-folders (`.git`, `.github`) and `node_modules`
 * are skipped; symlinks are not followed, so a check never reads outside the folder.
 */
export function folderDocsTree(folder: string): DocsTree {
  const files = listFiles(folder, '').sort();
  return {
    paths: () => [...files],
    read: (path) => readFile(join(folder, path), 'utf8'),
  };
}

function listFiles(folder: string, relative: string): string[] {
  const paths: string[] = [];
  const entries = readdirSync(join(folder, relative), { withFileTypes: true });
  for (const entry of entries) {
    const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory() && !entry.name.startsWith('.') && !SKIPPED_FOLDERS.has(entry.name)) {
      paths.push(...listFiles(folder, path));
    } else if (entry.isFile()) {
      paths.push(path);
    }
  }
  return paths;
}
