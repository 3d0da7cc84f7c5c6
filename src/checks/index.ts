/**
 * The docs checks: run after every agent's edits and before the commit, and by `docwright check`
 * on a folder. Blocking: frontmatter parses, MDX parses, the navigation is valid JSON and lists
 * existing pages, no link points at a page the change deleted, the write policy allows every
 * change. Advisory: internal links and anchors resolve, code fences close, pages have titles.
 */
export { checkChanges } from './check-changes.js';
export { checkDocs } from './check-docs.js';
export { formatProblemsAsMarkdown, formatProblemsForTerminal, summarizeProblems } from './format.js';
export { isBlocking, type CheckProblem } from './types.js';
