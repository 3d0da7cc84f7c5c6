import { queryTerms, type QueryConcept } from './fts-query.js';
import { identifierPartsText } from './search-text.js';
import { stem } from './word-stem.js';

/**
 * What each page is called: its title and its sidebar title, as stemmed words. A question that
 * says a page's whole name ("Coval", "React hooks", "audit logs") asks for that page, more than
 * for the pages that mention the same words among many others; the share of the name the question
 * holds measures it, so a long title needs more of the question than a one-word one.
 */
export class PageNames {
  private readonly names = new Map<number, string[][]>();

  add(pageId: number, names: readonly (string | undefined)[]): void {
    const spelled = names.filter((name): name is string => name !== undefined && name.trim() !== '');
    // "LLMSwitcher" is also named "LLM switcher", the way readers write it.
    const split = spelled.map((name) =>
      name.replace(/[A-Za-z0-9]+/g, (word) => identifierPartsText(word) || word),
    );
    const words = [...new Set([...spelled, ...split])]
      .map((name) => queryTerms(name).map(stem))
      .filter((name) => name.length > 0);
    this.names.set(pageId, words);
  }

  /** The largest share of one of the page's names that the question's concepts hold, 0-1. */
  coverage(pageId: number, asked: ReadonlySet<string>): number {
    let best = 0;
    for (const name of this.names.get(pageId) ?? []) {
      const held = name.filter((word) => asked.has(word)).length / name.length;
      best = Math.max(best, held);
    }
    return best;
  }

  /** The stemmed words a question asks about, to pass to `coverage`. */
  static asked(concepts: readonly QueryConcept[]): Set<string> {
    return new Set(concepts.map((concept) => stem(concept.term)));
  }
}
