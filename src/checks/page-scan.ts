/**
 * One pass over a page's lines that the syntax and link checks share: where the frontmatter ends,
 * which lines are fenced code, and the prose with code, comments and MDX `import`/`export` blocks
 * blanked out. Blanked lines stay in place, so line numbers of what is left are the file's own.
 */

import { esmEnd } from '../docs/mdx-blocks.js';

/** A page split into what the checks read. */
export interface ScannedPage {
  /** The frontmatter block, when the page starts with `---`. */
  frontmatter?: { yaml: string; closed: boolean };
  /** Every line of the file as written (index 0 is line 1). */
  lines: string[];
  /** The same lines with anything that is not prose blanked: code, comments, frontmatter, ESM. */
  prose: string[];
  /** 1-based line of a code fence that is opened and never closed. */
  unclosedFence?: number;
}

// MDX has no indented code, so fences inside components may be indented any amount; CommonMark
// allows at most three spaces (a deeper ``` line is text inside the open fence).
const FENCE_OPEN = { mdx: /^[ \t]*(`{3,}|~{3,})(.*)$/, markdown: /^ {0,3}(`{3,}|~{3,})(.*)$/ };
const FENCE_CLOSE = { mdx: /^[ \t]*(`{3,}|~{3,})[ \t]*$/, markdown: /^ {0,3}(`{3,}|~{3,})[ \t]*$/ };
const FRONTMATTER_FENCE = /^\uFEFF?---[ \t]*$/;
const ESM_START = /^(import|export)[\s{*]/;
const COMMENT = /<!--[\s\S]*?(?:-->|$)|\{\/\*[\s\S]*?(?:\*\/\}|$)/g;
const INLINE_CODE = /(?<!`)(`+)(?!`)[^\n]*?(?<!`)\1(?!`)/g;

/** Scans a page; `mdx` turns on MDX rules (top-level `import`/`export` blocks are code). */
export function scanPage(content: string, options: { mdx: boolean }): ScannedPage {
  const lines = content.split(/\r?\n/);
  const prose = lines.map(() => '');
  const scanned: ScannedPage = { lines, prose };
  const dialect = options.mdx ? 'mdx' : 'markdown';
  let index = readFrontmatter(lines, scanned);
  while (index < lines.length) {
    const line = lines[index]!;
    const fence = FENCE_OPEN[dialect].exec(line);
    if (fence && !(fence[1]!.startsWith('`') && fence[2]!.includes('`'))) {
      const end = fenceEnd(lines, index, fence[1]!, FENCE_CLOSE[dialect]);
      if (end === -1) {
        scanned.unclosedFence = index + 1;
        break;
      }
      index = end + 1;
    } else if (options.mdx && ESM_START.test(line)) {
      index = esmEnd(lines, index) + 1;
    } else {
      prose[index] = line;
      index += 1;
    }
  }
  scanned.prose = blank(prose.join('\n'), COMMENT).replace(INLINE_CODE, spaces).split('\n');
  return scanned;
}

/** Records the frontmatter block and returns the index of the first line after it. */
function readFrontmatter(lines: string[], scanned: ScannedPage): number {
  if (!FRONTMATTER_FENCE.test(lines[0] ?? '')) return 0;
  const close = lines.findIndex((line, index) => index > 0 && /^---[ \t]*$/.test(line));
  if (close === -1) {
    scanned.frontmatter = { yaml: lines.slice(1).join('\n'), closed: false };
    return lines.length;
  }
  scanned.frontmatter = { yaml: lines.slice(1, close).join('\n'), closed: true };
  return close + 1;
}

/** Index of the line closing the fence opened at `start`, or -1 when it is never closed. */
function fenceEnd(lines: string[], start: number, opener: string, closer: RegExp): number {
  for (let index = start + 1; index < lines.length; index += 1) {
    const close = closer.exec(lines[index]!);
    if (close && close[1]![0] === opener[0] && close[1]!.length >= opener.length) return index;
  }
  return -1;
}

/** Replaces every match with spaces, keeping its line breaks (and so every line number). */
function blank(text: string, pattern: RegExp): string {
  return text.replace(pattern, spaces);
}

function spaces(match: string): string {
  return match.replace(/[^\n]/g, ' ');
}
