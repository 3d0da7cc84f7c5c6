import type { SearchHit } from '../docs/index.js';

/** Headings of a page's opening section, when the page's text before them is empty. */
const OPENING_HEADING = /^(overview|introduction|about)$/i;

/** Whether a section opens its page: the text before the first heading, or an "Overview". */
export function isOpening(section: Pick<SearchHit, 'anchor' | 'heading'>): boolean {
  return section.anchor === '' || OPENING_HEADING.test(section.heading.trim());
}
