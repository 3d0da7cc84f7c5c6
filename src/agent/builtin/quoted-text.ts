/**
 * Quoted strings in an instruction. People type straight quotes, typographic ones (phones and chat
 * apps turn "x" into “x”), or single quotes; the text inside must survive exactly, because a
 * replace is case- and character-exact. Each quoted string becomes a placeholder token so the
 * instruction's wording can be matched with plain regular expressions.
 */

/** Closing characters accepted for each opening quote (phones mix straight and curly quotes). */
const CLOSERS: Record<string, string> = {
  '"': '"”',
  '“': '”"“',
  '„': '“”"',
  "'": "'’",
  '‘': "’'",
  '`': '`',
};

/** A quote opens only at the start of the text or after a space or bracket: `don't` is no quote. */
const OPENS_AFTER = /[\s([{:=,]/;
/** …and closes only before the end, a space or punctuation: `'Acme's app'` is one string. */
const CLOSES_BEFORE = /[\s.,;:!?)\]}]/;

/** One quoted string: its inner value and the text as typed (quotes included). */
export interface Quoted {
  value: string;
  raw: string;
}

/** An instruction with its quoted strings replaced by placeholder tokens. */
export interface QuotedText {
  /** The text with each quoted string replaced by {@link placeholder}(index). */
  skeleton: string;
  quotes: Quoted[];
}

/** The token standing for quote number `index`: private-use characters no one types. */
function placeholder(index: number): string {
  return `\uE000${index}\uE001`;
}

/** A regular-expression source matching one placeholder token. */
export const PLACEHOLDER_SOURCE = '\\uE000\\d+\\uE001';

const PLACEHOLDER_ONLY = /^\uE000(\d+)\uE001$/;
const PLACEHOLDER_ANY = /\uE000(\d+)\uE001/g;

/** Replaces every quoted string of `text` by a placeholder. Unclosed quotes stay as typed. */
export function extractQuotes(text: string): QuotedText {
  const quotes: Quoted[] = [];
  let skeleton = '';
  let index = 0;
  while (index < text.length) {
    const end = closingIndex(text, index);
    if (end === -1) {
      skeleton += text[index];
      index += 1;
      continue;
    }
    quotes.push({ value: text.slice(index + 1, end), raw: text.slice(index, end + 1) });
    skeleton += placeholder(quotes.length - 1);
    index = end + 1;
  }
  return { skeleton, quotes };
}

/** Where the quote opening at `start` closes, or -1 when `start` opens no quote. */
function closingIndex(text: string, start: number): number {
  const closers = CLOSERS[text[start] ?? ''];
  if (closers === undefined) return -1;
  if (start > 0 && !OPENS_AFTER.test(text[start - 1] ?? '')) return -1;
  for (let end = start + 1; end < text.length; end++) {
    if (!closers.includes(text[end] ?? '')) continue;
    const next = text[end + 1];
    if (next === undefined || CLOSES_BEFORE.test(next)) return end;
  }
  return -1;
}

/**
 * The argument a piece of skeleton stands for: the quote's exact value when the piece is one
 * placeholder, else the piece with any placeholders put back as typed, trimmed.
 */
export function argumentValue(piece: string, quotes: Quoted[]): string {
  const only = PLACEHOLDER_ONLY.exec(piece.trim());
  if (only) return quotes[Number(only[1])]?.value ?? '';
  return restoreQuotes(piece, quotes).trim();
}

/** Whether a piece of skeleton is exactly one quoted string. */
export function isQuoted(piece: string): boolean {
  return PLACEHOLDER_ONLY.test(piece.trim());
}

/** Puts the quoted strings back into a piece of skeleton, as they were typed. */
export function restoreQuotes(piece: string, quotes: Quoted[]): string {
  return piece.replace(PLACEHOLDER_ANY, (_token, index: string) => quotes[Number(index)]?.raw ?? '');
}
