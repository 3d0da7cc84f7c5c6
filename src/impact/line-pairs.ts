import { lexLine, type CodeToken } from './code-tokens.js';
import type { DiffHunk, DiffLine } from './diff-types.js';
import type { TextSpan } from './markup-spans.js';

/** A removed line and the added line that took its place. */
export interface LinePair {
  removed: DiffLine;
  added: DiffLine;
}

/** A stretch where the two lines of a pair differ: old tokens replaced by new ones. */
export interface TokenEdit {
  /** Tokens of the removed line, and of the added line. */
  oldTokens: CodeToken[];
  newTokens: CodeToken[];
  /** The replaced stretch: [start, end) in each token list. */
  oldRange: [number, number];
  newRange: [number, number];
}

/** Lines longer than this many tokens are not lined up (a data line or a minified one). */
const MAX_PAIRED_TOKENS = 120;
/** Share of tokens two lines must have in common to be one line edited rather than two lines. */
const MIN_SHARED = 0.5;

/**
 * The pairs of lines a hunk edited: in each run of removed lines followed by added lines, every
 * removed line is matched with the most similar added line still free, when they share at least
 * half their tokens. Git prints an edit as the old lines, then the new ones.
 */
export function linePairs(hunk: DiffHunk): LinePair[] {
  const pairs: LinePair[] = [];
  let index = 0;
  const lines = hunk.lines;
  while (index < lines.length) {
    const removed: DiffLine[] = [];
    const added: DiffLine[] = [];
    while (index < lines.length && lines[index]!.kind === 'removed') removed.push(lines[index++]!);
    while (index < lines.length && lines[index]!.kind === 'added') added.push(lines[index++]!);
    if (removed.length === 0 && added.length === 0) index += 1;
    pairs.push(...matchRun(removed, added));
  }
  return pairs;
}

function matchRun(removed: DiffLine[], added: DiffLine[]): LinePair[] {
  if (removed.length === 0 || added.length === 0 || removed.length * added.length > 400) return [];
  const texts = new Map([...removed, ...added].map((line) => [line, pairingTexts(codeTokens(line.text))]));
  const free = new Set(added);
  const pairs: LinePair[] = [];
  for (const old of removed) {
    let best: DiffLine | undefined;
    let bestShare = MIN_SHARED;
    for (const candidate of free) {
      const share = sharedShare(texts.get(old)!, texts.get(candidate)!);
      if (share >= bestShare) [best, bestShare] = [candidate, share];
    }
    if (best) {
      free.delete(best);
      pairs.push({ removed: old, added: best });
    }
  }
  return pairs;
}

/**
 * The tokens of a line's code: a trailing comment changes nothing the line does, nor do an
 * element's text and its markup (`spans`, see markup-spans.ts).
 */
function codeTokens(line: string, spans?: readonly TextSpan[]): CodeToken[] {
  return lexLine(line, spans).filter((token) => !token.prose);
}

const LITERAL_KINDS = new Set(['string', 'number', 'keyword-literal']);
/** Operators a value can be written with: `2 * 1024 * 1024`, `-1`, `(60 * 1000)`. */
const VALUE_OPERATOR = /^[-+*/%<>|&~^().]$/;

/**
 * The tokens two lines are compared by: a value written as an expression of literals counts as
 * one token, so `MaxBytes int64 = -1` and `MaxBytes int64 = 2 * 1024 * 1024` are one line edited
 * (three of four alike) rather than two lines that share three tokens of eight.
 */
function pairingTexts(tokens: readonly CodeToken[]): string[] {
  const texts: string[] = [];
  let run: CodeToken[] = [];
  const flush = () => {
    if (run.some((token) => LITERAL_KINDS.has(token.kind)))
      texts.push(run.map((token) => token.text).join(''));
    else texts.push(...run.map((token) => token.text));
    run = [];
  };
  for (const token of tokens) {
    if (LITERAL_KINDS.has(token.kind) || (token.kind === 'punct' && VALUE_OPERATOR.test(token.text)))
      run.push(token);
    else {
      flush();
      texts.push(token.text);
    }
  }
  flush();
  return texts;
}

function sharedShare(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const text of a) counts.set(text, (counts.get(text) ?? 0) + 1);
  let shared = 0;
  for (const text of b) {
    const count = counts.get(text) ?? 0;
    if (count > 0) {
      shared += 1;
      counts.set(text, count - 1);
    }
  }
  return shared / Math.max(a.length, b.length);
}

/**
 * Where the two lines of a pair differ, as replaced stretches of tokens (insertions and deletions
 * alone are left out: they add or drop something, they do not change it). A longest common
 * subsequence of tokens lines them up.
 */
export function tokenEdits(pair: LinePair, spans?: ReadonlyMap<DiffLine, TextSpan[]>): TokenEdit[] {
  const oldTokens = codeTokens(pair.removed.text, spans?.get(pair.removed));
  const newTokens = codeTokens(pair.added.text, spans?.get(pair.added));
  if (oldTokens.length > MAX_PAIRED_TOKENS || newTokens.length > MAX_PAIRED_TOKENS) return [];
  const common = commonSubsequence(oldTokens, newTokens);
  const edits: TokenEdit[] = [];
  let [oldAt, newAt] = [0, 0];
  for (const [oldMatch, newMatch] of [...common, [oldTokens.length, newTokens.length] as const]) {
    if (oldMatch > oldAt && newMatch > newAt)
      edits.push({ oldTokens, newTokens, oldRange: [oldAt, oldMatch], newRange: [newAt, newMatch] });
    [oldAt, newAt] = [oldMatch + 1, newMatch + 1];
  }
  return edits;
}

/** Index pairs of a longest common subsequence of two token lists (by text). */
function commonSubsequence(left: CodeToken[], right: CodeToken[]): [number, number][] {
  const rows = left.length + 1;
  const columns = right.length + 1;
  const table = new Uint16Array(rows * columns);
  for (let i = left.length - 1; i >= 0; i -= 1)
    for (let j = right.length - 1; j >= 0; j -= 1)
      table[i * columns + j] =
        left[i]!.text === right[j]!.text
          ? table[(i + 1) * columns + j + 1]! + 1
          : Math.max(table[(i + 1) * columns + j]!, table[i * columns + j + 1]!);
  const pairs: [number, number][] = [];
  let [i, j] = [0, 0];
  while (i < left.length && j < right.length) {
    if (left[i]!.text === right[j]!.text) {
      pairs.push([i, j]);
      i += 1;
      j += 1;
    } else if (table[(i + 1) * columns + j]! >= table[i * columns + j + 1]!) i += 1;
    else j += 1;
  }
  return pairs;
}
