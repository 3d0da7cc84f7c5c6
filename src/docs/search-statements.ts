import type Database from 'better-sqlite3';
import type { FtsTables } from './index-database.js';

/** `bm25()` weight of each searched column; a match in a heavier column counts more. */
export interface ColumnWeights {
  title: number;
  headings: number;
  body: number;
  summary: number;
  /** Parts of underscore identifiers. */
  terms: number;
}

/** Restrictions on the pages a query may return (already resolved by the caller). */
export interface StatementFilter {
  /** Which language's full-text table is searched. */
  language: string;
  /** Pages of this version, plus pages that belong to no version (shared by all of them). */
  version?: string;
  groups?: readonly string[];
  /** Only these pages (used to fetch the `currentPath` neighbourhood). */
  pageIds?: readonly number[];
}

/** A ranked candidate: which section, of which page, how relevant. */
export interface RankedSection {
  id: number;
  pageId: number;
  /** Negated bm25: higher is better. */
  score: number;
}

/** A section matching a concept, and in which of its columns (1 or 0, as SQLite returns them). */
export interface MatchingSection {
  id: number;
  title: number;
  summary: number;
  /** Title, headings or summary: what the section's page says it is about. */
  about: number;
  /** The section's own heading chain. */
  headings: number;
}

/** What a hit shows of a section. */
export interface SectionText {
  anchor: string;
  heading: string;
  /** JSON array of the heading chain. */
  headingChain: string;
  body: string;
  snippet: string;
}

const SNIPPET_TOKENS = 32;
/** Runs of consecutive section ids searched one range at a time (see `rankWithinRuns`). */
const MAX_ROWID_RUNS = 4;
const TEXT_COLUMNS =
  's.anchor AS anchor, s.heading AS heading, s.heading_chain AS headingChain, coalesce(s.display, s.body) AS body';

/**
 * Prepared search statements of one index database. There is one statement per filter shape (which
 * of language, version, groups, pages are set), prepared on first use and reused; values are
 * always bound, never spliced into SQL.
 *
 * Ranking and text are two steps: SQLite evaluates every result column of every matching row
 * before sorting, so computing `snippet()` in the ranking query cost more than the ranking itself
 * (measured: 5.9 ms against 3.5 ms per query on the mintlify corpus).
 */
export class SearchStatements {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly weights: string;
  private pages: Int32Array | undefined;
  private pageSectionIds: Map<number, number[]> | undefined;

  constructor(
    private readonly database: Database.Database,
    private readonly tables: FtsTables,
    weights: ColumnWeights,
  ) {
    const numbers = [weights.title, weights.headings, weights.body, weights.summary, weights.terms].map(
      (weight) => (Number.isFinite(weight) ? String(weight) : '1'),
    );
    this.weights = numbers.join(', ');
  }

  /**
   * Sections matching `match` (an FTS5 expression) within `filter`, best first. bm25 is computed
   * for every matching row before the sort, so the statement does no other per-row work it can
   * avoid: without a version, group or page restriction it reads the full-text table alone and
   * takes each section's page from memory (joining `sections` and `pages` for every row cost a
   * fifth of the query on common words).
   */
  rank(match: string, filter: StatementFilter, limit: number): RankedSection[] {
    const table = this.tables.byLanguage.get(filter.language);
    if (table === undefined) return [];
    const bm25 = `bm25(${table}, ${this.weights})`;
    const clauses = [`${table} MATCH @match`];
    const parameters: Record<string, unknown> = { match, limit };
    if (filter.version !== undefined) {
      clauses.push('(p.version = @version OR p.version IS NULL)');
      parameters.version = filter.version;
    }
    if (filter.groups !== undefined) {
      clauses.push(`EXISTS (SELECT 1 FROM page_groups g WHERE g.page_id = p.id
        AND g.name IN (SELECT value FROM json_each(@groups)))`);
      parameters.groups = JSON.stringify(filter.groups);
    }
    if (filter.pageIds !== undefined) {
      clauses.push('s.page_id IN (SELECT value FROM json_each(@pageIds))');
      parameters.pageIds = JSON.stringify(filter.pageIds);
    }
    if (filter.pageIds !== undefined && clauses.length === 2) {
      const ranked = this.rankWithinRuns(match, table, filter.pageIds, limit);
      if (ranked) return ranked;
    }
    if (clauses.length === 1) {
      const sql = `SELECT rowid, -${bm25} AS score FROM ${table} WHERE ${clauses[0]} ORDER BY score DESC LIMIT @limit`;
      const rows = this.statement(sql).raw().all(parameters) as [number, number][];
      const pages = this.sectionPages();
      return rows.map(([id, score]) => ({ id, pageId: pages[id] ?? 0, score }));
    }
    const sql = `SELECT s.id AS id, s.page_id AS pageId, -${bm25} AS score
      FROM ${table}
      JOIN sections s ON s.id = ${table}.rowid
      JOIN pages p ON p.id = s.page_id
      WHERE ${clauses.join(' AND ')}
      ORDER BY score DESC
      LIMIT @limit`;
    return this.statement(sql).all(parameters) as RankedSection[];
  }

