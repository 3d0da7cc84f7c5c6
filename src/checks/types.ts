/**
 * Shapes of the docs checks (issue 6, "Docs checks, for every agent"): what a problem is, and the
 * read-only view of a docs folder the checks run over (an overlay of a job, or a folder on disk).
 */

/** What a problem is about; stable names, shown in the CLI output and the PR body. */
export type CheckRule =
  'frontmatter' | 'mdx-syntax' | 'broken-link' | 'broken-anchor' | 'navigation' | 'outside-docs-root';

/** One thing wrong with the docs. */
export interface CheckProblem {
  rule: CheckRule;
  /** The file it is in: relative to the docs root for `checkDocs`, to the repository for `checkChanges`. */
  file: string;
  /** 1-based line, when the problem has one. */
  line?: number;
  message: string;
  /**
   * What identifies the problem apart from its line (rule, file and e.g. the link target): a change
   * is blamed only for problems whose key the unchanged docs did not already have.
   */
  key: string;
}

/** A read-only docs folder: every file path relative to the docs root, and their text. */
export interface DocsTree {
  /** Every file (pages, navigation config, assets), POSIX paths relative to the docs root, sorted. */
  paths(): string[];
  read(path: string): Promise<string>;
}
