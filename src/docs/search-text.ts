/**
 * How text is cut into searchable words, one place for the index and the queries:
 * - identifiers joined by underscores (`OPENAI_API_KEY`) stay one word, because the FTS5
 *   tokenizer counts `_` as a word character; their parts are indexed beside them, so "api key"
 *   still finds the section, but a whole identifier in a question matches only where it is written;
 * - Chinese, Japanese and Korean runs, which have no spaces, become overlapping two-character words
 *   (the usual CJK bigram indexing: no dictionary, and every word of two characters or more is
 *   found through its bigrams).
 */

/** Letters, marks, digits and underscores: the FTS5 tokenizer's words with `tokenchars '_'`. */
export const WORD = /[\p{L}\p{M}\p{N}_]+/gu;
/** Scripts written without spaces between words. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
/** A quick pre-check over the main CJK blocks (kana, unified ideographs, Hangul, compatibility). */
const HAS_CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/;
/** Words with at least one underscore between letters or digits. */
const IDENTIFIER = /[\p{L}\p{N}]+(?:_+[\p{L}\p{N}]+)+/gu;
/** Latin words that may be camelCase or PascalCase. */
const LATIN_WORD = /\b[A-Za-z][A-Za-z0-9]+\b/g;
/** Longer words are keys, hashes or encoded data, not names that readers type in parts. */
const LONGEST_NAME = 64;
/** A lower-case letter or digit before a capital, or an acronym before a capitalised word. */
const CASE_CHANGE = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/;

/** The FTS5 tokenizer of every searched column. */
export const TOKENIZER = "porter unicode61 tokenchars '_'";

/** Two-character words of a CJK run ("添加域名" -> "添加 加域 域名"); a single character stays. */
export function cjkBigrams(run: string): string[] {
  const characters = [...run];
  if (characters.length < 2) return characters;
  const bigrams: string[] = [];
  for (let index = 0; index + 1 < characters.length; index += 1)
    bigrams.push(characters[index]! + characters[index + 1]!);
  return bigrams;
}

/** Text as it is indexed: CJK runs spelled as bigrams, everything else unchanged. */
export function searchableText(text: string): string {
  if (!HAS_CJK.test(text)) return text;
  return text.replace(CJK, (run) => ` ${cjkBigrams(run).join(' ')} `);
}

/** Whether a word is an identifier made of parts joined by underscores (`pcc_invalid_image`). */
export function isIdentifier(word: string): boolean {
  return identifierParts(word).length >= 2;
}

/** The parts of an underscore identifier, lower-cased (`OPENAI_API_KEY` -> openai, api, key). */
export function identifierParts(word: string): string[] {
  return word
    .toLowerCase()
    .split('_')
    .filter((part) => part !== '');
}

/**
 * The parts of every underscore or camelCase identifier of `text`, one identifier a line
 * ("openai api key", "llm switcher"): indexed beside the text so that the words inside an
 * identifier are still found.
 */
export function identifierPartsText(text: string): string {
  const lines = new Set<string>();
  if (text.includes('_'))
    for (const match of text.matchAll(IDENTIFIER)) lines.add(identifierParts(match[0]).join(' '));
  for (const match of text.matchAll(LATIN_WORD)) {
    if (match[0].length > LONGEST_NAME || !CASE_CHANGE.test(match[0])) continue;
    const parts = camelCaseParts(match[0]);
    // "OAuth" and "iPhone" are single words to readers, not "o auth".
    if (parts.length >= 2 && parts.every((part) => part.length > 1)) lines.add(parts.join(' '));
  }
  return [...lines].join('\n');
}

/**
 * The parts of a camelCase or PascalCase word, lower-cased (`LLMSwitcher` -> llm, switcher). A
 * plural acronym stays whole: `URLs` is no "ur ls".
 */
function camelCaseParts(word: string): string[] {
  return word
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z]{2,})/g, '$1 $2')
    .toLowerCase()
    .split(' ')
    .filter((part) => part !== '');
}
