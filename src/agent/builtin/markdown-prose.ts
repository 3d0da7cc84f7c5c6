/**
 * The prose of a Markdown/MDX page: everything but the frontmatter, fenced code blocks and inline
 * code. Links are rewritten only there, because docs about docs are full of example links
 * (`[Setup](./setup)` inside a code block) that describe syntax and must stay as written.
 */

import { closesFence, frontmatterOf, openingFence } from '../../docs/page-syntax.js';

const INLINE_CODE = /(`+)[^`\n]*?\1/g;

/** Applies `transform` to each stretch of prose of `content` and returns the whole text. */
export function mapProse(content: string, transform: (prose: string) => string): string {
  const lines = content.split(/(?<=\n)/);
  let output = '';
  let prose = '';
  let fence: string | undefined;
  const frontmatterLines = closedFrontmatterLength(lines);
  const flush = () => {
    output += mapOutsideInlineCode(prose, transform);
    prose = '';
  };
  for (const [index, line] of lines.entries()) {
    const text = line.replace(/\r?\n$/, '');
    if (index < frontmatterLines) {
      output += line;
    } else if (fence !== undefined) {
      output += line;
      if (closesFence(text, fence)) fence = undefined;
    } else {
      const open = openingFence(text);
      if (open) {
        flush();
        output += line;
        fence = open.marker;
      } else {
        prose += line;
      }
    }
  }
  flush();
  return output;
}

/** Applies `transform` to the frontmatter block of `content` (its lines between the `---` fences), if any. */
export function mapFrontmatter(content: string, transform: (block: string) => string): string {
  const lines = content.split(/(?<=\n)/);
  const length = closedFrontmatterLength(lines);
  if (length < 2) return content;
  const block = lines.slice(1, length - 1).join('');
  return lines[0]! + transform(block) + lines.slice(length - 1).join('');
}

/** Lines taken by a leading `---` frontmatter block (0 when there is none or it never closes). */
function closedFrontmatterLength(lines: string[]): number {
  const block = frontmatterOf(lines);
  return block?.closed ? block.lineCount : 0;
}

function mapOutsideInlineCode(prose: string, transform: (prose: string) => string): string {
  let output = '';
  let last = 0;
  for (const match of prose.matchAll(INLINE_CODE)) {
    output += transform(prose.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return output + transform(prose.slice(last));
}
