import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { resolveConfigReferences } from './config-references.js';
import { NAVIGATION_FILES } from './navigation.js';
import type { DocsFile } from './types.js';
import { isSnippetPath } from './snippet-imports.js';
import { isDocsPagePath } from './url-path.js';

/** The pages and navigation config of a docs folder on disk. */
export interface DocsFolder {
  files: DocsFile[];
  /** Parsed `docs.json` (or `mint.json`), or undefined when there is none or it is not valid JSON. */
  navigation: unknown;
  /** Text of `.mintignore`, when the folder has one. */
  mintignore?: string;
}

/**
 * Reads a docs folder from disk: every page and snippet file with a POSIX path relative
 * to `folder`, and the navigation config with its `$ref`s inlined. For benchmarks, tests and local folders; repositories
 * are read through the Forge instead.
 */
export function readDocsFolder(folder: string): DocsFolder {
  const files: DocsFile[] = [];
  for (const path of listFiles(folder)) {
    const relativePath = relative(folder, path).split(sep).join('/');
    if (isDocsPagePath(relativePath) || isSnippetPath(relativePath))
      files.push({ path: relativePath, content: readFileSync(path, 'utf8') });
  }
  const ignoreFile = join(folder, '.mintignore');
  const mintignore = existsSync(ignoreFile) ? readFileSync(ignoreFile, 'utf8') : undefined;
  return { files, navigation: readNavigation(folder), mintignore };
}

function readNavigation(folder: string): unknown {
  const readJson = (path: string): unknown => {
    try {
      return JSON.parse(readFileSync(join(folder, path), 'utf8'));
    } catch {
      // A broken or missing config must not stop search: the pages are still indexed, without groups.
      return undefined;
    }
  };
  const name = NAVIGATION_FILES.find((file) => existsSync(join(folder, file)));
  return name === undefined ? undefined : resolveConfigReferences(readJson(name), readJson, name);
}

function listFiles(folder: string): string[] {
  const paths: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    // Dot-folders (.git, .github) hold no pages and can be large.
    if (entry.isDirectory() && !entry.name.startsWith('.')) paths.push(...listFiles(path));
    else if (entry.isFile()) paths.push(path);
  }
  return paths.sort();
}
