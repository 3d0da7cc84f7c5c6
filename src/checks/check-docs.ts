import { checkNavigation } from './navigation-check.js';
import { checkPage } from './page-check.js';
import { SiteMap } from './site-map.js';
import type { DocsTree } from '../docs/docs-tree.js';
import type { DocsSiteFiles } from '../docs/site-files.js';
import type { CheckProblem } from './types.js';

const MARKDOWN_FILE = /\.mdx?$/i;

export interface CheckDocsOptions {
  /** Markdown/MDX files to check (relative to the docs root); default: every one in the tree. */
  files?: readonly string[];
  /** Of those, the files whose syntax (frontmatter, MDX) is checked; default: all of them. */
  syntax?: readonly string[];
  /** Check the navigation config too; default true. */
  navigation?: boolean;
}

/**
 * Runs the docs checks over a site read by the docs model (or a folder of pages read as one): each
 * Markdown/MDX file parses (frontmatter, fences, MDX where the framework reads MDX), its internal
 * links and anchors resolve as the framework resolves them, and the navigation lists existing
 * pages. Problems come sorted by file and line.
 */
export async function checkDocs(
  docs: DocsSiteFiles | DocsTree,
  options: CheckDocsOptions = {},
): Promise<CheckProblem[]> {
  const site = await SiteMap.load(docs);
  const files = options.files ?? site.tree.paths().filter((file) => MARKDOWN_FILE.test(file));
  const syntax = options.syntax === undefined ? undefined : new Set(options.syntax);
  const problems: CheckProblem[] = [];
  for (const file of files) {
    if (MARKDOWN_FILE.test(file)) problems.push(...(await checkPage(site, file, syntax?.has(file) ?? true)));
  }
  if (options.navigation !== false) problems.push(...checkNavigation(site));
  return sortProblems(problems);
}

/** By file, then line (problems without a line first). */
export function sortProblems(problems: CheckProblem[]): CheckProblem[] {
  return [...problems].sort(
    (left, right) => left.file.localeCompare(right.file) || (left.line ?? 0) - (right.line ?? 0),
  );
}
