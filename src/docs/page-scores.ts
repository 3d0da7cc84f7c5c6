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
