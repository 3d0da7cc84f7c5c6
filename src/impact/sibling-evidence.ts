import { STANDARD_LIBRARY_KEYS } from './common-names.js';
import type { DiffName } from './diff-names.js';
import { add, type PageEvidence } from './name-evidence.js';
import { shapeSpecificity } from './name-shapes.js';
import { linesOfPage } from './name-weights.js';
import type { PageLine, PageLineRole, PageVocabulary } from './page-vocabulary.js';

/**
 * Most a sibling placement adds: it says where a new name belongs, which is a guess from its
 * company, not a stale sentence on the page.
 */
const SIBLING_WEIGHT = 0.85;
/** Sibling strength (nearness x specificity, summed) at which the placement is 63% sure (1 - 1/e). */
const SIBLING_MASS = 1.5;
/**
 * How much a sibling counts by how the page writes it: the page that documents the siblings (in
 * headings, list items, tables) is where the new name goes; one that mentions them in passing
 * (a guide, a migration note) or uses them in an example much less so.
 */
const ROLE_FACTOR: Record<PageLineRole, number> = { defines: 1, prose: 0.4, code: 0.2 };
/** Siblings quoted in the evidence. */
const SIBLINGS_SHOWN = 5;
/** Pages with less than this share of the siblings are not placements worth showing. */
const MIN_SHARE = 0.1;

interface Sibling {
  name: string;
  /** Nearness x specificity: how surely it is a sibling. */
  strength: number;
  /** Pages documenting it, each with its share of the sibling (role factors, summing to 1). */
  pages: Map<number, { share: number; line: PageLine }>;
}

/**
 * Evidence for the pages where new public names belong: the pages that document the names that
 * stand beside the new one in the code and tests (the sibling options of one object, the other
 * parameters of the function). Each documented sibling spreads its strength over the pages that
 * document it, by how they write it; a page's share of all siblings' strength is the chance the
 * new name goes there, and the siblings' total strength how sure the placement is at all. A page
 * adds SIBLING_WEIGHT x share x (1 - e^-(total / SIBLING_MASS)): one page documenting all the
 * siblings takes it all, two documenting them alike split it.
 */
export function siblingEvidence(newNames: readonly DiffName[], vocabulary: PageVocabulary): PageEvidence {
  const evidence: PageEvidence = new Map();
  for (const name of newNames) {
    const siblings = documentedSiblings(name, vocabulary);
    const total = siblings.reduce((sum, sibling) => sum + sibling.strength, 0);
    if (total === 0) continue;
    const sureness = 1 - Math.exp(-total / SIBLING_MASS);
    for (const [page, held] of pageShares(siblings)) {
      const share = held.reduce((sum, entry) => sum + entry.mass, 0) / total;
      if (share < MIN_SHARE) continue;
      const shown = held.sort((a, b) => b.mass - a.mass).slice(0, SIBLINGS_SHOWN);
      const line = shown[0]!.line;
      add(evidence, page, {
        kind: 'sibling',
        name: name.name,
        siblings: shown.map((entry) => entry.name),
        diffLine: name.at,
        pageLine: { line: line.line, text: vocabulary.text(line) },
        weight: SIBLING_WEIGHT * share * sureness,
      });
    }
  }
  return evidence;
}

function documentedSiblings(name: DiffName, vocabulary: PageVocabulary): Sibling[] {
  const siblings: Sibling[] = [];
  for (const [key, neighbour] of name.neighbours) {
    if (STANDARD_LIBRARY_KEYS.has(key)) continue;
    const lines = vocabulary.find(neighbour.name);
    if (lines.length === 0) continue;
    const pages = new Map<number, { share: number; line: PageLine }>();
    let sum = 0;
    for (const page of new Set(lines.map((at) => at.page))) {
      const line = linesOfPage(lines, page)[0]!;
      pages.set(page, { share: ROLE_FACTOR[line.role], line });
      sum += ROLE_FACTOR[line.role];
    }
    for (const entry of pages.values()) entry.share /= sum;
    siblings.push({
      name: neighbour.name,
      strength: neighbour.nearness * shapeSpecificity(neighbour.name),
      pages,
    });
  }
  return siblings;
}

/** Each page's part of the siblings: which siblings, how much of their strength, where. */
function pageShares(siblings: Sibling[]): Map<number, { name: string; mass: number; line: PageLine }[]> {
  const byPage = new Map<number, { name: string; mass: number; line: PageLine }[]>();
  for (const sibling of siblings)
    for (const [page, { share, line }] of sibling.pages) {
      const list = byPage.get(page) ?? [];
      list.push({ name: sibling.name, mass: sibling.strength * share, line });
      byPage.set(page, list);
    }
  return byPage;
}
