import { statSync } from 'node:fs';
import { isDocsPagePath } from '../docs/index.js';
import type { DocsTree } from '../docs/docs-tree.js';
import { readDocsFolder } from '../docs/read-docs-folder.js';
import { readDocsSite, type DocsSiteFiles } from '../docs/site-files.js';
import { badRequest, notFound } from '../core/errors.js';
import type { ImpactInput } from './analyze-impact.js';
import type { PageInput } from './page-vocabulary.js';

/**
 * The input of `analyzeImpact` from disk: the pages of the docs folder at `docsRoot` (Markdown
 * and MDX, paths relative to it, read by the docs model's own reader) and the diff text as given.
 * Throws a `not_found` error when the folder does not exist and `invalid_request` when it is a file.
 */
export async function readImpactInput(docsRoot: string, diff: string): Promise<ImpactInput> {
  let isFolder: boolean;
  try {
    isFolder = statSync(docsRoot).isDirectory();
  } catch {
    throw notFound(`The docs folder ${docsRoot} does not exist.`);
  }
  if (!isFolder) throw badRequest(`${docsRoot} is a file; the docs root must be a folder.`);
  return { diff, pages: pagesOf(await readDocsFolder(docsRoot)) };
}

/**
 * The pages of a docs tree (a repository's snapshot under its docs root) as `analyzeImpact` takes
 * them, read the way a folder on disk is read.
 */
export async function readImpactPages(tree: DocsTree): Promise<PageInput[]> {
  return pagesOf(await readDocsSite(tree));
}

function pagesOf(site: DocsSiteFiles): PageInput[] {
  return site.files
    .filter((file) => isDocsPagePath(file.path))
    .map((file) => ({ path: file.path, text: file.content }));
}
