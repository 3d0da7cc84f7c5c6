import type { TextSpan } from './markup-spans.js';

/**
 * A rough lexer for one line of code in any common language: enough to tell names from literals
 * and comments, and to line up a removed line with the added line that replaced it. It does not
 * parse; a line it misreads only costs a name, never an error.
 */

type CodeTokenKind = 'name' | 'string' | 'number' | 'keyword-literal' | 'punct';

export interface CodeToken {
  kind: CodeTokenKind;
  /** The name, the string's content without quotes, the number or the punctuation character. */
  text: string;
  /** Inside a comment or a sentence-like string: prose around names, not code. */
  prose: boolean;
}

/** Longest line lexed: longer lines are minified or data, and their names are not names people write. */
const MAX_LEXED_LINE = 2_000;

/** Literals that are words: a default of `false` or `None` is a value, not a name. */
const KEYWORD_LITERALS = new Set([
  'true',
  'false',
  'null',
  'undefined',
  'None',
  'True',
  'False',
  'nil',
  'NaN',
  'Infinity',
]);

const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*|#(?![\w[!])|--\s|;;|<!--)/;

/**
 * The tokens of one line; comment lines and trailing comments are marked as prose. `spans` (in
 * order) say which stretches are prose, comment or markup whatever they look like (see
 * markup-spans.ts): their tokens are prose; an element's text (`prose`) holds no strings or
 * comments (an apostrophe in it opens nothing), and markup gives no tokens.
 */
export function lexLine(line: string, spans: readonly TextSpan[] = []): CodeToken[] {
  if (line.length > MAX_LEXED_LINE) return [];
  const commentLine = COMMENT_LINE.test(line);
  const tokens: CodeToken[] = [];
  let prose = commentLine;
  let index = 0;
  let span = 0;
  while (index < line.length) {
    while (span < spans.length && spans[span]!.end <= index) span += 1;
    const inside = spans[span] !== undefined && spans[span]!.start <= index ? spans[span] : undefined;
    if (inside?.kind === 'markup') {
      index = inside.end;
      continue;
    }
    // Inside a span every token is prose; in an element's text (`prose`), quotes are letters.
    const text = inside !== undefined;
    const literal = inside?.kind === 'prose';
    const char = line[index]!;
    if (char === ' ' || char === '\t') {
      index += 1;
      continue;
    }
    if (
      !prose &&
      !text &&
      (line.startsWith('//', index) || line.startsWith('/*', index) || isHashComment(line, index))
    )
      prose = true;
    if (!literal && (char === '"' || char === "'" || char === '`')) {
      const end = stringEnd(line, index, char);
      const text = line.slice(index + 1, end);
      tokens.push({ kind: 'string', text, prose: prose || inside !== undefined || /\s/.test(text.trim()) });
      index = end + 1;
      continue;
    }
    const word = /^[A-Za-z_$#@][\w$]*/.exec(line.slice(index, index + 200));
    if (word) {
      const name = word[0].replace(/^[#@]+/, '');
      if (name !== '')
        tokens.push({
          kind: KEYWORD_LITERALS.has(name) ? 'keyword-literal' : 'name',
          text: name,
          prose: prose || text,
        });
      index += word[0].length;
      continue;
    }
    const number = /^\d[\w.]*/.exec(line.slice(index, index + 100));
    if (number) {
      tokens.push({ kind: 'number', text: number[0], prose: prose || text });
      index += number[0].length;
      continue;
    }
    tokens.push({ kind: 'punct', text: char, prose: prose || text });
    index += 1;
  }
  return tokens;
}

/** `#` starts a comment in Python, shell, Ruby and YAML when it follows a space or opens the line. */
function isHashComment(line: string, index: number): boolean {
  return (
    line[index] === '#' && (index === 0 || line[index - 1] === ' ') && /^#(?:\s|$)/.test(line.slice(index))
  );
}

/** Index of the closing quote (or the line's end), skipping backslash escapes. */
function stringEnd(line: string, start: number, quote: string): number {
  for (let index = start + 1; index < line.length; index += 1) {
    if (line[index] === '\\') index += 1;
    else if (line[index] === quote) return index;
  }
  return line.length;
}
