import { lexLine, type CodeToken } from './code-tokens.js';
import type { TextSpan } from './markup-spans.js';
import { nameKey, nameShape } from './name-shapes.js';

/** A name written on a line of code, with the place it holds among the line's tokens. */
export interface LineName {
  name: string;
  key: string;
  /** Index of its token in `lexLine(line)`. */
  token: number;
  /** Written in a comment or a sentence: mentioned, not used. */
  prose: boolean;
  /**
   * Written where code defines a name rather than uses one: a declaration, a key, a parameter,
   * an assignment, a shorthand property, a string (strings name keys, codes, flags, routes), or
   * any upper-case code.
   */
  definition: boolean;
}

/**
 * Words of the languages themselves and names every program uses: never what a docs page
 * documents as this project's own. Upper-case spellings are matched lower-cased.
 */
const CODE_WORDS = new Set(
  `abstract and any arguments args as assert async await bool boolean break byte case catch cb char class
  cls const constructor continue def default defer del delete do elif else enum err error except export
  exports extends final finally float fn for from func function global go if impl implements import in
  instanceof int interface is lambda let loop match mod module mut new nonlocal not null number object
  of or package pass private protected prototype pub public raise readonly require return self static
  str string struct super switch symbol then this throw throws trait try type typeof uint undefined
  unknown use var void while with yield len print println printf console log length push call apply
  bind get set has map filter reduce foreach keys values entries string tostring json parse stringify
  assign create resolve reject promise then done next value values key name opts options params args
  result res req data item items obj fn callback`
    .split(/\s+/)
    .filter((word) => word !== ''),
);

/** A string holding a module path or file name (`./lib/x.js`, `node:fs`) names no option. */
const MODULE_PATH =
  /^(?:\.{1,2}\/|node:|[@\w-]+\/[\w./-]*\.(?:js|ts|mjs|cjs|json|py|go)$)|\.(?:js|ts|mjs|cjs|json|py|go|rb|rs)$/;
/** Names inside a sentence: flags, dotted or colon names and identifiers with inner capitals or `_`. */
const PROSE_NAME = /--?[A-Za-z][\w-]*|[A-Za-z_$][\w$]*(?:[.:][A-Za-z_$][\w$]*)*/g;

/** Shortest name kept: two letters are initials or loop variables. */
const MIN_NAME_LENGTH = 3;

/**
 * The names on a line of code. Plain words count only where code uses them as names; in comments
 * and sentences only names that cannot be English (`maxRetries`, `ERR_X`, `--flag`) count, and in
 * `spans` the lines around tell (an element's text, a block comment's inside: prose; an HTML tag
 * and its attributes: no names at all; see markup-spans.ts).
 */
export function lineNames(line: string, spans: readonly TextSpan[] = []): LineName[] {
  const names: LineName[] = [];
  const tokens = lexLine(line, spans);
  tokens.forEach((token, index) => {
    const code = !token.prose && !compared(tokens, index);
    const defines = code && (token.kind === 'string' || definesName(tokens, index));
    for (const name of tokenNames(token)) {
      const key = nameKey(name);
      // An upper-case code is an interface wherever it is written (`process.env.APP_HOME` reads a
      // variable users set), unless the code only compares with it: then it comes from elsewhere.
      const definition = defines || (code && nameShape(name) === 'constant');
      if (key !== '') names.push({ name, key, token: index, prose: token.prose, definition });
    }
  });
  return names;
}

/**
 * Whether the token at `index` is compared (`code === 'ERR_X'`, `'x' != kind`): a string tested
 * against is a value the code receives from elsewhere, not one it defines.
 */
function compared(tokens: readonly CodeToken[], index: number): boolean {
  const text = (offset: number) => tokens[index + offset]?.text ?? '';
  return (
    (text(-1) === '=' && /^[=!]$/.test(text(-2))) ||
    (text(1) === '=' && /^[=!]$/.test(text(2))) ||
    (text(1) === '!' && text(2) === '=')
  );
}

/** Words that declare the name after them, in the common languages. */
const DECLARERS = new Set(
  'function def class func const let var fn type interface struct enum val trait macro module alias'.split(
    ' ',
  ),
);

/**
 * Whether the name token at `index` is being defined: `name:` / `name?:` (a key, a field, a
 * typed parameter), `name =` (an assignment or a default, not `==` or `=>`), a declarer before
 * it, a shorthand property or destructured name (`{ a, name }`), or a line's first name followed
 * by its type (`MaxSockets int`).
 */
function definesName(tokens: readonly CodeToken[], index: number): boolean {
  const text = (offset: number) => tokens[index + offset]?.text ?? '';
  if (DECLARERS.has(text(-1))) return true;
  const next = text(1) === '?' || text(1) === '!' ? 2 : 1;
  if (text(next) === ':' && text(next + 1) !== ':') return true;
  if (text(next) === '=' && text(next + 1) !== '=' && text(next + 1) !== '>') return true;
  if ((text(-1) === '{' || text(-1) === ',') && (text(1) === ',' || text(1) === '}')) return true;
  // `MaxSockets int` opening a line: a field or variable declared with its type after it (Go).
  return index === 0 && tokens[1]?.kind === 'name';
}

function tokenNames(token: CodeToken): string[] {
  if (token.kind === 'name')
    return token.prose ? proseNames(token.text) : keep(token.text) ? [token.text] : [];
  if (token.kind !== 'string') return [];
  if (token.prose) return proseNames(token.text);
  // Template placeholders (`${key}`, `{name}`) are filled in at run time: the text around them is no name.
  const text = token.text.replace(/\$?\{[^}]*\}/g, ' ').trim();
  if (text !== token.text.trim()) return proseNames(text);
  if (text === '' || MODULE_PATH.test(text) || text.length > 100) return [];
  if (/^--?[A-Za-z][\w-]*$/.test(text)) return [text.startsWith('--') ? text : text.slice(1)];
  if (/^[A-Za-z_$][\w$-]*$/.test(text)) return keep(text) ? [text] : [];
  if (/^\/?[\w$@{}.-]+(?:[:./][\w$@{}.-]+|\/:[\w]+)+\/?$/.test(text) && /[A-Za-z]{2}/.test(text))
    return [text];
  return proseNames(text);
}

/** Addresses in prose: their host and path words name no option of the project. */
const URL = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;

function proseNames(text: string): string[] {
  return (text.replace(URL, ' ').match(PROSE_NAME) ?? []).filter(
    (name) => nameShape(name) !== 'word' && keep(name),
  );
}

function keep(name: string): boolean {
  const bare = name.replace(/^-+/, '');
  return bare.length >= MIN_NAME_LENGTH && !CODE_WORDS.has(bare.toLowerCase()) && /[A-Za-z]/.test(bare);
}
