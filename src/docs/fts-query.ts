import { cjkBigrams, identifierParts, isIdentifier, WORD } from './search-text.js';
import { otherSpellings } from './spelling.js';
import { STOP_WORDS } from './stop-words.js';
import { phraseSynonyms, synonymsOfWord } from './synonyms.js';

/**
 * Turns reader text into FTS5 MATCH expressions that can never be a syntax error: the text is cut
 * into words the way the tokenizer cuts it (letters, marks, digits and `_`), so quotes,
 * parentheses, `*`, `:` and `^` never reach FTS5, and every word is double-quoted, so `OR`, `NEAR`
 * and `AND` are plain words. The words are OR-ed: bm25 ranks sections matching more, rarer words
 * first, which suits questions better than requiring every word.
 */

const CJK_RUN = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+$/u;
const SCRIPT_PARTS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/** Every CJK script lies at or above U+1100 (astral ideographs are surrogate pairs, above too). */
const MAY_HAVE_CJK = /[\u1100-\uffff]/;
const UNDERSCORE = 0x5f;

/**
 * Host names, addresses and e-mail addresses in reader text (`docs.example.com`, `a@b.io`). A match
 * starts only where a run of name characters starts: from every position inside a long run
 * ("a-a-a-…"), the scan to its end made a 100 KB message take seconds.
 */
const ADDRESS =
  /(?<![\w.-])[\w-]+(?:@[\w-]+)?(?:\.[\w-]+)+\.[a-z]{2,}\b|(?<![\w.-])[\w-]+\.(?:com|io|dev|org|net|app|co)\b/gi;

/** Query words cap: long context (a pasted code block) must not turn into a thousand-term OR. */
const MAX_QUERY_TERMS = 32;
/**
 * Longest query word kept. No reader types a longer one, and a megabyte-long identifier would
 * become one FTS5 phrase of half a million tokens, seconds of work for a single question.
 */
export const MAX_QUERY_WORD_LENGTH = 100;
/** Docs words a question's wording adds at most, so that synonyms never drown the question. */
const MAX_SYNONYMS = 12;

/**
 * One thing the reader asked about: a word of the question and the FTS5 alternatives that count
 * as finding it (the word, an identifier's parts as a phrase, the docs' words for it).
 */
export interface QueryConcept {
  term: string;
  alternatives: string[];
  /**
   * The word came from an address the reader typed (`docs.mycompany.com`, `me@example.com`): it
   * names their own thing, which the docs cannot contain, so its absence says nothing.
   */
  placeholder?: boolean;
  /**
   * A reader's phrase the synonym table knows ("in the middle of"), searched beside its words.
   * Its words are concepts of their own, so where no page holds the phrase nor the docs' words
   * for it, it is no word the docs lack: it counts for nothing.
   */
  phrase?: boolean;
}

/** The distinct, lower-cased, non-stop words of `text`, in order of first appearance. */
export function queryTerms(text: string, maxTerms = MAX_QUERY_TERMS): string[] {
  const terms: string[] = [];
  const seen = new Set<string>();
  const lower = text.toLowerCase();
  for (const match of lower.matchAll(WORD)) {
    const word = trimUnderscores(match[0]);
    if (word === '') continue;
    // The answerer reads every word of the passages it quotes through here, so the common case,
    // a word without CJK characters, skips the per-script split.
    if (!MAY_HAVE_CJK.test(word))
      addTerm(word, terms, seen, isLanguageName(word, lower, match.index + match[0].length));
    else addParts(word, terms, seen);
    if (terms.length >= maxTerms) break;
  }
  return terms.length > maxTerms ? terms.slice(0, maxTerms) : terms;
}

function addTerm(word: string, terms: string[], seen: Set<string>, named = false): void {
  if (word === '' || seen.has(word) || STOP_WORDS.has(word) || (!named && isNoise(word))) return;
  seen.add(word);
  terms.push(word);
}

function trimUnderscores(word: string): string {
  return word.charCodeAt(0) === UNDERSCORE || word.charCodeAt(word.length - 1) === UNDERSCORE
    ? word.replace(/^_+|_+$/g, '')
    : word;
}

/** Chinese and Latin letters run together ("配置DNS记录"): each script's part is a word of its own. */
function addParts(word: string, terms: string[], seen: Set<string>): void {
  for (const part of word.match(SCRIPT_PARTS) ?? []) {
    if (CJK_RUN.test(part)) for (const bigram of cjkBigrams(part)) addTerm(bigram, terms, seen);
    else addTerm(trimUnderscores(part), terms, seen);
  }
}

/** A one-letter word written as a language's name ("C++", "C#"): `end` is where it ends in `lower`. */
function isLanguageName(word: string, lower: string, end: number): boolean {
  return word.length === 1 && LANGUAGE_SUFFIX.test(lower.slice(end, end + 2));
}

/**
 * The concepts of a question: its words, each with the alternatives that find it, plus one
 * concept per reader phrase the synonym table knows ("cut off" -> interruption).
 */
