import type { Overlay } from '../forge/overlay.js';
import type { FileChange } from '../forge/types.js';
import { checkDocs, sortProblems } from './check-docs.js';
import { normalizeDocsRoot, overlayDocsTree } from './docs-tree.js';
import type { CheckProblem } from './types.js';

const MARKDOWN_FILE = /\.mdx?$/i;

export interface ChangeCheckInput {
  /** The repository with the agent's edits. */
  files: Overlay;
  /** The same repository before them (an overlay of the snapshot with nothing written). */
  base: Overlay;
  /** The project's docs root, relative to the repository; '' for the root. */
  docsRoot: string;
  /** The net change (`files.changes()`). */
  changes: readonly FileChange[];
}

/**
 * The docs checks of one run, blaming the change only for what it broke: the changed pages are
 * checked (every page when one was deleted or moved, since links elsewhere may point at it), the
 * navigation too, and problems the docs already had before the change are left out. Files are
 * reported relative to the repository.
 */
export async function checkChanges(input: ChangeCheckInput): Promise<CheckProblem[]> {
  const root = normalizeDocsRoot(input.docsRoot);
  const prefix = root === '' ? '' : `${root}/`;
  const outside = input.changes.filter((change) => !isInsideDocs(change.path, prefix));
  const inside = input.changes
    .filter((change) => isInsideDocs(change.path, prefix))
    .map((change) => ({ path: change.path.slice(prefix.length), removed: change.content === null }));
  const after = overlayDocsTree(input.files, root);
  const removedPage = inside.some((change) => change.removed && MARKDOWN_FILE.test(change.path));
  const files = removedPage
    ? after.paths().filter((file) => MARKDOWN_FILE.test(file))
    : inside.filter((change) => !change.removed).map((change) => change.path);
  const found = await checkDocs(after, { files });
  const before = overlayDocsTree(input.base, root);
  const existed = new Set(before.paths());
  const known = await checkDocs(before, { files: files.filter((file) => existed.has(file)) });
  const introduced = withoutKnown(found, known).map((problem) => ({
    ...problem,
    file: prefix + problem.file,
  }));
  const escaped: CheckProblem[] = outside.map((change) => ({
    rule: 'outside-docs-root',
    file: change.path,
    message: `${change.path} is outside the docs folder${root === '' ? '' : ` ${root}/`} or protected; it must not change`,
    key: `outside-docs-root|${change.path}`,
  }));
  return sortProblems([...escaped, ...introduced]);
}

/** Whether a repository path is inside the docs root and outside `.github/`. */
function isInsideDocs(path: string, prefix: string): boolean {
  if (path === '.github' || path.startsWith('.github/')) return false;
  return prefix === '' || path.startsWith(prefix);
}

/** `found` minus one occurrence per known problem with the same key. */
function withoutKnown(found: CheckProblem[], known: CheckProblem[]): CheckProblem[] {
  const counts = new Map<string, number>();
  for (const problem of known) counts.set(problem.key, (counts.get(problem.key) ?? 0) + 1);
  return found.filter((problem) => {
    const count = counts.get(problem.key) ?? 0;
    if (count > 0) counts.set(problem.key, count - 1);
    return count === 0;
  });
}
