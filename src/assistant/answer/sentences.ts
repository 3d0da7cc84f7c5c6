/**
 * Text units an extractive answer is made of: sentences of prose paragraphs, list items whole,
 * and code blocks whole (never cut in the middle).
 */
export interface TextUnit {
  kind: 'sentence' | 'item' | 'code' | 'table';
  text: string;
  /** Index of the paragraph/block the unit belongs to, to keep neighbours together. */
  block: number;
}

const FENCE = /^(```|~~~)/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const LIST_ITEM = /^\s*([-*+]|\d+[.)])\s+/;
/** A sentence ends at . ! or ? followed by a space and a capital, digit, quote or backtick. */
const SENTENCE_END = /(?<=[.!?])\s+(?=[A-Z0-9"'`([])/;

export function textUnits(body: string): TextUnit[] {
  const units: TextUnit[] = [];
  const lines = body.split('\n');
  let block = 0;
  let paragraph: string[] = [];
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
    if (FENCE.test(line.trim())) {
      flush();
      const fence = line.trim().slice(0, 3);
      const code = [line];
      while (index + 1 < lines.length) {
        index += 1;
        code.push(lines[index] ?? '');
        if ((lines[index] ?? '').trim().startsWith(fence)) break;
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
      units.push({ kind: 'item', text: line.replace(LIST_ITEM, '').trim(), block });
    } else if (line.trim() === '') {
      flush();
    } else {
      paragraph.push(line.trim());
    }
  }
  flush();
  return units.filter((unit) => unit.text.length > 0);
}

/** A crude English stem (plural, -ing, -ed, -ly): enough to match "domains" with "domain". */
export function stem(word: string): string {
  const lower = word.toLowerCase();
  if (lower.length <= 4) return lower;
  for (const suffix of ['ing', 'ies', 'ed', 'es', 'ly', 's']) {
    if (lower.endsWith(suffix) && lower.length - suffix.length >= 3) {
      return suffix === 'ies' ? `${lower.slice(0, -3)}y` : lower.slice(0, -suffix.length);
    }
  }
  return lower;
}
