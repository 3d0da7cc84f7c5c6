import { findReaderPage, type ReaderPage, type ReaderSite } from '../docs/index.js';

// What the MCP server and the llms.txt routes read of a project's pages, which they reach through
// the assistant's layer (the one that serves the docs to readers), never the docs model directly.
export { findReaderPage, type ReaderPage, type ReaderSite };

/** What an llms.txt says besides the pages: the site's name and where its Markdown files are served. */
export interface LlmsOptions {
  /** The H1: the site's name (its config's, else one the caller chose). */
  name: string;
  /** The address of a page's Markdown file (see ReaderPage.markdownFile). */
  linkOf(page: ReaderPage): string;
}

/** Heading of the pages the navigation lists outside any group. */
const UNGROUPED_SECTION = 'Docs';
/** Heading of the pages the navigation does not list. */
const UNLISTED_SECTION = 'Other pages';

/** Largest llms-full.txt written: a few megabytes is already more than a model's context holds. */
const LLMS_FULL_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The site's llms.txt (llmstxt.org): an H1 with its name, a blockquote summary, then one H2 per
 * top navigation group with a `- [Title](url): description` line per page, in navigation order.
 */
export function llmsText(site: ReaderSite, options: LlmsOptions): string {
  const lines = [`# ${oneLine(options.name)}`, '', `> ${oneLine(summaryOf(site, options.name))}`, ''];
  const sections = new Map<string, ReaderPage[]>();
  for (const page of site.pages) {
    const section = page.groups[0] ?? (page.listed ? UNGROUPED_SECTION : UNLISTED_SECTION);
    sections.set(section, [...(sections.get(section) ?? []), page]);
  }
  for (const [section, pages] of sections) {
    lines.push(`## ${oneLine(section)}`, '');
    for (const page of pages) {
      const description = page.description ? `: ${oneLine(page.description)}` : '';
      lines.push(`- [${linkText(page.title)}](${options.linkOf(page)})${description}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/**
 * llms-full.txt: the llms.txt heading, then every page's Markdown in navigation order, each after
 * a line naming its address, in pieces (a big site need not be one string). Past `maxBytes` it
 * stops at a page boundary and says so.
 */
export function* llmsFullText(
  site: ReaderSite,
  options: LlmsOptions & { maxBytes?: number },
): Generator<string> {
  const maxBytes = options.maxBytes ?? LLMS_FULL_MAX_BYTES;
  let written = 0;
  const head = `# ${oneLine(options.name)}\n\n> ${oneLine(summaryOf(site, options.name))}\n\n`;
  yield head;
  written += Buffer.byteLength(head);
  for (const [position, page] of site.pages.entries()) {
    const piece = `---\nsource: ${options.linkOf(page)}\n---\n\n${page.markdown}\n`;
    const size = Buffer.byteLength(piece);
    if (written + size > maxBytes) {
      const left = site.pages.length - position;
      yield `[Truncated: ${left} more page(s) are left out to keep this file under ${maxBytes} bytes; llms.txt lists every page.]\n`;
      return;
    }
    written += size;
    yield piece;
  }
}

/** The blockquote: the front page's description, else the first page's, else a sentence naming the site. */
function summaryOf(site: ReaderSite, name: string): string {
  const front = site.pages.find((page) => page.markdownFile === 'index.md')?.description;
  return front ?? site.pages.find((page) => page.description)?.description ?? `The documentation of ${name}.`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A title as a Markdown link's text: brackets escaped so the link stays one. */
function linkText(title: string): string {
  return oneLine(title).replace(/[[\]\\]/g, (character) => `\\${character}`);
}
