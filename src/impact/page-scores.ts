import type { ImpactEvidence, ImpactPage } from './impact-types.js';
import type { PageEvidence } from './name-evidence.js';
import { nameShape } from './name-shapes.js';
import { pageFactor } from './page-kinds.js';
import type { PageInput } from './page-vocabulary.js';

/**
 * A page whose score reaches this is listed as affected whatever the change judge says of the
 * change as a whole. Scores combine evidence weights as independent chances (1 - the product of
 * 1 - weight), so 0.5 means "more likely stale than not" on the weights' own scale, the same for
 * every project: no project-specific constant moves it.
 */
const SURE_SCORE = 0.5;

/**
 * Evidence that the page itself is wrong or is where a new name goes (`strong`), and evidence
 * that the change is about what the page covers (`area`: names the diff touched but kept, a file
 * named like the page, the docs search).
 */
type EvidenceSort = 'stale' | 'sibling' | 'family' | 'area';

/**
 * The most each sort can add, however many items of it a page has. The area signs all say one
 * thing, that the change is in the page's subject, so together they add at most a quarter, well
 * below SURE_SCORE: a refactor of a documented module touches its documented names, lives in
 * a file named like its page and shares its words, and still makes no page wrong. Listing a page
 * takes a strong sign of at least 1 - (1 - 0.5) / (1 - 0.25) = 1/3 beside a full area: the area
 * corroborates a sign, it does not make a faint one (a placement among a few shared siblings)
 * enough. Measured at 0.25 to 0.45 on two repositories: precision fell from 0.96 to 0.78 as the
 * cap rose, recall did not move.
 */
const SORT_CAPS: Record<EvidenceSort, number> = { stale: 0.95, sibling: 0.9, family: 0.9, area: 0.25 };

/**
 * What an item of evidence says, finer than its sort: the change judge weighs each on its own.
 * A plain word removed or renamed (`aborted`) is `word-gone`: such words name local variables as
 * often as options, so their going says little. A changed default is `stale`, judged by its
 * weight, which knows whether the page states the old value.
 */
export type EvidenceSignal =
  'stale' | 'sibling' | 'family' | 'touched' | 'added' | 'word-gone' | 'file-name' | 'search';

export function evidenceSignal(item: ImpactEvidence): EvidenceSignal {
  if (item.kind !== 'name') return item.kind;
  if (item.change === 'changed') return 'touched';
  if (item.change === 'added') return 'added';
  return item.change !== 'default-changed' && nameShape(item.name) === 'word' ? 'word-gone' : 'stale';
}

/** The sort of an item: the signals that only say the change is in the page's subject are `area`. */
function sortOf(item: ImpactEvidence): EvidenceSort {
  const signal = evidenceSignal(item);
  return signal === 'stale' || signal === 'sibling' || signal === 'family' ? signal : 'area';
}

/** Pages with their combined score and evidence, most affected first; ties by path. */
export function scorePages(evidence: readonly PageEvidence[], pages: readonly PageInput[]): ImpactPage[] {
  const merged = new Map<number, ImpactEvidence[]>();
  for (const source of evidence)
    for (const [page, items] of source) merged.set(page, [...(merged.get(page) ?? []), ...items]);
  const scored: (ImpactPage & { uncapped: number })[] = [];
  for (const [page, items] of merged) {
    const factor = pageFactor(pages[page]!);
    const score = combine(items, SORT_CAPS) * factor;
    if (score <= 0) continue;
    scored.push({
      path: pages[page]!.path,
      score: Math.round(score * 1000) / 1000,
      affected: score >= SURE_SCORE,
      evidence: items
        .sort((a, b) => b.weight - a.weight)
        .map((item) => ({ ...item, weight: Math.round(item.weight * 1000) / 1000 })),
      uncapped: combine(items, NO_CAPS) * factor,
    });
  }
  // Pages whose area signs all reached the cap still differ in how much of the area they cover:
  // the uncapped combination orders them.
  scored.sort((a, b) => b.score - a.score || b.uncapped - a.uncapped || a.path.localeCompare(b.path));
  return scored.map(({ uncapped: _uncapped, ...page }) => page);
}

const NO_CAPS: Record<EvidenceSort, number> = { stale: 1, sibling: 1, family: 1, area: 1 };

/** 1 - the product of (1 - each sort's share), a sort's share being its items combined, capped. */
function combine(items: readonly ImpactEvidence[], caps: Record<EvidenceSort, number>): number {
  const missing = new Map<EvidenceSort, number>();
  for (const item of items) {
    const sort = sortOf(item);
    missing.set(sort, (missing.get(sort) ?? 1) * (1 - Math.min(1, Math.max(0, item.weight))));
  }
  let none = 1;
  for (const [sort, left] of missing) none *= 1 - Math.min(caps[sort], 1 - left);
  return 1 - none;
}
