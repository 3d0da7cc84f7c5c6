import { DocsIndex, queryTerms, urlPathFromFile } from '../docs/index.js';
import type { DiffFile } from './diff-types.js';
import { diffFilePath } from './diff-types.js';
import type { DiffName } from './diff-names.js';
import { add, type PageEvidence } from './name-evidence.js';
import { nameWords } from './name-shapes.js';
import { rarity } from './name-weights.js';
import type { PageVocabulary } from './page-vocabulary.js';

/** Most the search adds: it finds pages about the same things, which is not proof they are stale. */
const SEARCH_WEIGHT = 0.15;
/** Words searched: the docs index ORs at most this many (see MAX_QUERY_TERMS). */
const QUERY_WORDS = 32;
/** Pages taken from the search. */
const SEARCHED_PAGES = 30;
/** Words shown in the evidence. */
const WORDS_SHOWN = 8;

/**
 * Evidence from the docs search: the diff's most telling words (those of its changed names, by
 * how often the diff says them and how rare they are in the docs) and the words of the changed
 * files' names, searched with the docs index. It finds the pages that speak of the changed
 * thing without its name (`lib/session.js` and the Session page). A page adds SEARCH_WEIGHT x its
 * score over the best page's.
 */
export function searchEvidence(
  codeFiles: readonly DiffFile[],
  names: readonly DiffName[],
  vocabulary: PageVocabulary,
): PageEvidence {
  const evidence: PageEvidence = new Map();
  const words = queryWords(codeFiles, names, vocabulary);
  if (words.length === 0) return evidence;
  const searched = searchedPages(words, vocabulary);
  const pages = new Map(searched.map((index) => [urlPathFromFile(vocabulary.pages[index]!.path), index]));
  const index = DocsIndex.build(
    searched.map((page) => ({ path: vocabulary.pages[page]!.path, content: vocabulary.pages[page]!.text })),
  );
  try {
    const hits = index.search(words.join(' '), { limit: SEARCHED_PAGES, snippets: false });
    const top = Math.max(...hits.map((hit) => hit.score), Number.MIN_VALUE);
    for (const hit of hits) {
      const page = pages.get(hit.urlPath);
      if (page === undefined || hit.score <= 0) continue;
      add(evidence, page, {
        kind: 'search',
        words: words.slice(0, WORDS_SHOWN),
        weight: SEARCH_WEIGHT * (hit.score / top),
      });
    }
  } finally {
    index.close();
  }
  return evidence;
}

/**
 * The pages searched: all of them on a site of up to MAX_INDEXED_PAGES pages; on a larger one,
 * the MAX_INDEXED_PAGES that hold the most of the query's words (each weighed by its rarity).
 * Indexing takes most of the analysis's time on a large site (about a second for 400 pages), and
 * a page holding none of the words is never found anyway.
 */
function searchedPages(words: readonly string[], vocabulary: PageVocabulary): number[] {
  const all = vocabulary.pages.map((_, index) => index);
  if (all.length <= MAX_INDEXED_PAGES) return all;
  const held = new Map<number, number>();
  for (const word of words) {
    const weight = rarity(vocabulary.pageCount(word), vocabulary.pages.length);
    for (const page of new Set(vocabulary.find(word).map((at) => at.page)))
      held.set(page, (held.get(page) ?? 0) + weight);
  }
  return [...held]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, MAX_INDEXED_PAGES)
    .map(([page]) => page)
    .sort((a, b) => a - b);
}

/** Pages indexed for the search at most (see `searchedPages`). */
const MAX_INDEXED_PAGES = 150;

/** A file's name without its folders and extension (`lib/env-proxy.js` -> `env-proxy`). */
export function fileStem(path: string): string {
  return (path.split('/').pop() ?? '').replace(/\.[^.]*$/, '');
}

/** The words to search, most telling first. */
function queryWords(
  codeFiles: readonly DiffFile[],
  names: readonly DiffName[],
  vocabulary: PageVocabulary,
): string[] {
  const scores = new Map<string, number>();
  const total = vocabulary.pages.length;
  const credit = (word: string, amount: number) => {
    const pages = vocabulary.pageCount(word);
    if (pages === 0) return;
    scores.set(word, (scores.get(word) ?? 0) + amount * rarity(pages, total));
  };
  for (const name of names) for (const word of new Set(nameWords(name.name))) credit(word, name.lines);
  for (const file of codeFiles) {
    const stem = diffFilePath(file)
      .split('/')
      .pop()!
      .replace(/\.[^.]*$/, '');
    for (const word of nameWords(stem)) credit(word, 2);
  }
  const allowed = new Set(queryTerms([...scores.keys()].join(' '), scores.size));
  return [...scores]
    .filter(([word]) => allowed.has(word))
    .sort((a, b) => b[1] - a[1])
    .slice(0, QUERY_WORDS)
    .map(([word]) => word);
}