export function queryConcepts(text: string, maxTerms = MAX_QUERY_TERMS): QueryConcept[] {
  let synonyms = 0;
  const withSynonyms = (words: readonly string[], own: string[]) => {
    const extra = words.filter((word) => !own.includes(quote(word))).slice(0, MAX_SYNONYMS - synonyms);
    synonyms += extra.length;
    return [...own, ...extra.map(quote)];
  };
  const addressed = new Set(queryTerms((text.match(ADDRESS) ?? []).join(' '), maxTerms));
  let concepts = queryTerms(text, maxTerms).map((term): QueryConcept => {
    const own = [quote(term)];
    if (isIdentifier(term)) own.push(quote(identifierParts(term).join(' ')));
    for (const form of otherNumber(term)) own.push(quote(form));
    for (const form of otherSpellings(term)) own.push(quote(form));
    const concept = { term, alternatives: withSynonyms(synonymsOfWord(term), own) };
    return addressed.has(term) ? { ...concept, placeholder: true } : concept;
  });
  // A part two names share ("md" of AGENTS.md and README.md) is a loose word only once.
  const named = new Set<string>();
  for (const name of fileNames(text)) {
    const parts = queryTerms(name);
    const held = concepts.filter((concept) => parts.includes(concept.term));
    const found = (part: string) => named.has(part) || held.some((concept) => concept.term === part);
    if (parts.length < 2 || held.length === 0 || !parts.every(found)) continue;
    parts.forEach((part) => named.add(part));
    const position = concepts.indexOf(held[0]!);
    concepts = concepts.filter((concept) => !held.includes(concept));
    concepts.splice(position, 0, { term: name, alternatives: [quote(parts.join(' '))] });
  }
  for (const { phrase, docs } of phraseSynonyms(text)) {
    if (concepts.some((concept) => concept.term === phrase)) continue;
    concepts.push({ term: phrase, alternatives: withSynonyms(docs, [quote(phrase)]), phrase: true });
  }
  return concepts;
}

/**
 * Words whose singular ends in "-us" or "-as" (status, alias, canvas) and their plurals: the porter
 * stemmer cuts the singular's final "s" ("status" -> "statu") but only the "es" of the plural
 * ("statuses" -> "status"), so "what do the job statuses mean" never finds a table headed
 * "status". The other number of such a word is searched with it.
 */
const SINGULAR_IN_S = /^[\p{L}]{3,}[ua]s$/u;
const PLURAL_IN_SES = /^[\p{L}]{3,}[ua]ses$/u;

/** The word in the other number, when the stemmer would not match the two. */
function otherNumber(term: string): string[] {
  if (SINGULAR_IN_S.test(term)) return [`${term}es`];
  if (PLURAL_IN_SES.test(term)) return [term.slice(0, -2)];
  return [];
}

/**
 * File names a reader types (`AGENTS.md`, `docs.json`): the tokenizer cuts them at the dot, and
 * their parts alone are common words ("agents", "json") found on every page about the subject.
 */
const FILE_NAME =
  /(?<![\p{L}\p{N}_.-])[\p{L}\p{N}_-]+\.(?:md|mdx|json|ya?ml|txt|toml|js|ts|jsx|tsx|py|env|css|html|xml|csv)(?![\p{L}\p{N}_.-])/giu;

function fileNames(text: string): string[] {
  return [...new Set((text.match(FILE_NAME) ?? []).map((name) => name.toLowerCase()))];
}

/** `"term1" OR "term2" ...` over every alternative of every concept, or null when there is none. */
export function matchExpression(concepts: readonly (QueryConcept | string)[]): string | null {
  const alternatives = new Set<string>();
  for (const concept of concepts) {
    if (typeof concept === 'string') alternatives.add(quote(concept));
    else for (const alternative of concept.alternatives) alternatives.add(alternative);
  }
  return alternatives.size === 0 ? null : [...alternatives].join(' OR ');
}

/**
 * Words that may stand between two neighbouring words of a question in the docs' text: one lets
 * "table contents" find "table of contents".
 */
const PHRASE_DISTANCE = 1;

/**
 * One FTS5 expression per pair of neighbouring words of `text` (stop words skipped, numbers
 * left out), finding the two side by side or one word apart, in either order: "reverse a linked
 * list" gives `NEAR("reverse" "linked", 1)` and `NEAR("linked" "list", 1)`.
 */
export function neighbourExpressions(text: string): string[] {
  const terms = queryTerms(text).filter((term) => !/^\d+$/.test(term));
  const expressions: string[] = [];
  for (let index = 0; index + 1 < terms.length; index += 1)
    expressions.push(`NEAR(${quote(terms[index]!)} ${quote(terms[index + 1]!)}, ${PHRASE_DISTANCE})`);
  return expressions;
}

/** The MATCH expression that finds one concept. */
export function conceptExpression(concept: QueryConcept): string {
  return concept.alternatives.join(' OR ');
}

/** The words of each alternative of a concept (a phrase is several words that must all appear). */
export function conceptWords(concept: QueryConcept): string[][] {
  return concept.alternatives.map((alternative) =>
    alternative.replace(/"/g, '').split(/\s+/).filter(Boolean),
  );
}

/** A word or phrase as an FTS5 string: words hold no `"`, so quoting needs no escaping. */
function quote(words: string): string {
  return `"${words.replace(/"/g, '')}"`;
}

/**
 * What follows a language's one-letter name ("C++", "C#", "F#"): the tokenizer indexes that
 * name as its letter, so the letter is the word to search, not noise.
 */
const LANGUAGE_SUFFIX = /^(?:\+\+|#)/;

/** A single Latin letter carries no meaning on its own ("a", the "s" of "what's"). */
function isNoise(word: string): boolean {
  if (word.length === 1) return word >= 'a' && word <= 'z';
  return word.length > MAX_QUERY_WORD_LENGTH;
}