  /** The text of a section, with a snippet around the terms of `match` (or its opening without one). */
  text(id: number, match: string | null, language: string): SectionText | undefined {
    const table = this.tables.byLanguage.get(language);
    if (match === null || table === undefined) {
      const sql = `SELECT ${TEXT_COLUMNS}, substr(s.body, 1, 200) AS snippet FROM sections s WHERE s.id = @id`;
      return this.statement(sql).get({ id }) as SectionText | undefined;
    }
    const sql = `SELECT ${TEXT_COLUMNS}, snippet(${table}, 2, '', '', '…', ${SNIPPET_TOKENS}) AS snippet
      FROM ${table} JOIN sections s ON s.id = ${table}.rowid
      WHERE ${table} MATCH @match AND ${table}.rowid = @id`;
    return this.statement(sql).get({ id, match }) as SectionText | undefined;
  }

  /**
   * Every section of `language` matching `match` (one concept of a question), with whether the
   * match is in its title, its summary, its title, headings or summary, and its heading chain. One query instead of
   * one per column: bm25 with a single column weighted is below zero exactly when that column
   * holds a phrase of the match (FTS5 keeps every idf above zero).
   */
  matchingSections(match: string, language: string): MatchingSection[] {
    const table = this.tables.byLanguage.get(language);
    if (table === undefined) return [];
    const sql = `SELECT rowid AS id,
        bm25(${table}, 1, 0, 0, 0, 0) < 0 AS title,
        bm25(${table}, 0, 0, 0, 1, 0) < 0 AS summary,
        bm25(${table}, 1, 1, 0, 1, 0) < 0 AS about,
        bm25(${table}, 0, 1, 0, 0, 0) < 0 AS headings
      FROM ${table} WHERE ${table} MATCH @match`;
    return this.statement(sql).all({ match }) as MatchingSection[];
  }

  /** Whether a section of one of `pageIds` (pages of `language`) matches `match`. */
  matchesIn(match: string, language: string, pageIds: ReadonlySet<number>): boolean {
    const table = this.tables.byLanguage.get(language);
    if (table === undefined || pageIds.size === 0) return false;
    const pages = this.sectionPages();
    const sql = `SELECT rowid FROM ${table} WHERE ${table} MATCH @match`;
    for (const [id] of this.statement(sql).raw().iterate({ match }) as Iterable<[number]>)
      if (pageIds.has(pages[id] ?? 0)) return true;
    return false;
  }

