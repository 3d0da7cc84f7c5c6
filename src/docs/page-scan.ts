/**
 * One pass over a page's lines that the syntax and link checks share: where the frontmatter ends,
 * which lines are fenced code, and the prose with code, comments and MDX `import`/`export` blocks
 * blanked out. Blanked lines stay in place, so line numbers of what is left are the file's own.
 */

import { esmEnd } from './mdx-blocks.js';
import { fenceEnd, frontmatterOf, openingFence } from './page-syntax.js';

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
    const fence = openingFence(line, dialect);
    if (fence) {
      const end = fenceEnd(lines, index, fence.marker, dialect);
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
  const block = frontmatterOf(lines);
  if (block === undefined) return 0;
  scanned.frontmatter = { yaml: block.yaml, closed: block.closed };
  return block.lineCount;
}

/** Replaces every match with spaces, keeping its line breaks (and so every line number). */
function blank(text: string, pattern: RegExp): string {
  return text.replace(pattern, spaces);
}

function spaces(match: string): string {
  return match.replace(/[^\n]/g, ' ');
}
