import { conceptExpression, type QueryConcept } from './fts-query.js';
import type { SearchStatements } from './search-statements.js';

/** Columns `measure` can count alone; `about` is a page's title, headings and summary together. */
type Column = 'title' | 'summary' | 'about';

/** Concepts remembered per index; questions reuse the same vocabulary. */
const MAX_CACHED_CONCEPTS = 5_000;

interface ConceptInfo {
  /** Inverse document frequency over sections. */
  weight: number;
  /** Pages with a section holding the concept. */
  pages: Set<number>;
  /** Pages holding it in each column. */
  columns: Record<Column, Set<number>>;
  /** Sections whose own heading chain holds it. */
  headedSections: Set<number>;
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

  constructor(private readonly statements: SearchStatements) {
    this.sectionPages = statements.sectionPages();
  }

  /**
   * Relevance of each of `pageIds` (pages of `language`) to the question made of `concepts`; with
   * `column`, only what that column holds counts (the page's title or summary says what it is
   * about; `about` is its title, headings and summary together).
   */
  measure(
    concepts: readonly QueryConcept[],
    pageIds: readonly number[],
    language: string,
    column?: Column,
  ): Map<number, number> {
    const scores = new Map(pageIds.map((id) => [id, 0]));
    let total = 0;
    for (const concept of concepts) {
      const info = this.info(conceptExpression(concept), language);
      const { weight } = info;
      const pages = column ? info.columns[column] : info.pages;
      // A word of the reader's own address counts only where a page has it, and a reader's
      // phrase only where the site has it.
      if (concept.placeholder && !pageIds.some((id) => pages.has(id))) continue;
      if (concept.phrase && info.pages.size === 0) continue;
      total += weight;
      for (const id of pageIds) if (pages.has(id)) scores.set(id, scores.get(id)! + weight);
    }
    for (const [id, score] of scores) scores.set(id, total > 0 ? score / total : 0);
    return scores;
  }

  /**
   * How much of the question each of `sectionIds` (sections of `language`) names in its own
   * heading chain, 0-1, weighted as `measure` weighs pages. A page is cited at one section: the
   * one whose heading names what was asked ("GitHub Enterprise Server") is the place to send the
   * reader, more than the page's opening, which holds the same words in a shorter text.
   */
  headingShares(
    concepts: readonly QueryConcept[],
    sectionIds: readonly number[],
    language: string,
  ): Map<number, number> {
    const shares = new Map(sectionIds.map((id) => [id, 0]));
    let total = 0;
    for (const concept of concepts) {
      const info = this.info(conceptExpression(concept), language);
      if ((concept.placeholder || concept.phrase) && info.pages.size === 0) continue;
      total += info.weight;
      for (const id of sectionIds)
        if (info.headedSections.has(id)) shares.set(id, shares.get(id)! + info.weight);
    }
    for (const [id, share] of shares) shares.set(id, total > 0 ? share / total : 0);
    return shares;
  }

  /**
   * The share (0-1) of `concepts` no page of `language` holds, words of the reader's address aside,
   * and reader phrases no page holds (their words are counted one by one).
   */
  unheldShare(concepts: readonly QueryConcept[], language: string): number {
    const counted = concepts.filter(
      (concept) =>
        !concept.placeholder &&
        !(concept.phrase && this.info(conceptExpression(concept), language).pages.size === 0),
    );
    return counted.length === 0 ? 0 : this.unheld(counted, language).length / counted.length;
  }

  /** The concepts no page of `language` holds, words of the reader's address and reader phrases aside. */
  unheld(concepts: readonly QueryConcept[], language: string): QueryConcept[] {
    return concepts.filter(
      (concept) =>
        !concept.placeholder &&
        !concept.phrase &&
        this.info(conceptExpression(concept), language).pages.size === 0,
    );
  }

  /** The page of a section. */
  pageOf(sectionId: number): number {
    return this.sectionPages[sectionId] ?? 0;
  }

  /** Weight and pages of a concept's expression: one query the first time, then remembered. */
  private info(expression: string, language: string): ConceptInfo {
    const key = `${language}\u0000${expression}`;
    let info = this.concepts.get(key);
    if (info === undefined) {
      const sections = this.statements.matchingSections(expression, language);
      const pages = new Set<number>();
      const columns = { title: new Set<number>(), summary: new Set<number>(), about: new Set<number>() };
      const headedSections = new Set<number>();
      for (const section of sections) {
        if (section.headings) headedSections.add(section.id);
        const page = this.sectionPages[section.id]!;
        pages.add(page);
        if (section.title) columns.title.add(page);
        if (section.summary) columns.summary.add(page);
        if (section.about) columns.about.add(page);
      }
      const total = this.statements.total(language);
      const weight = Math.max(0.05, Math.log((total + 1) / (sections.length + 0.5)));
      info = { weight, pages, columns, headedSections };
      if (this.concepts.size >= MAX_CACHED_CONCEPTS) this.concepts.clear();
      this.concepts.set(key, info);
    }
    return info;
  }
}