  /**
   * The best sections of a few pages, or undefined when their sections are spread over more than
   * `MAX_ROWID_RUNS` runs of consecutive ids. A page's sections have consecutive ids, and so do a
   * folder's pages (the `currentPath` neighbourhood): FTS5 reads only the ids in a `rowid BETWEEN`
   * range, where the general statement scores every section the expression matches and then keeps
   * those of the pages (measured on the mintlify corpus: p50 with `currentPath` 3.45 -> 2.89 ms,
   * identical results). Scores are the same either way: bm25 takes its statistics from the whole
   * table.
   */
  private rankWithinRuns(
    match: string,
    table: string,
    pageIds: readonly number[],
    limit: number,
  ): RankedSection[] | undefined {
    const runs = idRuns(this.sectionsOfPages(pageIds));
    if (runs.length > MAX_ROWID_RUNS) return undefined;
    const sql = `SELECT rowid, -bm25(${table}, ${this.weights}) AS score FROM ${table}
      WHERE ${table} MATCH @match AND rowid BETWEEN @first AND @last ORDER BY score DESC LIMIT @limit`;
    const pages = this.sectionPages();
    return runs
      .flatMap(
        ([first, last]) => this.statement(sql).raw().all({ match, limit, first, last }) as [number, number][],
      )
      .map(([id, score]) => ({ id, pageId: pages[id] ?? 0, score }))
      .sort((left, right) => right.score - left.score)
      .slice(0, limit);
  }

  /** The ids of the sections of some pages. */
  private sectionsOfPages(pageIds: readonly number[]): number[] {
    if (!this.pageSectionIds) {
      this.pageSectionIds = new Map();
      this.sectionPages().forEach((pageId, id) => {
        const ids = this.pageSectionIds!.get(pageId);
        if (ids) ids.push(id);
        else this.pageSectionIds!.set(pageId, [id]);
      });
    }
    return [...new Set(pageIds)].flatMap((pageId) => this.pageSectionIds!.get(pageId) ?? []);
  }

  /** The page of every section, indexed by section id (read once: an index never changes). */
  sectionPages(): Int32Array {
    if (this.pages) return this.pages;
    const rows = this.database.prepare('SELECT id, page_id FROM sections').raw().all() as [number, number][];
    const pages = new Int32Array(rows.reduce((max, [id]) => Math.max(max, id), 0) + 1);
    for (const [id, pageId] of rows) pages[id] = pageId;
    this.pages = pages;
    return pages;
  }

  /** Every section's id, page and text as a reader sees it (title, headings, body), for embedding. */
  sectionTexts(): { id: number; pageId: number; text: string }[] {
    const sql = `SELECT s.id AS id, s.page_id AS pageId,
      p.title || char(10) || replace(s.headings, char(10), ' > ') || char(10) || coalesce(s.display, s.body) AS text
      FROM sections s JOIN pages p ON p.id = s.page_id ORDER BY s.id`;
    return this.statement(sql).all() as { id: number; pageId: number; text: string }[];
  }

  /** Number of sections of `language`. */
  total(language: string): number {
    return this.tables.sections.get(language) ?? 0;
  }

  /** The first section of a page under exactly `headingChain` (a JSON array, as stored). */
  sectionUnder(pageId: number, headingChain: string): RankedSection | undefined {
    const sql = `SELECT s.id AS id, s.page_id AS pageId, 0 AS score
      FROM sections s WHERE s.page_id = @pageId AND s.heading_chain = @headingChain
      ORDER BY s.position LIMIT 1`;
    return this.statement(sql).get({ pageId, headingChain }) as RankedSection | undefined;
  }

  /** The first sections of a page in reading order (for a query with no searchable words). */
  pageSections(pageId: number, limit: number): RankedSection[] {
    const sql = `SELECT s.id AS id, s.page_id AS pageId, 0 AS score
      FROM sections s WHERE s.page_id = @pageId ORDER BY s.position LIMIT @limit`;
    return this.statement(sql).all({ pageId, limit }) as RankedSection[];
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.database.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/** Ids as runs of consecutive ids, [first, last], in ascending order. */
function idRuns(ids: readonly number[]): [number, number][] {
  const sorted = [...ids].sort((left, right) => left - right);
  const runs: [number, number][] = [];
  for (const id of sorted) {
    const last = runs[runs.length - 1];
    if (last && id === last[1] + 1) last[1] = id;
    else runs.push([id, id]);
  }
  return runs;
}
