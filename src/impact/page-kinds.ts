import type { PageInput } from './page-vocabulary.js';

/**
 * Pages that record the past: changelogs, release notes, migration and upgrade guides. A change
 * goes into the next such page, which does not exist yet; the old ones describe old versions and
 * stay as they are, however many of the changed names they hold.
 */
const HISTORICAL_PATH =
  /(?:^|[/_-])(?:change-?log|changes|history|release-?notes?|releases|migrat\w*|upgrad\w*|news)(?:[/_.-]|$)/i;

/** Share of a page's lines that are links in lists past which the page is a table of contents. */
const NAVIGATION_SHARE = 0.6;
const LINK_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+.*\]\(/;

/**
 * How much a page's evidence counts by what sort of page it is (1 for a page that documents the
 * product): half for historical pages and for navigation pages (a sidebar, a summary, an index
 * of links), which name everything and document nothing.
 */
export function pageFactor(page: PageInput): number {
  if (HISTORICAL_PATH.test(page.path)) return 0.5;
  const lines = page.text.split('\n').filter((line) => line.trim() !== '');
  if (
    lines.length >= 5 &&
    lines.filter((line) => LINK_ITEM.test(line)).length / lines.length > NAVIGATION_SHARE
  )
    return 0.5;
  return 1;
}
