/**
 * Turns the prose of an MDX page (everything outside fenced code blocks) into readable text:
 * JSX/HTML tags removed with their content kept, the attributes that carry words (a Card's
 * `title`, an image's `alt`) kept as text, comments dropped, Markdown links reduced to their text.
 * Inline code spans are left exactly as written: `<Note>` inside backticks is documentation.
 */

/** Attributes whose values are words a reader would search for (lower-cased names). */
const TEXT_ATTRIBUTES = new Set(['title', 'description', 'label', 'alt', 'caption', 'headline', 'name']);
/** ParamField names its parameter through the attribute of its location. */
const PARAMETER_ATTRIBUTES = new Set(['query', 'path', 'body', 'header']);

const MARKUP_START = /[`<{]/g;
const ATTRIBUTE = /([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
// Code spans are parked as private-use characters, which Markdown text never contains.
const PLACEHOLDER = /\uE000(\d+)\uE000/g;

interface Tag {
  end: number;
  /** Text the tag stands for: kept attribute values, or the address of an autolink. */
  text: string;
}

/** Readable text of a prose fragment of an MDX page. */
export function proseToText(prose: string): string {
  const codeSpans: string[] = [];
  const stripped = stripMarkup(prose, codeSpans);
  const linked = reduceLinks(stripped);
  const restored = linked.replace(PLACEHOLDER, (_, index: string) => codeSpans[Number(index)] ?? '');
  return tidyLines(restored);
}

/** Removes tags and comments; code spans are swapped for placeholders so links can still be reduced. */
function stripMarkup(source: string, codeSpans: string[]): string {
  let output = '';
  let index = 0;
  while (index < source.length) {
    const character = source[index];
    if (character === '`') {
      const run = runLength(source, index, '`');
      const close = findClosingRun(source, index + run, run);
      const end = close === -1 ? index + run : close + run;
      if (close === -1) output += source.slice(index, end);
      else output += `\uE000${codeSpans.push(source.slice(index, end)) - 1}\uE000`;
      index = end;
    } else if (source.startsWith('<!--', index) || source.startsWith('{/*', index)) {
      const closer = character === '<' ? '-->' : '*/}';
      const close = source.indexOf(closer, index + 3);
      index = close === -1 ? source.length : close + closer.length;
    } else if (character === '<' && /[A-Za-z/>]/.test(source[index + 1] ?? '')) {
      const tag = readTag(source, index);
      output += tag ? tag.text : character;
      index = tag ? tag.end : index + 1;
    } else {
      // Plain text up to the next character that may start markup is copied in one piece.
      const next = nextSpecial(source, index + 1);
      output += source.slice(index, next);
      index = next;
    }
  }
  return output;
}

function nextSpecial(source: string, from: number): number {
  MARKUP_START.lastIndex = from;
  return MARKUP_START.exec(source)?.index ?? source.length;
}

/** Reads a JSX/HTML tag starting at `start` (a `<`), or null when the `<` does not open one. */
function readTag(source: string, start: number): Tag | null {
  let index = start + 1;
  const closing = source[index] === '/';
  if (closing) index += 1;
  const name = /^[A-Za-z][\w.:-]*/.exec(source.slice(index, index + 100))?.[0] ?? '';
  index += name.length;
  if (name.endsWith(':') && source.startsWith('//', index)) {
    // An autolink such as <https://example.com>: the address is the text.
    const close = source.indexOf('>', index);
    return close === -1 ? null : { end: close + 1, text: source.slice(start + 1, close) };
  }
  if (!/^[\s/>]/.test(source[index] ?? '')) return null;
  const end = findTagEnd(source, index);
  if (end === -1) return null;
  const selfClosing = source[end - 1] === '/';
  const values = closing ? [] : textAttributes(source.slice(index, end));
  // An opening tag's title heads its content, so it goes on a line of its own.
  const text = values.length === 0 ? '' : values.join(' ') + (selfClosing ? ' ' : '\n');
  return { end: end + 1, text };
}

/** Index of the `>` that ends a tag whose attributes start at `start`; quotes and `{...}` are skipped. */
function findTagEnd(source: string, start: number): number {
  let depth = 0;
  for (let index = start; index < source.length; index += 1) {
    const character = source[index];
    if (character === '"' || character === "'" || (character === '`' && depth > 0)) {
      const close = source.indexOf(character, index + 1);
      if (close === -1) return -1;
      index = close;
    } else if (character === '{') depth += 1;
    else if (character === '}') depth = Math.max(0, depth - 1);
    else if (character === '>' && depth === 0) return index;
    // A blank line outside braces means this `<` was text ("a <b test"), not a tag.
    else if (character === '\n' && depth === 0 && /^\n[ \t]*\n/.test(source.slice(index, index + 80)))
      return -1;
  }
  return -1;
}

function textAttributes(attributes: string): string[] {
  const values: string[] = [];
  for (const match of attributes.matchAll(ATTRIBUTE)) {
    const name = (match[1] ?? '').toLowerCase();
    const value = (match[2] ?? match[3] ?? '').trim();
    if (value !== '' && (TEXT_ATTRIBUTES.has(name) || PARAMETER_ATTRIBUTES.has(name))) values.push(value);
  }
  return values;
}

/** `[text](url)`, `![alt](src)` and `[text][ref]` become their text; reference definitions go. */
function reduceLinks(text: string): string {
  if (!text.includes('[')) return text;
  return text
    .replace(/^[ \t]*\[[^\]\n]+\]:[ \t]*\S+.*$/gm, '')
    .replace(/!?\[([^\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'))?\)/g, '$1')
    .replace(/\[([^\]\n]+)\]\[[^\]\n]*\]/g, '$1');
}

/** Drops the indentation JSX nesting adds and collapses the blank lines removed tags leave behind. */
function tidyLines(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function runLength(source: string, start: number, character: string): number {
  let end = start;
  while (source[end] === character) end += 1;
  return end - start;
}

/** Start of the next run of exactly `length` backticks after `from`, or -1 (CommonMark code spans). */
function findClosingRun(source: string, from: number, length: number): number {
  let index = source.indexOf('`', from);
  while (index !== -1) {
    const run = runLength(source, index, '`');
    if (run === length) return index;
    index = source.indexOf('`', index + run);
  }
  return -1;
}

/** Heading text as a reader sees it: no tags, no link syntax, no code or emphasis markers. */
export function headingText(heading: string): string {
  return (
    proseToText(heading)
      .replace(/`+/g, '')
      .replace(/(\*\*|\*)(\S(?:.*?\S)?)\1/g, '$2')
      // Underscores inside a word are part of it (`PCC_INVALID_IMAGE`), not emphasis.
      .replace(/(^|[^\p{L}\p{N}_])(__?)(\S(?:.*?\S)?)\2(?![\p{L}\p{N}_])/gu, '$1$3')
      .replace(/\s+/g, ' ')
      .trim()
  );
}
