/**
 * The docs checks (issue 6): run after every agent's edits and before the commit, and by
 * `docwright check` on a folder. Frontmatter parses, MDX is balanced, internal links and anchors
 * resolve, the navigation lists existing pages, nothing outside the docs root changed.
 */
export { checkChanges, type ChangeCheckInput } from './check-changes.js';
export { checkDocs, sortProblems, type CheckDocsOptions } from './check-docs.js';
export { folderDocsTree, normalizeDocsRoot, overlayDocsTree } from './docs-tree.js';
export {
  formatProblemsAsMarkdown,
  formatProblemsForTerminal,
  problemLocation,
  summarizeProblems,
} from './format.js';
export type { CheckProblem, CheckRule, DocsTree } from './types.js';
