import { diffFilePath, type ParsedDiff } from './diff-types.js';
import type { ImpactPage } from './impact-types.js';

/**
 * The rule of `docwright impact --check` and of the App's docs check: of the pages a change
 * affects, those it leaves as they were. A page the same diff changes counts as brought up to date.
 * `docsRoot` is the pages' folder in the diff's repository ('' for its root), so the diff's paths,
 * relative to the repository root, can be matched with the pages' paths, relative to the docs root.
 */
export function pagesLeftStale(
  pages: readonly ImpactPage[],
  diff: ParsedDiff,
  docsRoot: string,
): ImpactPage[] {
  const prefix = docsRoot === '' ? '' : `${docsRoot}/`;
  const changed = new Set(
    diff.files
      .map(diffFilePath)
      .filter((file) => file.startsWith(prefix))
      .map((file) => file.slice(prefix.length)),
  );
  return pages.filter((page) => !changed.has(page.path));
}
