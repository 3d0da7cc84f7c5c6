import type { RankedSection } from './search-statements.js';

/**
 * Adds to each candidate `weight` times the score of its page's second best section among `rows`
 * (all ranked sections, best first). A page that answers a question usually discusses it in more
 * than one section; a page that mentions the same words once, in passing, has no second section
 * to add.
 */
export function addSecondSections(
  rows: readonly RankedSection[],
  candidates: RankedSection[],
  weight: number,
): void {
  const seen = new Set<number>();
  const seconds = new Map<number, number>();
  for (const row of rows) {
    if (!seen.has(row.pageId)) seen.add(row.pageId);
    else if (!seconds.has(row.pageId)) seconds.set(row.pageId, row.score);
  }
  for (const row of candidates) row.score += weight * (seconds.get(row.pageId) ?? 0);
}

/**
 * Orders the sections of each page among `rows` by score x (1 + `weight` x the share of the
 * question their own headings name, from `shares`): a page is cited at one section, and the one
 * headed with what was asked ("GitHub Enterprise Server") is where the reader should land, though
 * bm25 may favour another section holding the same words in a shorter text. The page's scores are
 * handed out again in the new order, its best to the first, its second best to the second, and so
 * on, so that whatever is later worked out from a page's best and second best scores, and so the
 * rank of pages, is as it was: headings are weighed between pages by the full-text ranking.
 */
export function preferHeadedSections(
  rows: RankedSection[],
  shares: ReadonlyMap<number, number>,
  weight: number,
): void {
  const pages = new Map<number, RankedSection[]>();
  for (const row of rows) {
    const sections = pages.get(row.pageId);
    if (sections) sections.push(row);
    else pages.set(row.pageId, [row]);
  }
  for (const sections of pages.values()) {
    if (sections.length < 2) continue;
    const scores = sections.map((row) => row.score).sort((left, right) => right - left);
    const weighed = (row: RankedSection) => row.score * (1 + weight * (shares.get(row.id) ?? 0));
    const order = [...sections].sort((left, right) => weighed(right) - weighed(left));
    order.forEach((row, position) => (row.score = scores[position]!));
  }
}
