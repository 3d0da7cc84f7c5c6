import { conceptExpression, type QueryConcept } from './fts-query.js';
import type { SearchStatements } from './search-statements.js';

/** Word weights remembered per index; questions reuse the same vocabulary. */
const MAX_CACHED_WEIGHTS = 20_000;

/**
 * How much of a question a page holds, 0-1: the sum of the weights of the question's concepts
 * it matches over the sum of all of them. A concept weighs its inverse document frequency, so a
 * word no page has ("sourdough") weighs most and a word every page has ("docs") least: a page
 * that matches two common words of a question about baking holds little of it.
 */
export class RelevanceMeter {
  private readonly weights = new Map<string, number>();
  private readonly sections: number;

  constructor(private readonly statements: SearchStatements) {
    this.sections = statements.total();
  }

  /**
   * Relevance of each of `ids` (page ids) to the question made of `concepts`: a page holds a
   * concept when any of its sections does, since readers are sent to the page.
   */
  measure(concepts: readonly QueryConcept[], ids: readonly number[]): Map<number, number> {
    const scores = new Map(ids.map((id) => [id, 0]));
    if (ids.length === 0 || concepts.length === 0) return scores;
    let total = 0;
    for (const concept of concepts) {
      const expression = conceptExpression(concept);
      const weight = this.weight(expression);
      total += weight;
      for (const id of this.statements.matchingPages(expression, ids))
        scores.set(id, scores.get(id)! + weight);
    }
    for (const [id, score] of scores) scores.set(id, total > 0 ? score / total : 0);
    return scores;
  }

  /** Inverse document frequency of a concept's expression (cached). */
  private weight(expression: string): number {
    let weight = this.weights.get(expression);
    if (weight === undefined) {
      const count = this.statements.count(expression);
      weight = Math.max(0.05, Math.log((this.sections + 1) / (count + 0.5)));
      if (this.weights.size >= MAX_CACHED_WEIGHTS) this.weights.clear();
      this.weights.set(expression, weight);
    }
    return weight;
  }
}
