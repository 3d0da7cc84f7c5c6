/**
 * The docs frameworks docwright reads and edits, by the names `docs_framework:` in the repository's
 * settings and `--docs-framework` take. Without one the framework is found from the repository's
 * files (its config file).
 */
const DOCS_FRAMEWORKS = ['docusaurus', 'mkdocs', 'vitepress', 'starlight', 'mintlify'] as const;
export type DeclaredDocsFramework = (typeof DOCS_FRAMEWORKS)[number];

export function isDocsFramework(value: unknown): value is DeclaredDocsFramework {
  return typeof value === 'string' && (DOCS_FRAMEWORKS as readonly string[]).includes(value);
}

/** The sentence for a name that is none of them. */
export function unknownFrameworkMessage(value: string): string {
  return `"${value}" is not a docs framework docwright knows: use one of ${DOCS_FRAMEWORKS.join(', ')}`;
}

/** The docs model's option for a project's stored `docs_framework` (null or unknown: found from its files). */
export function frameworkOption(value: string | null | undefined): { framework?: DeclaredDocsFramework } {
  return isDocsFramework(value) ? { framework: value } : {};
}
