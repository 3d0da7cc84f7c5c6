/**
 * Blocks of an extractive answer kept whole: a lead-in and the list, table or code it announces, a
 * step list with all its steps, a table cut to the rows asked about, code cut to its first lines;
 * and the order that puts the answer first.
 */
import { openingFence } from '../../docs/page-syntax.js';
import type { QuestionMeaning } from './question-meaning.js';
import type { TextUnit } from './sentences.js';

export interface ScoredUnit extends TextUnit {
  index: number;
  score: number;
  /** The heading of the section the unit is in. */
  heading?: string;
  /** A long list item's sentences, each scored, to quote one where the whole item does not fit. */
  parts?: { text: string; score: number }[];
}

/** Lines of a code block quoted when a section is mostly code. */
const MAX_CODE_LINES = 24;
/**
 * A list or a block a lead-in sentence announces is quoted whole up to this size: cut, a step list
 * loses the steps that finish the task; longer, it crowds out the other pages.
 */
export const BLOCK_LINES = 20;
export const BLOCK_CHARS = 1500;
/** Rows of a table quoted whole; a longer one is quoted by the rows that hold the question's words. */
const BLOCK_ROWS = 8;
/**
 * A sentence that announces the block after it: it ends in a colon, or points at what follows
 * ("Add the following to your `docs.json` file.", "the shortcuts listed below.").
 */
export function leadsIn(unit: TextUnit): boolean {
  return (
    unit.kind === 'sentence' &&
    (unit.text.endsWith(':') ||
      // Inline code aside: "Add the following to your `docs.json` file." ends at its last period.
      /\b(the following|below)\b[^.]*\.$/i.test(unit.text.replace(/`[^`]*`/g, 'code')))
  );
}

/** The opening of a sentence that refers back to the one before it ("This module…", "It…"). */
const REFERS_BACK = /^(this|these|that|those|it|its|they|their|such)\b/i;

/** Whether a sentence leans on the one before it for what it talks about. */
export function refersBack(unit: TextUnit): boolean {
  return unit.kind === 'sentence' && REFERS_BACK.test(unit.text);
}

/** The items of a list, from its first, up to `BLOCK_LINES` items and `BLOCK_CHARS` characters. */
export function wholeList(units: ScoredUnit[], block: number): ScoredUnit[] {
  const items = units.filter((unit) => unit.kind === 'item' && unit.block === block).slice(0, BLOCK_LINES);
  let chars = 0;
  return items.filter((item) => (chars += item.text.length) <= BLOCK_CHARS);
}

/**
 * The chosen units with the best one first: the answer's first sentence is the answer, and what
 * led up to it on the page follows as context. It leads with what follows it on the page (the rest
 * of its paragraph, its list) and with the lead-in sentence that announces it when it is a block.
 * `codeAnswers`: whether a code block may lead (the question asks how to do something, or for a
 * command).
 */
export function leadWithAnswer(units: ScoredUnit[], codeAnswers = true): ScoredUnit[] {
  // A table leads nothing: a reader wants the sentence that reads it first. Nor does code, unless
  // code is what is asked for: "what does it do?" or "can I…?" is answered in words, and the
  // example follows them.
  const leading = (unit: ScoredUnit) =>
    unit.kind === 'table' || (unit.kind === 'code' && !codeAnswers) ? 0 : unit.score;
  const top = Math.max(...units.map(leading));
  let from = units.findIndex((unit) => leading(unit) === top);
  // A block's lead-in stays before it ("To clear the cache, run:"), and so do an earlier item of
  // the same list and the sentence a sentence refers back to.
  while (from > 0 && belongsBefore(units[from - 1]!, units[from]!)) from -= 1;
  if (from <= 0) return units;
  let to = from + 1;
  while (to < units.length && units[to]!.index === units[to - 1]!.index + 1) to += 1;
  return [...units.slice(from, to), ...units.slice(0, from), ...units.slice(to)];
}

function belongsBefore(previous: ScoredUnit, unit: ScoredUnit): boolean {
  if (previous.index !== unit.index - 1) return false;
  if (unit.kind === 'sentence')
    return (
      (refersBack(unit) || unit.term !== undefined) &&
      previous.kind === 'sentence' &&
      previous.block === unit.block
    );
  return leadsIn(previous) || (previous.kind === 'item' && previous.block === unit.block);
}

/**
 * A table of more rows than a table quoted whole holds, cut to its header and the rows that hold
 * the question's words: "load the private key from a .pem file" is one row of a table of forty
 * settings.
 */
/** Share of the best row's score a row of a long table must hold to be quoted with it. */
const ROW_SHARE = 0.5;

export function rowsAsked(table: TextUnit, meaning: QuestionMeaning, context: ReadonlySet<string>): TextUnit {
  const rows = table.text.split('\n');
  const scores = rows.slice(2).map((row) => meaning.score(row, context));
  // The rows that hold the question's words together, not each one of them: a table of settings
  // names "key" or "app" in many rows, and only the row holding most of the question answers it.
  const best = Math.max(0, ...scores);
  const asked = rows
    .slice(2)
    .filter((_, position) => scores[position]! > 0 && scores[position]! >= ROW_SHARE * best);
  if (rows.length <= BLOCK_ROWS + 2 || asked.length === 0) return { ...table, text: clipTable(table.text) };
  return { ...table, text: clipTable([...rows.slice(0, 2), ...asked].join('\n')) };
}

/**
 * A table with its cells' padding taken out, cut to the rows that fit in `BLOCK_CHARS` (the
 * header always kept): a reference table longer than an answer would otherwise never be quoted.
 */
function clipTable(table: string): string {
  const rows = table.split('\n').map((row) =>
    row
      .trim()
      .replace(/\s*\|\s*/g, ' | ')
      .replace(/-{3,}/g, '---')
      .trim(),
  );
  let chars = 0;
  return rows
    .filter((row, position) => (chars += row.length + 1) <= BLOCK_CHARS || position < 2)
    .slice(0, BLOCK_LINES)
    .join('\n');
}

/** Share of a section's characters that are code. */
export function codeShare(units: ScoredUnit[]): number {
  const total = units.reduce((sum, unit) => sum + unit.text.length, 0);
  const code = units.filter((unit) => unit.kind === 'code').reduce((sum, unit) => sum + unit.text.length, 0);
  return total === 0 ? 0 : code / total;
}

/** A code block cut to its first lines, fence kept closed. */
export function clip(code: string): string {
  const lines = code.split('\n');
  if (lines.length <= MAX_CODE_LINES) return code;
  const fence = openingFence(lines[0] ?? '')?.marker ?? '```';
  return [...lines.slice(0, MAX_CODE_LINES - 1), fence].join('\n');
}
