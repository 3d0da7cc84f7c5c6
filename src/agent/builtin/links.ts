/**
 * Internal links of a page: Markdown links `[x](/guides/setup#step)`, reference definitions
 * `[x]: /guides/setup`, and JSX/HTML `href="/guides/setup"` (Mintlify's `<Card href>`). Absolute
 * paths are relative to the docs site root; `./` and `../` paths to the page's folder. Bare
 * relative paths (`setup`) are left alone: whether they are links to pages is not obvious.
 */
import path from 'node:path';
import { FRONTMATTER_LINK } from '../../docs/page-syntax.js';
import { mapFrontmatter, mapProse } from './markdown-prose.js';
import { pageKey } from './page-paths.js';

const MARKDOWN_LINK = /(\]\(\s*<?)([^\s)<>]+)(?=>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\))/g;
const REFERENCE_DEFINITION = /^( {0,3}\[[^\]\n]+\]:[ \t]*<?)([^\s>]+)/gm;
const HREF_ATTRIBUTE = /(\bhref\s*=\s*\{?\s*)(["'])([^"'\n]*)\2/g;

/** An internal link target, resolved against the page that holds it. */
interface ParsedHref {
  /** The target page as a docs-relative path without extension (`guides/setup`, `guides/index`). */
  target: string;
  /** `#anchor` and/or `?query`, kept when the link is repointed. */
  suffix: string;
  relative: boolean;
  /** Written without `./` (`setup.md`): kept so when repointed. */
  bare: boolean;
  /** Written with a slash at the end (`/guides/setup/`, as Starlight and MkDocs serve pages): kept. */
  trailingSlash: boolean;
  /** `.mdx`/`.md` when the link spelled it out. */
  extension: string;
}

/** Applies `rewrite` to every link target in the prose of `content`, and to the frontmatter's `link:`s. */
function mapHrefs(content: string, rewrite: (href: string) => string): string {
  const withFrontmatter = mapFrontmatter(content, (block) =>
    block.replace(
      FRONTMATTER_LINK,
      (_match, prefix: string, quote: string, href: string, rest: string) =>
        `${prefix}${quote}${rewrite(href)}${quote}${rest}`,
    ),
  );
  return mapProse(withFrontmatter, (prose) =>
    prose
      .replace(MARKDOWN_LINK, (_match, prefix: string, href: string) => prefix + rewrite(href))
      .replace(REFERENCE_DEFINITION, (_match, prefix: string, href: string) => prefix + rewrite(href))
      .replace(
        HREF_ATTRIBUTE,
        (_match, prefix: string, quote: string, href: string) => `${prefix}${quote}${rewrite(href)}${quote}`,
      ),
  );
}

/** Resolves a link of the page `sourcePage` (docs-relative, no extension); undefined when not internal. */
function parseHref(href: string, sourcePage: string): ParsedHref | undefined {
  if (href === '' || href.startsWith('#') || href.startsWith('//') || /^[a-z][a-z0-9+.-]*:/i.test(href))
    return undefined;
  const suffixAt = href.search(/[#?]/);
  const pathPart = suffixAt === -1 ? href : href.slice(0, suffixAt);
  const suffix = suffixAt === -1 ? '' : href.slice(suffixAt);
  let target: string;
  // A bare `setup.md` is a file beside the page (MkDocs and Docusaurus write links so).
  const bareFile = !pathPart.startsWith('/') && !pathPart.startsWith('@') && /\.mdx?$/i.test(pathPart);
  const relative = pathPart.startsWith('./') || pathPart.startsWith('../') || bareFile;
  if (pathPart.startsWith('/')) target = pathPart.slice(1);
  else if (relative) target = path.posix.join(path.posix.dirname(sourcePage), pathPart);
  else return undefined;
  if (target === '..' || target.startsWith('../')) return undefined;
  const extension = /\.mdx?$/i.exec(target.replace(/\/+$/, ''))?.[0] ?? '';
  target = target.replace(/\/+$/, '').replace(/\.mdx?$/i, '');
  const trailingSlash = extension === '' && /[^/]\/+$/.test(pathPart);
  return { target: target === '.' ? '' : target, suffix, relative, bare: bareFile, trailingSlash, extension };
}

/** Writes a link to `targetPage` from `sourcePage` in the style of `original` (absolute or relative). */
function formatHref(original: ParsedHref, targetPage: string, sourcePage: string): string {
  // A link written to the folder (`/guides` for `guides/index`) stays in the short form.
  const shortForm = original.target === pageKey(original.target);
  const written = shortForm ? pageKey(targetPage) : targetPage;
  const extension = written === '' ? '' : original.extension;
  const slash = original.trailingSlash && written !== '' ? '/' : '';
  if (!original.relative) return `/${written}${extension}${slash}${original.suffix}`;
  let relative = path.posix.relative(path.posix.dirname(sourcePage), written || '.');
  if (relative === '') relative = '.';
  if (!relative.startsWith('../') && relative !== '..' && !original.bare) relative = `./${relative}`;
  return `${relative}${extension}${slash}${original.suffix}`;
}

/** How links change: where a link target now lives, and (when the page itself moved) its new name. */
export interface LinkRewrite {
  /** The page holding the links, as it was named when they were written. */
  sourcePage: string;
  /** Its new name when it moved; relative links are then rewritten to keep their targets. */
  movedTo?: string;
  /** The new page for a target key (see pageKey), or undefined to keep the target. */
  retarget: (targetKey: string) => string | undefined;
}

/** Rewrites the internal links of one page; returns the new text and how many links changed. */
export function rewriteLinks(content: string, rewrite: LinkRewrite): { content: string; count: number } {
  let count = 0;
  const newSource = rewrite.movedTo ?? rewrite.sourcePage;
  const sourceMoved = path.posix.dirname(newSource) !== path.posix.dirname(rewrite.sourcePage);
  const result = mapHrefs(content, (href) => {
    const parsed = parseHref(href, rewrite.sourcePage);
    if (!parsed) return href;
    const newTarget = rewrite.retarget(pageKey(parsed.target));
    if (newTarget === undefined && !(parsed.relative && sourceMoved)) return href;
    const next = formatHref(parsed, newTarget ?? parsed.target, newSource);
    if (next !== href) count += 1;
    return next;
  });
  return { content: result, count };
}

/** The keys (see pageKey) of the internal link targets of a page, one per link. */
export function linkTargets(content: string, sourcePage: string): string[] {
  const keys: string[] = [];
  mapHrefs(content, (href) => {
    const parsed = parseHref(href, sourcePage);
    if (parsed) keys.push(pageKey(parsed.target));
    return href;
  });
  return keys;
}
