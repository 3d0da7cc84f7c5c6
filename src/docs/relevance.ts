import { conceptExpression, type QueryConcept } from './fts-query.js';
import type { SearchStatements } from './search-statements.js';

/** Concepts remembered per index; questions reuse the same vocabulary. */
const MAX_CACHED_CONCEPTS = 5_000;

interface ConceptInfo {
  /** Inverse document frequency over sections. */
  weight: number;
  /** Pages with a section holding the concept. */
  pages: Set<number>;
  /** Sections holding it. */
  count: number;
}

/**
 * How much of a question a page holds, 0-1: the sum of the weights of the question's concepts
 * it holds over the sum of all of them. A concept weighs its inverse document frequency, so a
 * word no page has ("sourdough") weighs most and a word every page has ("docs") least: a page
 * that matches two common words of a question about baking holds little of it. A page holds a
 * concept when any of its sections does, since readers are sent to the page.
 */
export class RelevanceMeter {
  private readonly concepts = new Map<string, ConceptInfo>();
  private readonly sectionPages: Int32Array;
  private readonly sections: number;

  constructor(private readonly statements: SearchStatements) {
    this.sectionPages = statements.sectionPages();
    this.sections = statements.total();
  }

  /** Relevance of each of `pageIds` to the question made of `concepts`. */
  measure(concepts: readonly QueryConcept[], pageIds: readonly number[]): Map<number, number> {
    const scores = new Map(pageIds.map((id) => [id, 0]));
    let total = 0;
    for (const concept of concepts) {
      const info = this.info(conceptExpression(concept));
      total += info.weight;
      for (const id of pageIds) if (info.pages.has(id)) scores.set(id, scores.get(id)! + info.weight);
    }
    for (const [id, score] of scores) scores.set(id, total > 0 ? score / total : 0);
    return scores;
  }

  /** The page of a section. */
  pageOf(sectionId: number): number {
    return this.sectionPages[sectionId] ?? 0;
  }

  /** Share (0-1) of the sections that match an FTS5 expression. */
  frequency(expression: string): number {
    return this.sections === 0 ? 0 : this.info(expression).count / this.sections;
  }

  /** Weight and pages of a concept's expression: one query the first time, then remembered. */
  private info(expression: string): ConceptInfo {
    let info = this.concepts.get(expression);
    if (info === undefined) {
      const sections = this.statements.matchingSections(expression);
      const pages = new Set<number>();
      for (const id of sections) pages.add(this.sectionPages[id]!);
      const weight = Math.max(0.05, Math.log((this.sections + 1) / (sections.length + 0.5)));
      info = { weight, pages, count: sections.length };
      if (this.concepts.size >= MAX_CACHED_CONCEPTS) this.concepts.clear();
      this.concepts.set(expression, info);
    }
    return info;
  }
}
