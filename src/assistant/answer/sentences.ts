/**
 * Text units an extractive answer is made of: sentences of prose paragraphs, list items whole,
 * and code blocks whole (never cut in the middle).
 */
import { closesFence, openingFence } from '../../docs/page-syntax.js';

export interface TextUnit {
  kind: 'sentence' | 'item' | 'code' | 'table';
  text: string;
  /** Index of the paragraph/block the unit belongs to, to keep neighbours together. */
  block: number;
  /** A numbered list item: a step, quoted with its number. */
  ordered?: boolean;
  /** The name a sentence's paragraph describes (its first sentence opens with it). */
  term?: string;
}

const TABLE_ROW = /^\s*\|.*\|\s*$/;
const LIST_ITEM = /^\s*([-*+]|\d+[.)])\s+/;
/** A sentence ends at . ! or ? followed by a space and a capital, digit, quote or backtick. */
const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z0-9"'`([])/;
/**
 * A paragraph that is only a name: a field, option or argument of a reference ("defaultTabIndex",
 * "--api-key / -k", "agent-name"), as a field component leaves it on a line of its own before the
 * paragraph that says what it is. A capitalised word alone ("Example") is a label, not a name.
 */
const TERM = /^`?[\p{L}\p{N}_$@.:[\]-]+`?(?: \/ `?[\p{L}\p{N}_$@.:-]+`?)?$/u;
const LABEL = /^\p{Lu}\p{Ll}+$/u;

/** Whether a paragraph's text is a name that the paragraph after it describes. */
function isTerm(text: string): boolean {
  return text.length <= 60 && TERM.test(text) && !LABEL.test(text);
}

/** The sentences of a text. */
export function sentencesOf(text: string): string[] {
  return text
    .split(SENTENCE_END)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}

export function textUnits(body: string): TextUnit[] {
  const units: TextUnit[] = [];
  const lines = body.split('\n');
  let block = 0;
  let paragraph: string[] = [];
  // The list item whose text the next line may continue: docs wrapped at 80 columns carry one
  // item over several lines, and a quote of its first line alone stops mid-sentence.
  let item: TextUnit | undefined;
  // A name waiting for the paragraph that describes it: quoted apart, the description would not
  // say what it describes ("The index of the tab to display by default" without `defaultTabIndex`).
  let term: string | undefined;
  const flushTerm = () => {
    if (term !== undefined) units.push({ kind: 'sentence', text: term, block: block++ });
    term = undefined;
  };
  const flush = () => {
    const text = paragraph.join(' ').replace(/\s+/g, ' ').trim();
    paragraph = [];
    if (text === '') return;
    if (isTerm(text)) {
      flushTerm();
      term = text;
      return;
    }
    const named = term === undefined ? '' : `${term.startsWith('`') ? term : `\`${term}\``}: `;
    for (const [position, sentence] of text.split(SENTENCE_END).entries())
      units.push({
        kind: 'sentence',
        text: `${position === 0 ? named : ''}${sentence.trim()}`,
        block,
        ...(term === undefined ? {} : { term }),
      });
    term = undefined;
    block += 1;
  };
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (
      item &&
      line.trim() !== '' &&
      openingFence(line) === undefined &&
      !TABLE_ROW.test(line) &&
      !LIST_ITEM.test(line)
    ) {
      item.text = `${item.text} ${line.trim()}`;
      continue;
    }
    item = undefined;
    const fence = openingFence(line);
    if (fence) {
      flush();
      flushTerm();
      const code = [line];
      while (index + 1 < lines.length) {
        index += 1;
        code.push(lines[index] ?? '');
        if (closesFence(lines[index] ?? '', fence.marker)) break;
      }
      units.push({ kind: 'code', text: code.join('\n'), block: block++ });
    } else if (TABLE_ROW.test(line)) {
      // A Markdown table stays whole, rows on their own lines, or it no longer renders as a table.
      flush();
      flushTerm();
      const rows = [line];
      while (index + 1 < lines.length && TABLE_ROW.test(lines[index + 1] ?? ''))
        rows.push(lines[++index] ?? '');
      units.push({ kind: 'table', text: rows.join('\n'), block: block++ });
    } else if (LIST_ITEM.test(line)) {
      flush();
      flushTerm();
      item = { kind: 'item', text: line.replace(LIST_ITEM, '').trim(), block };
      if (/^\s*\d/.test(line)) item.ordered = true;
      units.push(item);
    } else if (line.trim() === '') {
      flush();
    } else {
      paragraph.push(line.trim());
    }
  }
  flush();
  flushTerm();
  return units.filter((unit) => unit.text.length > 0);
}
