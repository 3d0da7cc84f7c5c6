import type { RankedSection } from './search-statements.js';

/**
 * Diversity of a result list: a page takes a bounded number of places, and a family of
 * near-identical pages one, so a reader sees as many different pages as asked for.
 */

/**
 * The first `limit` rows with at most one page of each near-duplicate family; the family's other
 * pages come after every other candidate, so they still fill a list that would be short otherwise.
 */
export function foldFamilies(
  rows: RankedSection[],
  families: Map<number, number>,
  limit: number,
): RankedSection[] {
  const shown = new Map<number, number>();
  const kept: RankedSection[] = [];
  const folded: RankedSection[] = [];
  for (const row of rows) {
    const family = families.get(row.pageId);
    const first = family === undefined ? undefined : shown.get(family);
    if (family !== undefined && first !== undefined && first !== row.pageId) folded.push(row);
    else {
      if (family !== undefined) shown.set(family, row.pageId);
      kept.push(row);
    }
    if (kept.length === limit) return kept;
  }
  return [...kept, ...folded].slice(0, limit);
}

/** The first `limit` rows, skipping rows of a page that already has `maxPerPage` of them. */
export function capPerPage(rows: RankedSection[], maxPerPage: number, limit: number): RankedSection[] {
  const perPage = new Map<number, number>();
  const kept: RankedSection[] = [];
  for (const row of rows) {
    const count = perPage.get(row.pageId) ?? 0;
    if (count >= maxPerPage) continue;
    perPage.set(row.pageId, count + 1);
    kept.push(row);
    if (kept.length === limit) break;
  }
  return kept;
}
