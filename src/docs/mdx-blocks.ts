/** Line-level helpers for MDX shared by the section splitter and the docs checks. */

/**
 * Index of the last line of an MDX ESM block starting at `start`: it ends at a blank line once its
 * brackets balance (an `export const Card = () => (...)` spans many lines, blank ones included).
 */
export function esmEnd(lines: string[], start: number): number {
  let depth = 0;
  for (let index = start; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (line.trim() === '' && depth <= 0) return index;
    for (const character of line.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '')) {
      if ('([{'.includes(character)) depth += 1;
      else if (')]}'.includes(character)) depth -= 1;
    }
  }
  return lines.length - 1;
}
