import { headingText } from '../docs/mdx-text.js';
import { createSlugger, slugify } from '../docs/slug.js';
import type { ScannedPage } from '../docs/page-scan.js';

/**
 * The anchors a page offers to `#fragment` links: its headings' slugs as GitHub and Mintlify make
 * them (repeats suffixed `-1`, `-2`), explicit `id="..."` attributes, the titles of components
 * Mintlify links to (`<Accordion title="Branch">` is `#branch`), `param-<name>` of
 * `<ParamField>` / `<ResponseField>`, a heading's own `{#id}` (Docusaurus, MkDocs' attribute
 * lists, VitePress) and the footnote anchors each framework makes.
 */

const HEADING_MDX = /^[ \t]*(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const HEADING_MARKDOWN = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const ID_ATTRIBUTE = /\bid\s*=\s*\{?\s*(["'])([^"'\n]+)\1/g;
const TITLE_ATTRIBUTE = /\btitle\s*=\s*\{?\s*(["'])([^"'\n]+)\1/g;
const FIELD_NAME =
  /<(?:ParamField|ResponseField)\b[^>]*?\b(?:name|path|query|body|header)\s*=\s*(["'])([^"'\n]+)\1/g;
/** A heading's own id in an attribute list: `## Setup {#setup}`, `### pip { #with-pip .class }`. */
const HEADING_ID = /\{[ \t]*#([\w:.-]+)[^}]*\}[ \t]*$/;
/** A footnote reference `[^1]`: MkDocs links to `#fn:1`, GitHub-flavoured sites to `#user-content-fn-1`. */
const FOOTNOTE = /\[\^([^\]\s]+)\]/g;
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
    if (match?.[2]) {
      const ownId = HEADING_ID.exec(match[2]);
      anchors.add(ownId ? ownId[1]! : slug(headingText(match[2])));
    }
    for (const note of prose.matchAll(FOOTNOTE)) {
      for (const prefix of ['fn:', 'fnref:', 'fn-', 'fnref-', 'user-content-fn-', 'user-content-fnref-'])
        anchors.add(`${prefix}${note[1]!}`);
    }
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
