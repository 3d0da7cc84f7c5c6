import { headingText } from '../docs/mdx-text.js';
import { createSlugger, slugify } from '../docs/slug.js';
import type { ScannedPage } from './page-scan.js';

/**
 * The anchors a page offers to `#fragment` links: its headings' slugs as GitHub and Mintlify make
 * them (repeats suffixed `-1`, `-2`), explicit `id="..."` attributes, the titles of components
 * Mintlify links to (`<Accordion title="Branch">` is `#branch`), and `param-<name>` of
 * `<ParamField>` / `<ResponseField>`.
 */

const HEADING_MDX = /^[ \t]*(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const HEADING_MARKDOWN = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const ID_ATTRIBUTE = /\bid\s*=\s*\{?\s*(["'])([^"'\n]+)\1/g;
const TITLE_ATTRIBUTE = /\btitle\s*=\s*\{?\s*(["'])([^"'\n]+)\1/g;
const FIELD_NAME =
  /<(?:ParamField|ResponseField)\b[^>]*?\b(?:name|path|query|body|header)\s*=\s*(["'])([^"'\n]+)\1/g;
const SNIPPET_IMPORT = /^import\s+[A-Za-z_$][\w$]*\s+from\s+(["'])([^"']+\.mdx?)\1/;

/** Every anchor of a scanned page. */
export function pageAnchors(page: ScannedPage, options: { mdx: boolean }): Set<string> {
  const heading = options.mdx ? HEADING_MDX : HEADING_MARKDOWN;
  const slug = createSlugger();
  const anchors = new Set<string>();
  page.prose.forEach((prose, index) => {
    if (prose.trim() === '') return;
    // The raw line: code spans in a heading are part of its text (`## The \`config\` option`).
    const match = heading.exec(page.lines[index] ?? '');
    if (match?.[2]) anchors.add(slug(headingText(match[2])));
    for (const id of prose.matchAll(ID_ATTRIBUTE)) anchors.add(id[2]!);
    for (const title of prose.matchAll(TITLE_ATTRIBUTE)) anchors.add(slugify(title[2]!));
    for (const field of prose.matchAll(FIELD_NAME)) anchors.add(`param-${slugify(field[2]!)}`);
  });
  return anchors;
}

/** Files an MDX page imports as components (`import Setup from '/snippets/setup.mdx'`), as written. */
export function snippetImports(page: ScannedPage): string[] {
  return page.lines.flatMap((line) => {
    const match = SNIPPET_IMPORT.exec(line);
    return match ? [match[2]!] : [];
  });
}

/**
 * Whether `anchor` is one of `anchors`. Slugs differ between site generators in punctuation
 * (`example%3A-connect` against `example-connect`), so letters and digits alone also match: a
 * link is reported only when no heading comes close.
 */
export function hasAnchor(anchors: ReadonlySet<string>, anchor: string): boolean {
  if (anchors.has(anchor) || anchors.has(anchor.toLowerCase())) return true;
  const wanted = skeleton(anchor);
  return [...anchors].some((candidate) => skeleton(candidate) === wanted);
}

function skeleton(anchor: string): string {
  return anchor.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}
