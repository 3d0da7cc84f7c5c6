import { STOP_WORDS } from './stop-words.js';

/**
 * Turns reader text into an FTS5 MATCH expression that can never be a syntax error: the text is cut
 * into words the way the `unicode61` tokenizer cuts it (letters, marks and digits), so quotes,
 * parentheses, `*`, `:` and `^` never reach FTS5, and every word is double-quoted, so `OR`, `NEAR`
 * and `AND` are plain words. The words are OR-ed: bm25 ranks sections matching more, rarer words
 * first, which suits questions better than requiring every word.
 */

const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** Query words cap: long context (a pasted code block) must not turn into a thousand-term OR. */
export const MAX_QUERY_TERMS = 32;

/** The distinct, lower-cased, non-stop words of `text`, in order of first appearance. */
export function queryTerms(text: string, maxTerms = MAX_QUERY_TERMS): string[] {
  const terms: string[] = [];
  const seen = new Set<string>();
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const word = match[0];
    if (seen.has(word) || STOP_WORDS.has(word) || isNoise(word)) continue;
    seen.add(word);
    terms.push(word);
    if (terms.length >= maxTerms) break;
  }
  return terms;
}

/** `"term1" OR "term2" ...`, or null when there is nothing to search for. */
export function matchExpression(terms: readonly string[]): string | null {
  if (terms.length === 0) return null;
  // Words hold no `"` (WORD has no punctuation), so quoting needs no escaping.
  return terms.map((term) => `"${term}"`).join(' OR ');
}

/** A single Latin letter carries no meaning on its own ("a", the "s" of "what's"). */
function isNoise(word: string): boolean {
  return word.length === 1 && /[a-z]/.test(word);
}
