/**
 * A fence-aware line splitter: cuts a page body into sections at ATX headings (`## Title`),
 * ignoring `#` lines inside ``` and ~~~ fenced code, and skipping MDX `import`/`export` blocks.
 * In MDX, an accordion (`<Accordion title="…">`, `<Expandable title="…">`) is a section of its own,
 * one level under the heading it sits in: troubleshooting and FAQ pages put one answer in each,
 * under one heading, and a question should find the accordion that answers it, not the whole
 * list. Text after an accordion closes goes back to the heading it sat in.
 *
 * Why not `marked.lexer`: it builds a full token tree (measured on the 1,069 mintlify pages: 230 ms
 * against 26 ms for this splitter) and reads MDX as CommonMark, so a `## Heading` indented inside
 * `<Steps>` would become an indented code block, while MDX has no indented code. Setext headings (`Title\n===`) are not recognised; docs sites
 * written in MDX do not use them.
 */

import { esmEnd } from './mdx-blocks.js';
import { fenceEnd, openingFence } from './page-syntax.js';

/** A run of a section's lines: prose to clean, or a fenced code block kept verbatim. */
interface SectionPart {
  code: boolean;
  text: string;
}

/** Parts collect lines while splitting and are joined once at the end. */
interface LinesPart {
  code: boolean;
  lines: string[];
}

interface LinesSection {
  level: number;
  heading: string;
  parts: LinesPart[];
  kind: SectionKind;
  anchor?: string;
}

/**
 * `heading`: under an ATX heading (or the text before the first); `component`: an accordion's
 * content; `resumed`: the text after an accordion closes, which belongs to the heading before it.
 */
type SectionKind = 'heading' | 'component' | 'resumed';

/** The lines under one heading, before any cleaning. */
export interface RawSection {
  /** 0 for the text before the first heading. */
  level: number;
  /** Heading text as written (may still hold Markdown or JSX). */
  heading: string;
  parts: SectionPart[];
  kind: SectionKind;
  /** An accordion's own `id`, the anchor its page gives it. */
  anchor?: string;
}

export interface SplitOptions {
  /** MDX: headings may be indented (inside components) and top-level `import`/`export` is code. */
  mdx: boolean;
}

const HEADING_MDX = /^[ \t]*(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const HEADING_MARKDOWN = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const ESM_START = /^(import|export)[\s{*]/;
/** An accordion's opening tag (quoted values may hold `>`), its title in group 2 or 3. */
const COMPONENT_OPEN =
  /^[ \t]*<(Accordion|Expandable)\b(?=[^>]*?\stitle=(?:"([^"]*)"|'([^']*)'))(?:[^>"']|"[^"]*"|'[^']*')*>?/;
const COMPONENT_ID = /\sid=(?:"([^"]+)"|'([^']+)')/;
const COMPONENT_CLOSE = /<\/(?:Accordion|Expandable)>/;

/** Splits a page body (frontmatter already removed) into raw sections. */
export function splitSections(body: string, options: SplitOptions): RawSection[] {
  const lines = body.split(/\r?\n/);
  const heading = options.mdx ? HEADING_MDX : HEADING_MARKDOWN;
  const sections: LinesSection[] = [{ level: 0, heading: '', parts: [], kind: 'heading' }];
  // The heading the current accordions sit in, and the accordions open in it, innermost last.
  let enclosing = sections[0]!;
  const open: LinesSection[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    const section = sections[sections.length - 1]!;
    // Fences are read the MDX way in every page: an indented ``` line of a Markdown page is code too.
    const fence = openingFence(line, 'mdx');
    if (fence) {
      // CommonMark: an unclosed fence runs to the end of the document.
      const closed = fenceEnd(lines, index, fence.marker, 'mdx');
      const end = closed === -1 ? lines.length - 1 : closed;
      addPart(section, true, lines.slice(index, end + 1));
      index = end + 1;
      continue;
    }
    if (options.mdx && ESM_START.test(line)) {
      index = esmEnd(lines, index) + 1;
      continue;
    }
    const component = options.mdx ? COMPONENT_OPEN.exec(line) : null;
    const match = heading.exec(line);
    if (component) {
      const parent = open.at(-1) ?? enclosing;
      const id = COMPONENT_ID.exec(component[0]);
      const opened: LinesSection = {
        level: Math.max(1, parent.level) + 1,
        heading: component[2] ?? component[3] ?? '',
        parts: [],
        kind: 'component',
        anchor: id ? (id[1] ?? id[2]) : undefined,
      };
      sections.push(opened);
      addPart(opened, false, [line]);
      if (component[0].endsWith('/>') || COMPONENT_CLOSE.test(line)) sections.push(resumed(parent));
      else open.push(opened);
    } else if (match && match[2] !== '') {
      open.length = 0;
      enclosing = { level: match[1]!.length, heading: match[2]!, parts: [], kind: 'heading' };
      sections.push(enclosing);
    } else {
      addPart(section, false, [line]);
      if (open.length > 0 && COMPONENT_CLOSE.test(line)) {
        open.pop();
        sections.push(resumed(open.at(-1) ?? enclosing));
      }
    }
    index += 1;
  }
  return sections.map(({ level, heading, parts, kind, anchor }) => ({
    level,
    heading,
    parts: parts.map(({ code, lines }) => ({ code, text: lines.join('\n') })),
    kind,
    ...(anchor === undefined ? {} : { anchor }),
  }));
}

function addPart(section: LinesSection, code: boolean, lines: string[]): void {
  const last = section.parts[section.parts.length - 1];
  // Consecutive prose lines gather into one part, joined once when the split is done.
  if (last && !code && !last.code) last.lines.push(...lines);
  else section.parts.push({ code, lines });
}

/** The section that takes up again what an accordion interrupted: its heading, or the accordion it sat in. */
function resumed(parent: LinesSection): LinesSection {
  return { level: parent.level, heading: parent.heading, parts: [], kind: 'resumed', anchor: parent.anchor };
}
