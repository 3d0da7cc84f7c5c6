/**
 * Balance of JSX/HTML tags in the prose of a page: the MDX sanity check we can make without an MDX
 * compiler. An MDX page whose `<Card>` is never closed, or whose `</Steps>` closes a `<Step>`,
 * fails to build on the docs site; CommonMark pages (`.md`) only have their components checked,
 * since raw HTML there may legally leave `<p>` or `<li>` open.
 */

/** A tag problem: where, what (for the message) and a line-free identity (for comparisons). */
export interface TagProblem {
  line: number;
  message: string;
  detail: string;
}

interface Tag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  /** False when no `>` ends the tag. */
  terminated: boolean;
  /** Index just past the tag's `>` (or its name, when it is not terminated). */
  end: number;
}

/** HTML elements that never have a closing tag. */
const VOID_ELEMENTS = new Set('area base br col embed hr img input link meta source track wbr'.split(' '));
const AUTOLINK = /^<(?:[A-Za-z][A-Za-z0-9+.-]*:[^\s<>]*|[^\s<>@]+@[^\s<>]+)>/;
const TAG_NAME = /^[A-Za-z][\w.:-]*/;

/** Finds unclosed, stray and mismatched tags in prose (code already blanked; see page-scan.ts). */
export function checkTagBalance(prose: string[], options: { mdx: boolean }): TagProblem[] {
  const text = prose.join('\n');
  const lineOf = lineLocator(text);
  const problems: TagProblem[] = [];
  const open: { name: string; line: number }[] = [];
  let index = text.indexOf('<');
  while (index !== -1) {
    const tag = AUTOLINK.test(text.slice(index, index + 500)) ? undefined : readTag(text, index);
    if (tag === undefined || !isChecked(tag.name, options.mdx)) {
      // Not a tag (`a < b`, an autolink), or one this kind of page may leave open.
    } else if (!tag.terminated) {
      problems.push({
        line: lineOf(index),
        message: `<${tag.name} is never ended with ">"`,
        detail: `unterminated ${tag.name}`,
      });
    } else if (!tag.selfClosing) {
      if (!tag.closing) open.push({ name: tag.name, line: lineOf(index) });
      else problems.push(...closeTag(open, tag.name, lineOf(index)));
    }
    index = text.indexOf('<', tag ? tag.end : index + 1);
  }
  for (const tag of open) {
    problems.push({
      line: tag.line,
      message: `<${tag.name || '>'}${tag.name ? '>' : ''} is never closed`,
      detail: `unclosed ${tag.name}`,
    });
  }
  return problems;
}

/** Pops the stack down to the tag `name` closes; reports what that leaves unclosed, or a stray close. */
function closeTag(open: { name: string; line: number }[], name: string, line: number): TagProblem[] {
  const position = open.map((tag) => tag.name).lastIndexOf(name);
  if (position === -1) {
    return [{ line, message: `</${name}> closes a tag that is not open`, detail: `stray close ${name}` }];
  }
  const unclosed = open.splice(position).slice(1);
  return unclosed.map((tag) => ({
    line: tag.line,
    message: `<${tag.name}> is not closed before </${name}> on line ${line}`,
    detail: `unclosed ${tag.name} inside ${name}`,
  }));
}

/** Components (capitalised) always; lowercase HTML elements only in MDX, where they must be closed too. */
function isChecked(name: string, mdx: boolean): boolean {
  if (name === '') return mdx;
  if (/^[A-Z]/.test(name) || name.includes('.')) return true;
  return mdx && !VOID_ELEMENTS.has(name.toLowerCase());
}

/**
 * Reads the tag starting at `start`, or undefined when `<` does not start one (`a < b`). Attribute
 * values in quotes and `{...}` expressions may hold `>`.
 */
function readTag(text: string, start: number): Tag | undefined {
  let index = start + 1;
  const closing = text[index] === '/';
  if (closing) index += 1;
  const name = TAG_NAME.exec(text.slice(index, index + 200))?.[0] ?? '';
  if (name === '' && text[index] !== '>') return undefined;
  index += name.length;
  const unterminated: Tag = { name, closing, selfClosing: false, terminated: false, end: index };
  let depth = 0;
  let quote: string | undefined;
  for (; index < text.length; index += 1) {
    const character = text[index]!;
    if (quote !== undefined) {
      if (character === quote) quote = undefined;
    } else if (character === '"' || character === "'" || (character === '`' && depth > 0)) {
      quote = character;
    } else if (character === '{') {
      depth += 1;
    } else if (character === '}') {
      depth -= 1;
    } else if (depth <= 0 && character === '>') {
      return { name, closing, selfClosing: text[index - 1] === '/', terminated: true, end: index + 1 };
    } else if (depth <= 0 && character === '<') {
      return unterminated;
    }
  }
  return unterminated;
}

/** Maps a character index of `text` to its 1-based line. */
function lineLocator(text: string): (index: number) => number {
  const starts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    starts.push(index + 1);
  }
  return (index) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= index) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
}
