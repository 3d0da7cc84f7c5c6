/**
 * The syntax every reader of a page shares: where its frontmatter block ends and where its fenced
 * code blocks open and close. The index, the checks, the agents, the impact analysis and the
 * assistant's answers all read pages through these, so they never disagree about what is code,
 * what is frontmatter and what is prose.
 *
 * Two dialects of fences: in MDX a fence may be indented any amount (components indent their
 * children, and MDX has no indented code); in CommonMark at most three spaces (a deeper ``` line is
 * text of an indented block or of an open fence).
 */

export type FenceDialect = 'mdx' | 'markdown';

/** A fence a line opens: its marker (three or more backticks or tildes) and its info string. */
export interface Fence {
  marker: string;
  info: string;
}

const FENCE_OPEN: Record<FenceDialect, RegExp> = {
  mdx: /^[ \t]*(`{3,}|~{3,})(.*)$/,
  markdown: /^ {0,3}(`{3,}|~{3,})(.*)$/,
};
const FENCE_CLOSE: Record<FenceDialect, RegExp> = {
  mdx: /^[ \t]*(`{3,}|~{3,})[ \t]*$/,
  markdown: /^ {0,3}(`{3,}|~{3,})[ \t]*$/,
};
const FRONTMATTER_OPEN = /^\uFEFF?---[ \t]*\r?$/;
const FRONTMATTER_CLOSE = /^---[ \t]*\r?$/;

/** The fence a line opens, or undefined. A backtick marker whose info holds a backtick (```x```) is inline code, not a fence. */
export function openingFence(line: string, dialect: FenceDialect = 'mdx'): Fence | undefined {
  const match = FENCE_OPEN[dialect].exec(line);
  if (!match) return undefined;
  const [, marker, info] = match as unknown as [string, string, string];
  if (marker.startsWith('`') && info.includes('`')) return undefined;
  return { marker, info: info.trim() };
}

/** Whether a line closes a fence opened with `marker`: the same character, at least as many. */
export function closesFence(line: string, marker: string, dialect: FenceDialect = 'mdx'): boolean {
  const match = FENCE_CLOSE[dialect].exec(line);
  return match !== null && match[1]![0] === marker[0] && match[1]!.length >= marker.length;
}

/** Index of the line closing the fence opened at `start`, or -1 when nothing closes it. */
export function fenceEnd(
  lines: readonly string[],
  start: number,
  marker: string,
  dialect: FenceDialect = 'mdx',
): number {
  for (let index = start + 1; index < lines.length; index += 1) {
    if (closesFence(lines[index]!, marker, dialect)) return index;
  }
  return -1;
}

/** A page's frontmatter block, read from its lines (split with or without their line ends). */
export interface FrontmatterBlock {
  /** The YAML between the fences. */
  yaml: string;
  /** Lines the block takes, both fences included (all the page's lines when it is never closed). */
  lineCount: number;
  /** False when the opening `---` has no closing one. */
  closed: boolean;
}

/** The frontmatter block of a page's lines, if the page starts with one. */
export function frontmatterOf(lines: readonly string[]): FrontmatterBlock | undefined {
  if (!FRONTMATTER_OPEN.test(trimEnd(lines[0]))) return undefined;
  const close = lines.findIndex((line, index) => index > 0 && FRONTMATTER_CLOSE.test(trimEnd(line)));
  const end = close === -1 ? lines.length : close;
  const yaml = lines
    .slice(1, end)
    .map((line) => trimEnd(line).replace(/\r$/, ''))
    .join('\n');
  return { yaml, lineCount: close === -1 ? lines.length : close + 1, closed: close !== -1 };
}

/** A page's text split at its frontmatter: the block's YAML (when closed) and the text after it. */
export function splitFrontmatter(content: string): { yaml?: string; body: string } {
  const lines = content.split(/(?<=\n)/);
  const block = frontmatterOf(lines);
  if (block === undefined || !block.closed) return { body: content };
  return { yaml: block.yaml, body: lines.slice(block.lineCount).join('') };
}

function trimEnd(line: string | undefined): string {
  return (line ?? '').replace(/\n$/, '');
}

/**
 * A frontmatter line that links to a path of the site (`link: /guides/setup/`, as Starlight's hero
 * actions and `prev`/`next` write them): the text before the target, its quote, the target, and
 * the rest of the line. Global and multi-line, for a whole block; reset `lastIndex` to reuse it.
 */
export const FRONTMATTER_LINK = /^([ \t]*(?:-[ \t]+)?link:[ \t]*)(["']?)(\/[^"'\s]*)\2([ \t]*\r?)$/gm;
