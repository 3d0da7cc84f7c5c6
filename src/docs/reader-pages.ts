import { parsePage } from './parse-page.js';
import type { DocsSiteFiles } from './site-files.js';
import { isSnippetPath, mergeSnippets } from './snippet-imports.js';
import type { DocsPage } from './types.js';
import { normalizeUrlPath, urlPathFromFile } from './url-path.js';

/** One published page as a reader (or a reader's agent) gets it: where it is and its text as Markdown. */
export interface ReaderPage {
  /** The page file, relative to the pages folder (`guides/setup.mdx`). */
  file: string;
  /** URL path the site serves it at, without an extension (`/guides/setup`). */
  urlPath: string;
  /** The address as the built site spells it (`/guides/setup/`, `/guides/setup.html`). */
  href: string;
  /** Where its Markdown is published beside the site, relative to where the site is served (`guides/setup.md`). */
  markdownFile: string;
  title: string;
  description?: string;
  /** Navigation groups the page is listed under, outermost first. */
  groups: string[];
  /** Whether the navigation lists the page. */
  listed: boolean;
  /** The page as Markdown: its title, its description, then its sections with their headings. */
  markdown: string;
}

/** The published pages of a site, in navigation order (the pages the navigation does not list last). */
export interface ReaderSite {
  /** The site's name in its config, when the config names it. */
  name?: string;
  pages: ReaderPage[];
}

/**
 * The pages readers see, in the order the navigation shows them, each as Markdown: MDX components
 * reduced to their text, code blocks kept. Left out, as the assistant's index leaves them out:
 * pages marked `noindex`, `searchable: false` or `hidden`, translations and old versions (an agent
 * asking about the docs wants the current ones, once).
 */
export function readerPages(site: DocsSiteFiles): ReaderSite {
  const snippets = new Map(
    site.files.filter((file) => isSnippetPath(file.path)).map((f) => [f.path, f.content]),
  );
  const texts = new Map(site.files.map((file) => [file.path, file.content]));
  const order = new Map<string, string[]>();
  for (const entry of site.siteNavigation.entries)
    if (entry.file !== undefined && !order.has(entry.file)) order.set(entry.file, entry.groups);
  const listed = [...order.keys()];
  const unlisted = [...site.pages.keys()].filter((file) => !order.has(file)).sort();
  const pages: ReaderPage[] = [];
  for (const file of [...listed, ...unlisted]) {
    const sitePage = site.pages.get(file);
    const content = texts.get(file);
    if (!sitePage || content === undefined || sitePage.translation || sitePage.oldVersion) continue;
    const page = parsePage({ path: file, content: mergeSnippets(content, file, snippets) });
    if (page.noindex || page.hidden) continue;
    pages.push({
      file,
      urlPath: sitePage.url,
      href: sitePage.href,
      markdownFile: markdownFileOf(sitePage.url, site.layout.siteBase),
      title: page.title,
      ...(page.description ? { description: page.description } : {}),
      groups: [...(order.get(file) ?? [])],
      listed: order.has(file),
      markdown: pageMarkdown(page),
    });
  }
  const resolved = site.navigation?.resolved as { name?: unknown } | undefined;
  const name =
    typeof resolved?.name === 'string' && resolved.name.trim() !== ''
      ? resolved.name.trim()
      : site.layout.siteName;
  return { ...(name ? { name } : {}), pages };
}

/**
 * The page's Markdown file under the site's base: its URL path with `.md` (llmstxt.org's
 * convention), `index.md` for the front page.
 */
function markdownFileOf(urlPath: string, siteBase: string): string {
  const relative =
    urlPath === siteBase.replace(/\/$/, '')
      ? ''
      : urlPath.startsWith(siteBase)
        ? urlPath.slice(siteBase.length)
        : urlPath;
  const path = relative.replace(/^\/+|\/+$/g, '');
  return `${path === '' ? 'index' : path}.md`;
}

/** The page a reference names: its URL path or address (a full URL too), its file or its Markdown file. */
export function findReaderPage(site: ReaderSite, reference: string): ReaderPage | undefined {
  const wanted = normalizeUrlPath(reference);
  return site.pages.find(
    (page) =>
      normalizeUrlPath(page.urlPath) === wanted ||
      urlPathFromFile(page.file) === wanted ||
      urlPathFromFile(page.markdownFile) === wanted,
  );
}

/**
 * A parsed page written back as Markdown. A heading with no text under it is not a section of its
 * own; it is written before the first section under it, so the page keeps its outline.
 */
function pageMarkdown(page: DocsPage): string {
  const blocks = [`# ${page.title}`];
  if (page.description) blocks.push(`> ${page.description.replace(/\s*\n\s*/g, ' ')}`);
  let written: string[] = [];
  for (const section of page.sections) {
    // The page's H1 is its title, written once above.
    const chain = section.headings[0] === page.title ? section.headings.slice(1) : section.headings;
    const shared = commonPrefix(written, chain);
    chain.slice(shared).forEach((heading, index, added) => {
      // The levels of headings with no text of their own are not kept: count up to the section's.
      const level = Math.min(6, Math.max(2, section.level - (added.length - 1 - index)));
      blocks.push(`${'#'.repeat(level)} ${heading}`);
    });
    written = chain;
    blocks.push(section.body);
  }
  return `${blocks.join('\n\n')}\n`;
}

function commonPrefix(left: readonly string[], right: readonly string[]): number {
  let length = 0;
  while (length < left.length && length < right.length && left[length] === right[length]) length += 1;
  return length;
}
