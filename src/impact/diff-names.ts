import { lexLine, type CodeToken } from './code-tokens.js';
import type { DiffFile, DiffHunk, DiffLine } from './diff-types.js';
import { diffFilePath } from './diff-types.js';
import { lineNames } from './line-names.js';
import { nameWords } from './name-shapes.js';
import { hunkSpans, type TextSpan } from './markup-spans.js';
import { linePairs, tokenEdits, type LinePair, type TokenEdit } from './line-pairs.js';

/**
 * What the diff did to a name:
 * - `removed`: defined on removed lines and nowhere in the code after the change;
 * - `renamed`: removed, and an added name took its place on the same line;
 * - `default-changed`: a literal beside it changed (`retries = 3` -> `retries = 5`);
 * - `type-changed`: kept, but the line that declares it changed beside it: its type or signature
 *   (`staticDir?: string;` -> `staticDir?: string | string[];`). A page that quotes the old
 *   declaration is wrong; one that only names it hears of a change in its area (see nameEvidence);
 * - `added`: on added lines and nowhere in the code before the change;
 * - `changed`: still there but used differently: on removed and added lines alike, or only
 *   used (not defined) on removed lines, or only mentioned in comments and messages.
 */
export type NameChange = 'removed' | 'renamed' | 'default-changed' | 'type-changed' | 'added' | 'changed';

/** A line of the diff, as a person finds it: the file, the line number on its side, its text. */
export interface DiffLocation {
  file: string;
  line: number;
  text: string;
}

/** A name near another in the diff, and how strongly: the sum over hunks of its nearness (0-1). */
interface Neighbour {
  name: string;
  nearness: number;
}

/** A name the diff changed, with where and how. */
export interface DiffName {
  name: string;
  key: string;
  change: NameChange;
  /** For `renamed`: the name that took its place. */
  renamedTo?: string;
  /**
   * For `default-changed`: the literal before and after. For `type-changed`: the declaring line's
   * code before and after, trimmed (`staticDir?: string;`).
   */
  oldValue?: string;
  newValue?: string;
  /** The line that shows the change best (the removed line for what went away). */
  at: DiffLocation;
  /** Changed lines of code that hold it. */
  lines: number;
  /** Code files whose changed lines hold it. */
  files: string[];
  /** The changed lines define it (a declaration, key, parameter, assignment or string). */
  defined: boolean;
  /** Tests' changed lines hold it, so it is likely used from outside. */
  tested: boolean;
  /** A changed line exports it (`export`, `pub`, `public`, `module.exports`, `__all__`, a Go capital). */
  exported: boolean;
  /**
   * A changed line declares it as a configuration field: a Go struct field with tags
   * (`QPS int \`json:"qps"\``), a pydantic/typer/click field (`port: int = Field(8080)`), an
   * optional property of a TypeScript type (`base?: string`), the way options objects are typed.
   * Such a name is a key users write however plain the word.
   */
  option: boolean;
  /**
   * The names written near it in the code and tests, by key: a new option sits among its
   * siblings, and the siblings that follow it from hunk to hunk are the ones that matter.
   */
  neighbours: Map<string, Neighbour>;
}

/** Changed and context lines of code read at most: the rest of a huge diff is not read. */
const MAX_CODE_LINES = 20_000;
/** Neighbours kept per name, strongest first. */
const MAX_NEIGHBOURS = 40;
/** Lines apart at most for two names to be neighbours: beyond a screen they are another subject. */
const NEIGHBOUR_WINDOW = 20;
/** Lines apart at which a neighbour counts half. */
const HALF_DISTANCE = 3;
/** Tokens of one line that count as one line apart. */
const TOKENS_PER_LINE = 12;
/**
 * Nearness in tests counts this much of nearness in code: a test calls the new option beside its
 * siblings, but also beside the test framework and whatever the scenario needs.
 */
const TEST_NEARNESS = 0.5;
/** Edited line pairs compared at most (each is a token alignment). */
const MAX_PAIRS = 5_000;

interface Occurrence {
  key: string;
  name: string;
  line: DiffLine;
  file: string;
  /** Index of the line in its hunk, and of the token in its line. */
  position: number;
  token: number;
  prose: boolean;
  definition: boolean;
}

interface Sides {
  removed: number;
  added: number;
  context: number;
  removedDefinitions: number;
  addedDefinitions: number;
  /** Occurrences on changed lines outside comments and sentences. */
  code: number;
}

/**
 * The names a diff's code files changed. Test files never make a name changed; they mark names
 * as tested and show which names are used together.
 */
