import { posix } from 'node:path';
import { readFrontmatter } from '../docs/frontmatter.js';
import { openDocsSite, type DocsSiteFiles } from '../docs/site-files.js';
import { isDocsPagePath, urlPathFromFile } from '../docs/url-path.js';
import type { Overlay } from '../forge/overlay.js';
import type { FileChange } from '../forge/types.js';
import type { WritePolicy } from '../write-policy/index.js';
import { checkDocs, sortProblems } from './check-docs.js';
import type { CheckProblem } from './types.js';

const MARKDOWN_FILE = /\.mdx?$/i;

export interface ChangeCheckInput {
  /** The repository with the agent's edits. */
  files: Overlay;
  /** The same repository before them (an overlay of the snapshot with nothing written). */
  base: Overlay;
  /** The run's write policy: its docs root, and what may change at all. */
  policy: WritePolicy;
  /** The net change (`files.changes()`). */
  changes: readonly FileChange[];
}

/**
 * The docs checks of one run, blaming the change only for what it broke: the changed pages are
 * checked (links of every page when one was deleted or moved, since links elsewhere may point at
 * it), the navigation too, and problems the docs already had before the change are left out.
 * A link to a page the change deleted is its own, blocking, finding. Files are reported relative
 * to the repository.
 */
export async function checkChanges(input: ChangeCheckInput): Promise<CheckProblem[]> {
  const { policy } = input;
  const refused = input.changes.flatMap((change) => {
    const verdict = policy.check(change.path);
    return verdict.allowed ? [] : [{ path: change.path, reason: verdict.reason }];
  });
  const inside = input.changes.flatMap((change) => {
    const path = policy.docsPath(change.path);
    return path === undefined ? [] : [{ path, removed: change.content === null }];
  });
  const written = inside.filter((change) => !change.removed).map((change) => change.path);
  const removedPages = new Set(
    inside
      .filter((change) => change.removed && isDocsPagePath(change.path))
      .map((change) => urlPathFromFile(change.path)),
  );
  const after = await openDocsSite(input.files, policy.root);
  const files =
    removedPages.size > 0 ? after.tree.paths().filter((file) => MARKDOWN_FILE.test(file)) : written;
  const found = await checkDocs(after, { files, syntax: written });
  const before = await openDocsSite(input.base, policy.root);
  const existed = new Set(before.tree.paths());
  const known = await checkDocs(before, {
    files: files.filter((file) => existed.has(file)),
    syntax: written.filter((file) => existed.has(file)),
  });
  const introduced = [...withoutKnown(found, known), ...(await missingTitles(input, after, written))];
  const prefix = policy.root === '' ? '' : `${policy.root}/`;
  const blamed = introduced.map((problem) => ({
    ...deletedPageLink(problem, removedPages),
    file: posix.normalize(prefix + problem.file),
  }));
  const escaped: CheckProblem[] = refused.map(({ path, reason }) => ({
    rule: 'write-policy',
    file: path,
    message: `${path} must not change: ${reason}`,
    key: `write-policy|${path}`,
  }));
  return sortProblems([...escaped, ...blamed]);
}

/** A broken link whose target the change deleted: the site would lose a page other pages need. */
function deletedPageLink(problem: CheckProblem, removedPages: Set<string>): CheckProblem {
  if (problem.rule !== 'broken-link' || problem.target === undefined || !removedPages.has(problem.target)) {
    return problem;
  }
  return {
    ...problem,
    rule: 'deleted-page-linked',
    message: `links to ${problem.target}, a page this change deletes`,
    key: `deleted-page-linked|${problem.file}|${problem.target}`,
  };
}

/**
 * Pages the change wrote that have no title: new ones, or ones that lost it. Starlight's content
 * schema and Mintlify read the title from the frontmatter alone (Starlight's build fails without
 * it); Docusaurus, MkDocs and VitePress also take the page's first `#` heading.
 */
async function missingTitles(
  input: ChangeCheckInput,
  site: DocsSiteFiles,
  written: string[],
): Promise<CheckProblem[]> {
  const { framework } = site.layout;
  const headingCounts = !['starlight', 'mintlify', 'markdown'].includes(framework);
  const hasTitle = async (files: Overlay, repoPath: string) => {
    const frontmatter = readFrontmatter(await files.read(repoPath));
    return frontmatter.title !== undefined || (headingCounts && /^#[ \t]+\S/m.test(frontmatter.body));
  };
  const problems: CheckProblem[] = [];
  for (const file of written) {
    const repoPath = input.policy.repoPath(file);
    if (!site.pages.has(file) || (await hasTitle(input.files, repoPath))) continue;
    if (input.base.exists(repoPath) && !(await hasTitle(input.base, repoPath))) continue;
    const problem: CheckProblem = {
      rule: 'missing-title',
      file,
      message: headingCounts
        ? 'the page has no title: neither a `title` in its frontmatter nor a `#` heading'
        : 'the page has no title in its frontmatter',
      key: `missing-title|${file}`,
    };
    if (framework === 'starlight') problem.blocking = true;
    problems.push(problem);
  }
  return problems;
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
