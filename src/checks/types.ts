/**
 * Shapes of the docs checks: what a problem is. The docs they run over are a `DocsTree` (an
 * overlay of a job, or a folder on disk), the docs model's one view of a site.
 */

/** What a problem is about; stable names, shown in the CLI output and the PR body. */
export type CheckRule =
  | 'frontmatter'
  | 'mdx-syntax'
  | 'navigation'
  | 'deleted-page-linked'
  | 'write-policy'
  | 'broken-link'
  | 'broken-anchor'
  | 'code-fence'
  | 'missing-title';

/**
 * Findings that mean the site would not build (or the change broke what it must not): a run that
 * still has one after its repair rounds commits nothing. The others are listed in the reply.
 */
const BLOCKING_RULES: ReadonlySet<CheckRule> = new Set([
  'frontmatter',
  'mdx-syntax',
  'navigation',
  'deleted-page-linked',
  'write-policy',
]);

/** Whether a finding blocks the commit (else it is advisory). */
export function isBlocking(problem: Pick<CheckProblem, 'rule' | 'blocking'>): boolean {
  return problem.blocking ?? BLOCKING_RULES.has(problem.rule);
}

/** One thing wrong with the docs. */
export interface CheckProblem {
  rule: CheckRule;
  /** The file it is in: relative to the docs root for `checkDocs`, to the repository for `checkChanges`. */
  file: string;
  /** 1-based line, when the problem has one. */
  line?: number;
  message: string;
  /**
   * Whether this finding blocks, where the site's framework decides it rather than the rule: a
   * broken link is blocking where the framework's build fails on it (Docusaurus, MkDocs --strict,
   * VitePress).
   */
  blocking?: boolean;
  /** For a broken link to a page: the URL path it points to. */
  target?: string;
  /**
   * What identifies the problem apart from its line (rule, file and e.g. the link target): a change
   * is blamed only for problems whose key the unchanged docs did not already have.
   */
  key: string;
}