export function diffNames(codeFiles: readonly DiffFile[], testFiles: readonly DiffFile[] = []): DiffName[] {
  const hunks = readHunks(codeFiles);
  const sides = countSides(hunks);
  const names = new Map<string, DiffName>();
  const shown = new Map<string, number>();
  for (const occurrence of hunks.flat()) {
    if (occurrence.line.kind === 'context') continue;
    let name = names.get(occurrence.key);
    if (!name) {
      name = newName(occurrence, sides.get(occurrence.key)!);
      names.set(occurrence.key, name);
    }
    // The line shown for a name is the one that shows best what happened to it.
    const telling = tellingness(occurrence, name.change);
    if (telling > (shown.get(occurrence.key) ?? -1)) {
      shown.set(occurrence.key, telling);
      name.name = occurrence.name;
      name.at = location(occurrence.line, occurrence.file);
    }
    if (!name.files.includes(occurrence.file) && name.files.length < 10) name.files.push(occurrence.file);
    if (occurrence.definition && isExported(occurrence)) name.exported = true;
    if (occurrence.definition && occurrence.token === 0 && OPTION_FIELD.test(occurrence.line.text))
      name.option = true;
  }
  markEdits(codeFiles, names);
  addDefaultSubjects(names);
  const testHunks = readHunks(testFiles);
  for (const occurrence of testHunks.flat()) {
    const name = names.get(occurrence.key);
    if (name && occurrence.line.kind !== 'context') name.tested = true;
  }
  addNeighbours(hunks, names, 1);
  addNeighbours(testHunks, names, TEST_NEARNESS);
  trimNeighbours(names);
  return [...names.values()];
}

function countSides(hunks: Occurrence[][]): Map<string, Sides> {
  const sides = new Map<string, Sides>();
  for (const { key, line, prose, definition } of hunks.flat()) {
    const side = sides.get(key) ?? {
      removed: 0,
      added: 0,
      context: 0,
      removedDefinitions: 0,
      addedDefinitions: 0,
      code: 0,
    };
    side[line.kind] += 1;
    if (line.kind === 'removed' && definition) side.removedDefinitions += 1;
    if (line.kind === 'added' && definition) side.addedDefinitions += 1;
    if (line.kind !== 'context' && !prose) side.code += 1;
    sides.set(key, side);
  }
  return sides;
}

/**
 * How well an occurrence shows a name's change: a definition on the side that changed (the
 * removed line for what went away, the added one for what came) best, then code, then comments.
 */
function tellingness(occurrence: Occurrence, change: NameChange): number {
  const side = change === 'removed' ? 'removed' : change === 'added' ? 'added' : occurrence.line.kind;
  return (
    (occurrence.line.kind === side ? 4 : 0) + (occurrence.definition ? 2 : 0) + (occurrence.prose ? 0 : 1)
  );
}

/** What the diff did to a name, from where it is written (before edits are read). */
function changeOf(side: Sides): NameChange {
  // A name only mentioned in comments and messages changed nothing the code does.
  if (side.code === 0) return 'changed';
  const gone = side.removed > 0 && side.added + side.context === 0;
  // A name only used on removed lines is still defined elsewhere: the code stopped using it here.
  if (gone) return side.removedDefinitions > 0 ? 'removed' : 'changed';
  return side.added > 0 && side.removed + side.context === 0 ? 'added' : 'changed';
}

function newName(occurrence: Occurrence, side: Sides): DiffName {
  const gone = side.removed > 0 && side.added + side.context === 0;
  const change = changeOf(side);
  return {
    name: occurrence.name,
    key: occurrence.key,
    change,
    at: location(occurrence.line, occurrence.file),
    lines: side.removed + side.added,
    files: [],
    defined: (gone ? side.removedDefinitions : side.addedDefinitions) > 0,
    tested: false,
    exported: false,
    option: false,
    neighbours: new Map(),
  };
}

const EXPORTING_LINE = /^\s*(?:export\s|pub(?:\([\w:]+\))?\s|public\s|module\.exports|exports\.|__all__)/;

/**
 * A line that declares a configuration field by its first name: an optional property of a
 * TypeScript type, a Go struct field with a tag that names it for a config format or describes it,
 * or a Python field given by a settings, CLI or request-parameter declaration.
 */
