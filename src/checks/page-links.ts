import { posix } from 'node:path';
import { urlPathFromFile } from '../docs/url-path.js';

/**
 * Internal links of a page and where they point. Markdown links and images `[x](/guides/setup#a)`,
 * reference definitions `[x]: /guides/setup` and JSX/HTML `href="/guides/setup"` (Mintlify's
 * `<Card href>`) are read from the prose only, so example links in code blocks are not checked.
 */

/** One link as written, and its line. */
export interface PageLink {
  href: string;
  line: number;
}

/** Where an internal link points: a page (by URL path) and maybe an anchor on it. */
export type LinkTarget =
  | { kind: 'page'; urlPath: string; anchor?: string }
  | { kind: 'same-page'; anchor: string }
  | { kind: 'outside'; path: string };

const MARKDOWN_LINK = /\]\(\s*<?([^\s)<>]+)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:[ \t]*<?([^\s>]+)/;
const HREF_ATTRIBUTE = /\bhref\s*=\s*\{?\s*(["'])([^"'\n]*)\1/g;
const PAGE_EXTENSION = /\.mdx?$/i;

/** Every link in the prose lines of a page (see page-scan.ts), in order. */
export function extractLinks(prose: string[]): PageLink[] {
  const links: PageLink[] = [];
  prose.forEach((text, index) => {
    const line = index + 1;
    for (const match of text.matchAll(MARKDOWN_LINK)) links.push({ href: match[1]!, line });
    const definition = REFERENCE_DEFINITION.exec(text);
    if (definition) links.push({ href: definition[1]!, line });
    for (const match of text.matchAll(HREF_ATTRIBUTE)) links.push({ href: match[2]!, line });
  });
  return links;
}

/**
 * Resolves a link of the page `sourceFile` (relative to the docs root). Undefined for what is not
 * checked: external addresses, `mailto:`, assets (`/images/a.png`), and bare relative paths
 * without a page extension (`setup`), which sites resolve differently and authors rarely mean as
 * page links; a bare `setup.md` is a link to a file beside the page, as MkDocs and Docusaurus
 * write them.
 * Absolute paths are relative to the site root; `./` and `../` to the page's folder.
 */
export function resolveLink(
  href: string,
  sourceFile: string,
  options: {
    fileLinksOnly?: boolean;
    /**
     * The path, relative to the pages folder, of what a Docusaurus `@site/<path>` link names (a
     * file of the site's folder: `@site/docs/intro.md` is `intro.md` of `website/docs`). Absent,
     * `@site/` links are not checked.
     */
    sitePath?: (path: string) => string;
  } = {},
): LinkTarget | undefined {
  if (href === '' || href.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(href)) return undefined;
  const hashAt = href.indexOf('#');
  const anchor = hashAt === -1 ? undefined : decode(href.slice(hashAt + 1));
  const pathPart = decode(href.slice(0, hashAt === -1 ? undefined : hashAt).replace(/\?.*$/, ''));
  if (pathPart === '') return anchor ? { kind: 'same-page', anchor } : undefined;
  let target: string;
  if (pathPart.startsWith('@site/')) {
    if (options.sitePath === undefined) return undefined;
    target = options.sitePath(pathPart.slice('@site/'.length));
    // A file of the site outside the docs (a page of src/pages/, an asset) is not a docs page.
    if (target === '..' || target.startsWith('../')) return undefined;
  } else if (pathPart.startsWith('/')) target = posix.normalize(pathPart);
  else if (pathPart.startsWith('./') || pathPart.startsWith('../') || PAGE_EXTENSION.test(pathPart))
    target = posix.join(posix.dirname(sourceFile), pathPart);
  else return undefined;
  const last = target.replace(/\/+$/, '').split('/').pop() ?? '';
  if (/\.[A-Za-z0-9]+$/.test(last) && !PAGE_EXTENSION.test(last)) return undefined;
  // MkDocs checks links to page files; a URL (`../setup/`) is resolved by the browser against the
  // page's directory URL, which MkDocs leaves to it.
  if (options.fileLinksOnly && !PAGE_EXTENSION.test(last)) return undefined;
  if (target === '..' || target.startsWith('../')) return { kind: 'outside', path: pathPart };
  const urlPath = urlPathFromFile(target);
  return anchor ? { kind: 'page', urlPath, anchor } : { kind: 'page', urlPath };
}

/** Percent-decodes a link part; a malformed escape leaves the text as written. */
function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
