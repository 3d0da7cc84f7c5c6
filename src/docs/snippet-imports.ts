import { readFrontmatter } from './frontmatter.js';
import { normalizeFilePath } from './url-path.js';

/**
 * Imported snippets as part of the pages that import them: Mintlify sites keep shared text in
 * `snippets/` and import it (`import Steps from "/snippets/steps.mdx"`, then `<Steps />`); the
 * reader sees that text on the page, so search must find the page by it.
 */

const IMPORT = /^import\s+([A-Z][\w$]*)\s+from\s+["']([^"']+\.mdx?)["'];?[ \t]*$/gm;
/** Snippets may import snippets; deeper chains are rare and would only repeat text. */
const MAX_DEPTH = 3;

/** Whether a file (relative to the docs root) is a snippet that pages import. */
export function isSnippetPath(relativePath: string): boolean {
  return /(^|\/)snippets\/.+\.mdx?$/i.test(normalizeFilePath(relativePath));
}

/**
 * `content` with each `<Name />` (or `<Name ...>...</Name>`) of an imported snippet replaced by the
 * snippet's text. `snippets` maps paths relative to the docs root to file contents; an import that
 * names no known file is left as it is.
 */
export function mergeSnippets(
  content: string,
  pagePath: string,
  snippets: ReadonlyMap<string, string>,
  depth = 0,
): string {
  if (depth >= MAX_DEPTH || !content.includes('import')) return content;
  let merged = content;
  for (const [, name, source] of content.matchAll(IMPORT)) {
    const path = resolveImport(source!, pagePath);
    const snippet = snippets.get(path);
    if (snippet === undefined) continue;
    const text = mergeSnippets(readFrontmatter(snippet).body, path, snippets, depth + 1);
    const usage = new RegExp(`<${name}(?:\\s[^>]*)?(?:/>|>[\\s\\S]*?</${name}>)`, 'g');
    merged = merged.replace(usage, () => `\n${text}\n`);
  }
  return merged;
}

/** `/snippets/a.mdx` or `../snippets/a.mdx` (from `guides/page.mdx`) -> `snippets/a.mdx`. */
function resolveImport(source: string, fromPath: string): string {
  if (source.startsWith('/')) return normalizeFilePath(source);
  const parts = fromPath.split('/').slice(0, -1);
  for (const segment of source.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.' && segment !== '') parts.push(segment);
  }
  return parts.join('/');
}