const OPTION_FIELD =
  /^\s*(?:readonly\s+)?[\w$]+\?\s*:|^\s*\w+\s+[^`=]*`[^`]*\b(?:json|yaml|toml|description|mapstructure|env|flag|koanf):"|^\s*\w+\s*:[^=]+=\s*(?:[\w.]+\.)?(?:Field|Option|Argument|Query|Header|Cookie|Body|Form|Path)\(/;

/** Whether a name's occurrence makes it part of its module's interface. */
function isExported(occurrence: Occurrence): boolean {
  if (EXPORTING_LINE.test(occurrence.line.text)) return true;
  // Go exports what it declares with a capital letter.
  return occurrence.file.endsWith('.go') && /^[A-Z]/.test(occurrence.name) && !occurrence.prose;
}

function readHunks(files: readonly DiffFile[]): Occurrence[][] {
  const hunks: Occurrence[][] = [];
  let budget = MAX_CODE_LINES;
  for (const file of files)
    for (const hunk of file.hunks) {
      if (budget <= 0) return hunks;
      const occurrences: Occurrence[] = [];
      const spans = spansOf(file, hunk);
      hunk.lines.slice(0, budget).forEach((line, position) => {
        for (const { name, key, token, prose, definition } of lineNames(line.text, spans.get(line)))
          occurrences.push({ key, name, line, file: diffFilePath(file), position, token, prose, definition });
      });
      budget -= hunk.lines.length;
      hunks.push(occurrences);
    }
  return hunks;
}

const spansRead = new WeakMap<DiffHunk, Map<DiffLine, TextSpan[]>>();

/** The prose and markup of a hunk's lines (see markup-spans.ts), read once per hunk. */
function spansOf(file: DiffFile, hunk: DiffHunk): Map<DiffLine, TextSpan[]> {
  let spans = spansRead.get(hunk);
  if (spans === undefined) {
    spans = hunkSpans(diffFilePath(file), hunk);
    spansRead.set(hunk, spans);
  }
  return spans;
}

function location(line: DiffLine, file: string): DiffLocation {
  return { file, line: line.newLine ?? line.oldLine ?? 0, text: line.text.trim() };
}

/**
 * Renames and changed defaults, read from the edited line pairs of every hunk, then changed
 * declarations of the names that are neither.
 */
function markEdits(files: readonly DiffFile[], names: Map<string, DiffName>): void {
  let budget = MAX_PAIRS;
  const edited: { pair: LinePair; path: string; spans: Map<DiffLine, TextSpan[]> }[] = [];
  for (const file of files)
    for (const hunk of file.hunks) {
      if (budget <= 0) break;
      for (const pair of linePairs(hunk)) {
        budget -= 1;
        const path = diffFilePath(file);
        const spans = spansOf(file, hunk);
        edited.push({ pair, path, spans });
        for (const edit of tokenEdits(pair, spans)) {
          markRename(edit, names, location(pair.removed, path));
          markDefault(edit, names, location(pair.added, path));
        }
      }
    }
  for (const { pair, path, spans } of edited) markDeclaration(pair, path, names, spans);
}

/**
 * A name whose declaring line was edited, the name kept (`staticDir?: string;` ->
 * `staticDir?: string | string[];`, `def connect(host, port):` -> `def connect(host, port, tls):`):
 * its type or signature changed. The name is the first one the removed line defines, and the
 * added line must define it first too. An assignment (`const x = f(a)` -> `const x = f(a, b)`)
 * changes a value, not a declaration, and a literal alone is a changed default (markDefault).
 */
function markDeclaration(
  pair: LinePair,
  path: string,
  names: Map<string, DiffName>,
  spans: ReadonlyMap<DiffLine, TextSpan[]>,
): void {
  const before = declaredName(pair.removed.text, spans.get(pair.removed));
  const after = declaredName(pair.added.text, spans.get(pair.added));
  if (before === undefined || after === undefined || before.key !== after.key) return;
  const name = names.get(before.key);
  if (name?.change !== 'changed') return;
  const [oldCode, newCode] = [declarationCode(pair.removed.text), declarationCode(pair.added.text)];
  if (oldCode === newCode || oldCode.length <= before.name.length) return;
  name.change = 'type-changed';
  name.oldValue = oldCode;
  name.newValue = newCode;
  name.at = location(pair.removed, path);
}

/** The first name a line of code declares with a type or a signature, not by assignment. */
function declaredName(text: string, spans?: readonly TextSpan[]): { name: string; key: string } | undefined {
  const tokens = lexLine(text, spans);
  const first = lineNames(text, spans).find((name) => name.definition && !name.prose);
  if (first === undefined || tokens[first.token]?.kind !== 'name') return undefined;
  const next = tokens[first.token + 1]?.text === '?' || tokens[first.token + 1]?.text === '!' ? 2 : 1;
  if (tokens[first.token + next]?.text === '=') return undefined;
  if (ASSIGNERS.has(tokens[first.token - 1]?.text ?? '')) return undefined;
  return { name: first.name, key: first.key };
}

/** Words that bind a value rather than declare a type or a signature. */
const ASSIGNERS = new Set(['const', 'let', 'var', 'val']);

/** Types that languages writing the type first put before a name (`int retries = 3`). */
const LEADING_TYPES = new Set(
  'int long short byte char boolean bool float double String string auto unsigned signed final static'.split(
    ' ',
  ),
);

/** A line's code, trimmed, without a trailing comment. */
function declarationCode(text: string): string {
  return text.replace(/\s+(?:\/\/|#\s).*$/, '').trim();
}

function markRename(edit: TokenEdit, names: Map<string, DiffName>, at: DiffLocation): void {
  const before = edit.oldTokens.slice(...edit.oldRange).filter((token) => token.kind === 'name');
  const after = edit.newTokens.slice(...edit.newRange).filter((token) => token.kind === 'name');
  if (before.length !== 1 || after.length !== 1) return;
  const old = names.get(keyOf(before[0]!));
  const replacement = names.get(keyOf(after[0]!));
  if (old?.change !== 'removed' || replacement?.change !== 'added') return;
  old.change = 'renamed';
  old.renamedTo = replacement.name;
  old.at = at;
}

const LITERAL = new Set(['string', 'number', 'keyword-literal']);

function markDefault(edit: TokenEdit, names: Map<string, DiffName>, at: DiffLocation): void {
  const before = edit.oldTokens.slice(...edit.oldRange);
  const after = edit.newTokens.slice(...edit.newRange);
  const literalOnly = (tokens: CodeToken[]) =>
    tokens.some((token) => LITERAL.has(token.kind)) &&
    tokens.every((token) => LITERAL.has(token.kind) || token.kind === 'punct');
  if (!literalOnly(before) || !literalOnly(after)) return;
  const name = literalOwner(edit.oldTokens, edit.oldRange[0], names);
  if (!name || (name.change !== 'changed' && name.change !== 'default-changed')) return;
  name.change = 'default-changed';
  name.oldValue = before.map((token) => quoteLiteral(token)).join('');
  name.newValue = after.map((token) => quoteLiteral(token)).join('');
  name.at = at;
}

/**
 * A constant that holds an option's default is named after the option (`DefaultMaxBodySize`,
 * `RetryDefaultMaxRequestBodyBytes`, `DEFAULT_MAX_RETRIES`, `timeoutDefault`), and pages write the
 * option, not the constant: a changed default of such a constant is also one of the name its
 * words after `default` make (before it, when it ends the name), spelled in camelCase as options
 * are most often written (the key is the same in any spelling).
 */
function addDefaultSubjects(names: Map<string, DiffName>): void {
  for (const name of [...names.values()]) {
    if (name.change !== 'default-changed') continue;
    const words = nameWords(name.name);
    const at = words.findIndex((word) => word === 'default' || word === 'defaults');
    if (at < 0) continue;
    const subject = at < words.length - 1 ? words.slice(at + 1) : words.slice(0, at);
    if (subject.length === 0) continue;
    const spelled = subject
      .map((word, index) => (index === 0 ? word : word[0]!.toUpperCase() + word.slice(1)))
      .join('');
    const key = subject.join(' ');
    const known = names.get(key);
    if (known && known.change !== 'changed') continue;
    names.set(key, {
      ...name,
      name: spelled,
      key,
      files: [...name.files],
      neighbours: new Map(name.neighbours),
    });
  }
}

/** Punctuation between a name and the value it is given: `=`, `:`, `??`, `||`, `? :`. */
const CONNECTOR = /^[=:?|&!<>]$/;
/** Tokens looked back through for the key that owns a literal (`retries: { default: 3 }`). */
const OWNER_REACH = 12;

/**
 * The name a literal at `start` is the value of: the name just before it across connectors only
 * (not a call's `(` or an argument list's `,`: `f('x')` gives `f` no default), or else, when that
 * name is no changed name (`default:` of a schema, `default=` of an option declaration), the
 * nearest changed key or string before it (`add_argument('--port', type=int, default=8080)`).
 */
function literalOwner(
  tokens: CodeToken[],
  start: number,
  names: Map<string, DiffName>,
): DiffName | undefined {
  let index = start - 1;
  while (index >= 0 && tokens[index]!.kind === 'punct' && CONNECTOR.test(tokens[index]!.text)) index -= 1;
  const first = tokens[index];
  // A key is a name, or a string in JSON and YAML (`"retries": 3`).
  if ((first?.kind !== 'name' && first?.kind !== 'string') || index === start - 1) return undefined;
  // A typed declaration gives the value to the name before its type: Go's `MaxBytes int64 = -1`
  // (the name opens the line or follows `var`/`const`), an annotation's `retries: int = 3`; the
  // type (`int64`) owns no default. C and Java write the type first (`int retries = 3`).
  const before = tokens[index - 1];
  const opensDeclaration = index - 1 === 0 || ASSIGNERS.has(tokens[index - 2]?.text ?? '');
  const typed =
    first.kind !== 'name'
      ? undefined
      : before?.kind === 'name' &&
          opensDeclaration &&
          !ASSIGNERS.has(before.text) &&
          !LEADING_TYPES.has(before.text)
        ? before
        : before?.text === ':' && tokens[index - 2]?.kind === 'name'
          ? tokens[index - 2]
          : undefined;
  const declared = typed ? names.get(keyOf(typed)) : undefined;
  if (declared) return declared;
  const direct = names.get(keyOf(first));
  if (direct) return direct;
  const reach = tokens.slice(Math.max(0, index - OWNER_REACH), index).reverse();
  const named = (token: CodeToken | undefined) => (token ? names.get(keyOf(token)) : undefined);
  const isKey = (token: CodeToken) => {
    const next = tokens[tokens.indexOf(token) + 1]?.text;
    return (token.kind === 'name' || token.kind === 'string') && (next === ':' || next === '=');
  };
  // The nearest key first (`"retries": { "type": "integer", "default": 3 }`), then a flag the
  // call declares (`add_argument('--port', type=int, default=8080)`).
  const key = reach.find((token) => isKey(token) && named(token));
  const flag = reach.find((token) => token.kind === 'string' && token.text.startsWith('-') && named(token));
  return named(key ?? flag);
}

function keyOf(token: CodeToken): string {
  const text = token.kind === 'string' ? JSON.stringify(token.text) : token.text;
  return lineNames(text)[0]?.key ?? '';
}

function quoteLiteral(token: CodeToken): string {
  return token.kind === 'string' ? `'${token.text}'` : token.text;
}

/**
 * Every name's neighbours: in each hunk, the other names within NEIGHBOUR_WINDOW lines, by their
 * nearness (1 on the same spot, 1/2 at HALF_DISTANCE lines), the best in the hunk; summed over hunks.
 */
function addNeighbours(hunks: Occurrence[][], names: Map<string, DiffName>, factor: number): void {
  for (const occurrences of hunks) {
    const best = new Map<DiffName, Map<string, Neighbour>>();
    let first = 0;
    for (const occurrence of occurrences) {
      const name = names.get(occurrence.key);
      if (!name || occurrence.prose) continue;
      while (
        first < occurrences.length &&
        occurrences[first]!.position < occurrence.position - NEIGHBOUR_WINDOW
      )
        first += 1;
      const found = best.get(name) ?? new Map<string, Neighbour>();
      best.set(name, found);
      for (let index = first; index < occurrences.length; index += 1) {
        const other = occurrences[index]!;
        if (other.position > occurrence.position + NEIGHBOUR_WINDOW) break;
        if (other.key === name.key || other.prose) continue;
        const nearness = (factor * HALF_DISTANCE) / (HALF_DISTANCE + distance(occurrence, other));
        if (nearness > (found.get(other.key)?.nearness ?? 0))
          found.set(other.key, { name: other.name, nearness });
      }
    }
    for (const [name, found] of best)
      for (const [key, { name: spelled, nearness }] of found) {
        const total = (name.neighbours.get(key)?.nearness ?? 0) + nearness;
        name.neighbours.set(key, { name: spelled, nearness: total });
      }
  }
}

/** Keeps each name's MAX_NEIGHBOURS strongest neighbours. */
function trimNeighbours(names: Map<string, DiffName>): void {
  for (const name of names.values())
    if (name.neighbours.size > MAX_NEIGHBOURS)
      name.neighbours = new Map(
        [...name.neighbours].sort((a, b) => b[1].nearness - a[1].nearness).slice(0, MAX_NEIGHBOURS),
      );
}

/** Lines apart; on one line, tokens apart as a fraction of a line. */
function distance(left: Occurrence, right: Occurrence): number {
  const lines = Math.abs(left.position - right.position);
  return lines > 0 ? lines : Math.abs(left.token - right.token) / TOKENS_PER_LINE;
}
