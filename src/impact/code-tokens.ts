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

/** The tokens of one line; comment lines and trailing comments are marked as prose. */
export function lexLine(line: string): CodeToken[] {
  if (line.length > MAX_LEXED_LINE) return [];
  const commentLine = COMMENT_LINE.test(line);
  const tokens: CodeToken[] = [];
  let prose = commentLine;
  let index = 0;
  while (index < line.length) {
    const char = line[index]!;
    if (char === ' ' || char === '\t') {
      index += 1;
      continue;
    }
    if (
      !prose &&
      (line.startsWith('//', index) || line.startsWith('/*', index) || isHashComment(line, index))
    )
      prose = true;
    if (char === '"' || char === "'" || char === '`') {
      const end = stringEnd(line, index, char);
      const text = line.slice(index + 1, end);
      tokens.push({ kind: 'string', text, prose: prose || /\s/.test(text.trim()) });
      index = end + 1;
      continue;
    }
    const word = /^[A-Za-z_$#@][\w$]*/.exec(line.slice(index, index + 200));
    if (word) {
      const text = word[0].replace(/^[#@]+/, '');
      if (text !== '')
        tokens.push({ kind: KEYWORD_LITERALS.has(text) ? 'keyword-literal' : 'name', text, prose });
      index += word[0].length;
      continue;
    }
    const number = /^\d[\w.]*/.exec(line.slice(index, index + 100));
    if (number) {
      tokens.push({ kind: 'number', text: number[0], prose });
      index += number[0].length;
      continue;
    }
    tokens.push({ kind: 'punct', text: char, prose });
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
