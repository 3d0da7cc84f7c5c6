import { folderDocsTree } from './docs-tree.js';
import { readDocsSite, type DocsSiteFiles } from './site-files.js';

/**
 * Reads a docs folder from disk the way every docs site is read (pages, snippets, the navigation
 * with its `$ref`s, `.mintignore`): for benchmarks, tests and local folders. Repositories are read
 * through the Forge instead.
 */
export function readDocsFolder(folder: string): Promise<DocsSiteFiles> {
  return readDocsSite(folderDocsTree(folder));
}
