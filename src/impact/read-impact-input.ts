import { statSync } from 'node:fs';
import { posix } from 'node:path';
import { folderWithSurroundings, type RepositoryFiles } from '../docs/docs-tree.js';
import { openDocsSite, type DocsSiteFiles, type OpenSiteOptions } from '../docs/site-files.js';
import { badRequest, notFound } from '../core/errors.js';
import type { ImpactInput } from './analyze-impact.js';
import type { PageInput } from './page-vocabulary.js';

/**
 * The input of `analyzeImpact` from disk: the pages of the docs folder at `docsFolder` as its docs
 * framework reads them (paths relative to the folder) and the diff text as given. Throws a
 * `not_found` error when the folder does not exist and `invalid_request` when it is a file.
 */
export async function readImpactInput(docsFolder: string, diff: string): Promise<ImpactInput> {
  let isFolder: boolean;
  try {
    isFolder = statSync(docsFolder).isDirectory();
  } catch {
    throw notFound(`The docs folder ${docsFolder} does not exist.`);
  }
  if (!isFolder) throw badRequest(`${docsFolder} is a file; the docs root must be a folder.`);
  const { repository, docsRoot } = folderWithSurroundings(docsFolder);
  return { diff, pages: await readImpactPages(repository, docsRoot) };
}

/**
 * The pages of the docs site a docs root names in a repository (a snapshot, or a folder on disk
 * with what surrounds it), as `analyzeImpact` takes them: paths relative to the docs root, and only
 * what the framework publishes as the current docs. Old versions (Docusaurus `versioned_docs/`,
 * or version folders side by side such as `1.x/` beside `latest/`, whatever the framework) and
 * translations (`i18n/`, VitePress and Starlight locales) are not pages of it, so a change never
 * lists them.
 */
export async function readImpactPages(
  repository: RepositoryFiles,
  docsRoot: string,
  options: OpenSiteOptions = {},
): Promise<PageInput[]> {
  return pagesOf(await openDocsSite(repository, docsRoot, options), docsRoot);
}

function pagesOf(site: DocsSiteFiles, docsRoot: string): PageInput[] {
  const root = docsRoot.replace(/^\/+|\/+$/g, '');
  return site.files.flatMap((file) => {
    const page = site.pages.get(file.path);
    if (page === undefined || page.translation !== undefined || page.oldVersion !== undefined) return [];
    const repoPath = posix.join(site.layout.pagesRoot, file.path);
    const path =
      root === '' ? repoPath : repoPath.startsWith(`${root}/`) ? repoPath.slice(root.length + 1) : undefined;
    return path === undefined ? [] : [{ path, text: file.content }];
  });
}
