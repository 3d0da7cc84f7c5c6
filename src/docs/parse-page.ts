import { readFrontmatter } from './frontmatter.js';
import { headingText, proseToText } from './mdx-text.js';
import { createSlugger } from './slug.js';
import { splitSections, type RawSection } from './split-sections.js';
import type { DocsFile, DocsPage, DocsSection } from './types.js';
import { normalizeFilePath, urlPathFromFile } from './url-path.js';

/**
 * Parses one Markdown/MDX page (path relative to the docs root) into its title, URL path and
 * sections. Never throws on content: bad frontmatter, unclosed fences and stray tags all degrade
 * to plain text.
 */
export function parsePage(file: DocsFile): DocsPage {
  const path = normalizeFilePath(file.path);
  const frontmatter = readFrontmatter(file.content);
  const raw = splitSections(frontmatter.body, { mdx: !/\.md$/i.test(path) });
  const sections = toSections(raw);
  const firstHeading = sections.find((section) => section.level === 1)?.heading;
  return {
    path,
    urlPath: urlPathFromFile(path),
    title: frontmatter.title ?? firstHeading ?? titleFromPath(path),
    description: frontmatter.description,
    keywords: frontmatter.keywords,
    sidebarTitle: frontmatter.sidebarTitle,
    noindex: frontmatter.noindex,
    hidden: frontmatter.hidden,
    sections,
  };
}

/** Cleans raw sections, gives them anchors and heading chains, and drops the ones left empty. */
function toSections(raw: RawSection[]): DocsSection[] {
  const slug = createSlugger();
  const chain: { level: number; text: string }[] = [];
  const sections: DocsSection[] = [];
  // The anchor of the heading that accordions sit in: theirs unless they name their own, and that
  // of the text after them.
  let enclosing = '';
  for (const section of raw) {
    const heading = section.level === 0 ? '' : headingText(section.heading);
    let anchor: string;
    if (section.kind === 'heading') anchor = enclosing = section.level === 0 ? '' : slug(heading);
    else anchor = section.anchor ?? enclosing;
    while (chain.length > 0 && chain[chain.length - 1]!.level >= section.level) chain.pop();
    if (section.level > 0) chain.push({ level: section.level, text: heading });
    const body = sectionBody(section);
    // A heading with nothing under it lives on in its subsections' heading chains.
    if (body === '') continue;
    sections.push({
      anchor,
      heading,
      headings: chain.map((entry) => entry.text),
      level: section.level,
      body,
    });
  }
  return sections;
}

function sectionBody(section: RawSection): string {
  return section.parts
    .map((part) => (part.code ? dedent(part.text) : proseToText(part.text)))
    .filter((text) => text !== '')
    .join('\n\n');
}

/** Removes the indentation shared by all lines of a code block (components indent their children). */
function dedent(text: string): string {
  const lines = text.split('\n');
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^[ \t]*/.exec(line)![0].length);
  const common = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(Math.min(common, line.length))).join('\n');
}

/** `guides/getting-started.mdx` -> `Getting started` for pages with no title at all. */
function titleFromPath(path: string): string {
  const segments = path.replace(/\.(mdx|md)$/i, '').split('/');
  let name = segments.pop() ?? '';
  if (name.toLowerCase() === 'index') name = segments.pop() ?? 'Home';
  const words = name.replace(/[-_]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Home';
}
