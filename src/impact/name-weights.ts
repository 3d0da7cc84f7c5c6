import type { NameChange } from './diff-names.js';
import { ROLE_RANK, type PageLine } from './page-vocabulary.js';

/**
 * How much a page holding a name says the page is stale, by what the diff did to the name, before
 * the name's own specificity and rarity. A page that still names what the code removed or renamed
 * is wrong as it stands; one that names a changed default is likely wrong; one that names
 * something the diff merely touched is wrong only if the touch changed behaviour, which bug fixes
 * and refactors do all the time without docs changing.
 */
export const CHANGE_WEIGHT: Record<NameChange, number> = {
  removed: 0.9,
  renamed: 0.9,
  'default-changed': 0.85,
  // Only on a page that quotes the old declaration (see nameEvidence): the type it states is no
  // longer the type, as a stated default is no longer the default.
  'type-changed': 0.85,
  changed: 0.3,
  added: 0.3,
};

/**
 * Factor of a name a page only shows in code examples. An example that uses a removed option is
 * as stale as a sentence (and config references are often one commented YAML block), but an
 * example's local variables can share a name with changed code by chance. 0.3 to 0.7 measured
 * the same in bench/docs-impact.ts.
 */
export const CODE_ONLY_FACTOR = 0.7;

/**
 * How rare a name is in the docs, 0-1: 1 on one page, near 0 on every page of a large site, in
 * between by the log of the share of pages (an IDF scaled by its largest value, so that it reads
 * the same on a site of fifty pages and one of a thousand). The site is counted with
 * RARITY_PRIOR_PAGES more pages that hold nothing: on a site of three pages, a name on two of
 * them is no common word. A name no page has counts as rare.
 */
export function rarity(pageCount: number, totalPages: number): number {
  if (pageCount <= 1) return 1;
  return Math.max(0, 1 - Math.log(pageCount) / Math.log(totalPages + RARITY_PRIOR_PAGES));
}

/** Pages added to every site when judging rarity (see `rarity`). */
const RARITY_PRIOR_PAGES = 10;

/** Lines of one page among some lines, the lines that document the name first, examples last. */
export function linesOfPage(lines: readonly PageLine[], page: number): PageLine[] {
  return lines.filter((at) => at.page === page).sort((a, b) => ROLE_RANK[a.role] - ROLE_RANK[b.role]);
}
