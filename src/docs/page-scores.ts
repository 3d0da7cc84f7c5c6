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
 * question their own headings name, from `shares`), leaving each page's best score as it was: a
 * page is cited at one section, and the one headed with what was asked ("GitHub Enterprise Server")
 * is where the reader should land, though bm25 favours the page's shorter opening, which holds the
 * same words. Pages keep their rank: headings are weighed between pages by the full-text ranking.
 */
export function preferHeadedSections(
  rows: RankedSection[],
  shares: ReadonlyMap<number, number>,
  weight: number,
): void {
  const best = new Map<number, { raw: number; weighed: number }>();
  const weighed = rows.map((row) => row.score * (1 + weight * (shares.get(row.id) ?? 0)));
  rows.forEach((row, position) => {
    const page = best.get(row.pageId) ?? { raw: -Infinity, weighed: -Infinity };
    best.set(row.pageId, {
      raw: Math.max(page.raw, row.score),
      weighed: Math.max(page.weighed, weighed[position]!),
    });
  });
  rows.forEach((row, position) => {
    const page = best.get(row.pageId)!;
    if (page.weighed > 0) row.score = (page.raw * weighed[position]!) / page.weighed;
  });
}
