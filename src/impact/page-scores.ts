import type { ImpactEvidence, ImpactPage } from './impact-types.js';
import type { PageEvidence } from './name-evidence.js';
import { pageFactor } from './page-kinds.js';
import type { PageInput } from './page-vocabulary.js';
import { nameShape } from './name-shapes.js';

/**
 * A page whose score reaches this is listed as affected. Scores combine evidence weights as
 * independent chances (1 - the product of 1 - weight), so 0.5 means "more likely stale than not"
 * on the weights' own scale, the same for every project: no project-specific constant moves it.
 */
export const AFFECTED_SCORE = 0.5;

/**
 * The most each sort of evidence can add, however many items of it a page has. The weak sorts
 * (names the diff touched but kept, file names, search) rank pages but, even all together
 * (1 - 0.7 x 0.85 x 0.85 = 0.49), stay under AFFECTED_SCORE: a refactor touches many documented
 * names in a documented module without making a page wrong. Listing a page takes a strong sign,
 * a name removed, renamed or re-defaulted, or a new name placed among its documented family or
 * siblings.
 */
const SORT_CAPS: Record<EvidenceSort, number> = {
  stale: 0.95,
  touched: 0.3,
  sibling: 0.9,
  family: 0.9,
  'file-name': 0.15,
  search: 0.15,
};

type EvidenceSort = 'stale' | 'touched' | 'sibling' | 'family' | 'file-name' | 'search';

/**
 * The sort of an item. A plain word removed or re-defaulted (`aborted`, `timeout`) is only touched:
 * such words name local variables as often as options, so their going says little.
 */
function sortOf(item: ImpactEvidence): EvidenceSort {
  if (item.kind !== 'name') return item.kind;
  if (item.change === 'changed' || item.change === 'added' || nameShape(item.name) === 'word')
    return 'touched';
  return 'stale';
}

/** Pages with their combined score and evidence, most affected first; ties by path. */
export function scorePages(evidence: readonly PageEvidence[], pages: readonly PageInput[]): ImpactPage[] {
  const merged = new Map<number, ImpactEvidence[]>();
  for (const source of evidence)
    for (const [page, items] of source) merged.set(page, [...(merged.get(page) ?? []), ...items]);
  const scored: ImpactPage[] = [];
  for (const [page, items] of merged) {
    const score = combine(items) * pageFactor(pages[page]!);
    if (score <= 0) continue;
    scored.push({
      path: pages[page]!.path,
      score: Math.round(score * 1000) / 1000,
      affected: score >= AFFECTED_SCORE,
      evidence: items.sort((a, b) => b.weight - a.weight),
    });
  }
  return scored.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
}

/** 1 - the product of (1 - each sort's share), a sort's share being its items combined, capped. */
function combine(items: readonly ImpactEvidence[]): number {
  const missing = new Map<EvidenceSort, number>();
  for (const item of items) {
    const sort = sortOf(item);
    missing.set(sort, (missing.get(sort) ?? 1) * (1 - Math.min(1, Math.max(0, item.weight))));
  }
  let none = 1;
  for (const [sort, left] of missing) none *= 1 - Math.min(SORT_CAPS[sort], 1 - left);
  return 1 - none;
}
