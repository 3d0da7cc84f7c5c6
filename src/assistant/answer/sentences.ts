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
}

const TABLE_ROW = /^\s*\|.*\|\s*$/;
const LIST_ITEM = /^\s*([-*+]|\d+[.)])\s+/;
/** A sentence ends at . ! or ? followed by a space and a capital, digit, quote or backtick. */
const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z0-9"'`([])/;

export function textUnits(body: string): TextUnit[] {
  const units: TextUnit[] = [];
  const lines = body.split('\n');
  let block = 0;
  let paragraph: string[] = [];
  // The list item whose text the next line may continue: docs wrapped at 80 columns carry one
  // item over several lines, and a quote of its first line alone stops mid-sentence.
  let item: TextUnit | undefined;
  const flush = () => {
    const text = paragraph.join(' ').replace(/\s+/g, ' ').trim();
    paragraph = [];
    if (text === '') return;
    for (const sentence of text.split(SENTENCE_END))
      units.push({ kind: 'sentence', text: sentence.trim(), block });
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
      const rows = [line];
      while (index + 1 < lines.length && TABLE_ROW.test(lines[index + 1] ?? ''))
        rows.push(lines[++index] ?? '');
      units.push({ kind: 'table', text: rows.join('\n'), block: block++ });
    } else if (LIST_ITEM.test(line)) {
      flush();
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
  return units.filter((unit) => unit.text.length > 0);
}
