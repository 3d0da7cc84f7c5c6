import type Database from 'better-sqlite3';
import { DocwrightError } from '../core/errors.js';
import { PageNeighbourhoods } from './current-path-boost.js';
import {
  matchExpression,
  neighbourExpressions,
  queryConcepts,
  queryTerms,
  type QueryConcept,
} from './fts-query.js';
import { insertPages, openIndexDatabase, type IndexedPage } from './index-database.js';
import { nearDuplicateFamilies } from './near-duplicates.js';
import { capPerPage, foldFamilies } from './page-diversity.js';
import { PageNames } from './page-names.js';
import { addSecondSections, preferHeadedSections } from './page-scores.js';
import { parsePage } from './parse-page.js';
import { RelevanceMeter } from './relevance.js';
import {
  SearchStatements,
  type ColumnWeights,
  type RankedSection,
  type StatementFilter,
} from './search-statements.js';
import { createSiteMetadata, type SiteMetadata } from './site-metadata.js';
import type { DocsSiteFiles } from './site-files.js';
import type { SectionVectors } from './section-vectors.js';
import { isSnippetPath, mergeSnippets } from './snippet-imports.js';
import type { DocsFile, PageMetadata, SearchFilter, SearchHit } from './types.js';
import { gitignoreMatcher } from './site/gitignore.js';
import { isDocsPagePath, normalizeUrlPath, relativeToDocsRoot } from './url-path.js';

/**
 * Column weights: the best of a grid search (`bench/retrieval-quality.ts --tune`, odd-indexed half
 * of the mintlify description queries) among those where a title match outweighs a heading match,
 * which outweighs the body (12/1/1/4 scored MRR 0.892 against 0.882, but ties headings with body).
 */
export const DEFAULT_WEIGHTS: ColumnWeights = { title: 12, headings: 2, body: 1, summary: 2, terms: 1 };

/**
 * Score factor of pages the navigation does not list (when it lists any): Mintlify keeps such
 * hidden pages out of its own search; we keep them findable but behind the pages readers browse.
 * 0.9 was the best of 1, 0.9, 0.8, 0.7, 0.5 on the tuning half.
 */
const OFF_NAVIGATION_FACTOR = 0.9;

/** How much of a section's bm25 score stands without its relevance: score x (floor + relevance). */
const RELEVANCE_RANK_FLOOR = 1;

/**
 * How much a page whose title holds the question counts above one whose text does: score x
 * (1 + weight x the share of the question in the title). Readers name what a page is about.
 */
const TITLE_RANK_WEIGHT = 1;

/**
 * The same for the page's summary (its description, keywords, sidebar title and navigation
 * groups): the site's own words for what the page is about. Tuned on the reader questions of
 * two sites (0.3-1 all helped; 0.8 was best on both).
 */
const SUMMARY_RANK_WEIGHT = 0.8;

/**
 * Score x (1 + weight x the share of the page's name the question says, see PageNames). Tuned
 * with the summary weight: 0.4-0.8 helped on both sites.
 */
const NAME_RANK_WEIGHT = 0.6;

/**
 * Within a page, a section counts (1 + weight x the share of the question its own heading chain
 * names) against the page's other sections (see `preferHeadedSections`): a heading counts as a
 * page's title counts between pages.
 */
const HEADING_RANK_WEIGHT = 1;

/** A page's second best section adds this share of its score to the page (see page-scores.ts). */
const SECOND_SECTION_WEIGHT = 0.5;

/** The usual constant of reciprocal rank fusion: a rank r counts 1 / (60 + r). */
const RRF_K = 60;

/** Score factor of the pages the thread's previous answer cited, for a follow-up question. */
const CITED_PAGE_FACTOR = 1.5;

export interface DocsIndexOptions {
  /** Folder of the docs inside the repository (`docs`); files outside it are ignored. Default: the root. */
  docsRoot?: string;
  /** Parsed `docs.json` / `mint.json`: languages, versions and navigation groups of pages. */
  navigation?: unknown;
  /** Language of pages nothing else assigns one to; default: the navigation's default, else `en`. */
  defaultLanguage?: string;
  /** Which files (relative to the docs root) are pages; default: `isDocsPagePath`. */
  isPage?: (relativePath: string) => boolean;
  /** Index frontmatter descriptions; turned off only to evaluate with descriptions as queries. */
  indexDescriptions?: boolean;
  /** The URL path of each page file (relative to the docs root), as its framework serves it. */
  urls?: ReadonlyMap<string, string>;
  /** The address citations link to, by URL path, where the site spells it otherwise (`/setup/`). */
  hrefs?: ReadonlyMap<string, string>;
  /** The navigation's page entries in order (URL paths), for a site whose navigation is not Mintlify's. */
  navigationEntries?: readonly { page: string; groups: string[] }[];
  /** The language of translated pages, by URL path. */
  pageLanguages?: ReadonlyMap<string, string>;
  /** Text of the site's `.mintignore` (gitignore syntax): matching files are not published, so not indexed. */
  mintignore?: string;
  weights?: Partial<ColumnWeights>;
}

export interface SearchOptions {
  /** Number of sections returned, 1-50; default 5 (the spec's `retrievalPageSize`). */
  limit?: number;
  /**
   * Restricts the pages searched. Without a `language`, the language of the `currentPath` page is
   * used, else the index's default language: a reader gets answers in the language they read, and
   * one question never mixes four translations of the same page.
   */
  filter?: SearchFilter | null;
  /** The page the reader is on (URL, path or file path): it and its neighbours rank higher. */
  currentPath?: string;
  /**
   * At most this many sections of one page (default 1), so that one long page cannot fill the list
   * and a reader is shown as many pages as asked for.
   */
  maxPerPage?: number;
  /** Pages (URL paths) the conversation already cited: a follow-up is most likely about them. */
  citedPaths?: readonly string[];
  /** Only these pages (URL paths) are searched; paths the index lacks are ignored. */
  withinPaths?: readonly string[];
  /**
   * The question's embedding, when an embedding model is configured and vectors are attached:
   * sections near it in meaning are fused with the full-text ranking by reciprocal rank.
   */
  queryVector?: readonly number[];
  /**
   * Whether each hit's snippet is cut around the query's words (default) or is the section's
   * opening. Cutting it runs the full-text match again for every hit: a caller that reads whole
   * sections (the assistant) skips it.
   */
  snippets?: boolean;
}

/** A page of the index, as `page()` returns it. */
export interface IndexedPageInfo extends PageMetadata {
  urlPath: string;
  /** The address a citation links to, as the site spells it (`urlPath`, or with its `/` or `.html`). */
  href: string;
  title: string;
}

export interface DocsIndexStats {
  pages: number;
  sections: number;
  /** Pages per language. */
  languages: Record<string, number>;
  /** Size of the SQLite database (tables and full-text index), which lives outside the JS heap. */
  databaseBytes: number;
  buildMs: number;
}

/**
 * A full-text index of one project's docs: an in-memory SQLite FTS5 database (porter stemmer,
 * bm25 with column weights) over the sections of every page. Build it once per docs revision,
 * search it many times, `close()` it when replaced.
 */
export class DocsIndex {
  private constructor(
    private readonly database: Database.Database,
    private readonly statements: SearchStatements,
    private readonly pages: Map<number, IndexedPageInfo>,
    private readonly names: PageNames,
    private readonly neighbourhoods: PageNeighbourhoods,
    private readonly site: SiteMetadata,
    private readonly families: Map<number, number>,
    private readonly summary: DocsIndexStats,
  ) {
    this.hasNavigation = [...pages.values()].some((page) => page.groups.length > 0);
    this.relevance = new RelevanceMeter(statements);
    this.siteNameTerms = new Set(queryTerms(site.name ?? ''));
  }

  private readonly hasNavigation: boolean;
  private readonly relevance: RelevanceMeter;
  private vectors: SectionVectors | undefined;
  /** Words of the product's name: a question made of nothing else asks what the product is. */
  private readonly siteNameTerms: Set<string>;

  /** The index of a site read with `readDocsSite`: its pages, snippets, navigation and `.mintignore`. */
  static fromSite(
    site: DocsSiteFiles,
    options: Omit<DocsIndexOptions, 'navigation' | 'mintignore' | 'docsRoot'> = {},
  ): DocsIndex {
    const urls = new Map([...site.pages].map(([file, page]) => [file, page.url]));
    const hrefs = new Map([...site.pages.values()].map((page) => [page.url, page.href]));
    const languages = new Map(
      [...site.pages.values()].flatMap((page) =>
        page.translation ? [[page.url, page.translation] as const] : [],
      ),
    );
    const entries = site.siteNavigation.entries.flatMap((entry) =>
      entry.file === undefined ? [] : [{ page: urls.get(entry.file)!, groups: entry.groups }],
    );
    const mintlify = site.navigation !== undefined;
    return DocsIndex.build(site.files, {
      ...options,
      urls,
      hrefs,
      isPage: (file) => site.pages.has(file),
      pageLanguages: languages,
      ...(mintlify ? { navigation: site.navigation?.resolved } : { navigationEntries: entries }),
      ...(site.mintignore === undefined ? {} : { mintignore: site.mintignore }),
    });
  }

  /**
   * Parses and indexes every page among `files`; two files with the same URL path: the first wins.
   * Snippet files among them are merged into the pages that import them; pages that `.mintignore`
   * excludes or that say `noindex: true`, `searchable: false` or `hidden: true` (unless the site's
   * `seo.indexing` is `"all"`) are left out, as the site's own search and assistant leave them out.
   */
  static build(files: Iterable<DocsFile>, options: DocsIndexOptions = {}): DocsIndex {
    const started = performance.now();
    const site = createSiteMetadata(options.navigation, {
      defaultLanguage: options.defaultLanguage,
      entries: options.navigationEntries,
      pageLanguages: options.pageLanguages,
    });
    const neighbourhoods = new PageNeighbourhoods(site);
    const isPage = options.isPage ?? isDocsPagePath;
    const ignored = gitignoreMatcher(options.mintignore ?? '');
    const sources: DocsFile[] = [];
    const snippets = new Map<string, string>();
    for (const file of files) {
      const relative = relativeToDocsRoot(file.path, options.docsRoot);
      if (relative === null || ignored(relative)) continue;
      if (isSnippetPath(relative)) snippets.set(relative, file.content);
      else if (isPage(relative)) sources.push({ path: relative, content: file.content });
    }
    const indexed: IndexedPage[] = [];
    const pages = new Map<number, IndexedPageInfo>();
    const names = new PageNames();
    for (const source of sources) {
      const page = parsePage({
        path: source.path,
        content: mergeSnippets(source.content, source.path, snippets),
      });
      page.urlPath = options.urls?.get(source.path) ?? page.urlPath;
      const unsearched = page.noindex || (page.hidden && !site.indexesHiddenPages);
      if (unsearched || neighbourhoods.pageId(page.urlPath) !== undefined) continue;
      const id = indexed.length + 1;
      const metadata = site.pageMetadata(page.urlPath);
      indexed.push({ id, page, metadata, siteWords: metadata.groups });
      pages.set(id, {
        urlPath: page.urlPath,
        href: options.hrefs?.get(page.urlPath) ?? page.urlPath,
        title: page.title,
        ...metadata,
      });
      names.add(id, [page.title, page.sidebarTitle]);
      neighbourhoods.add(page.urlPath, id);
    }
    const families = nearDuplicateFamilies(
      indexed.map(({ id, page }) => ({
        id,
        urlPath: page.urlPath,
        text: page.sections.map((section) => section.body).join('\n'),
      })),
    );
    const database = openIndexDatabase();
    const { sections, tables } = insertPages(database, indexed, {
      indexDescriptions: options.indexDescriptions ?? true,
    });
    const statements = new SearchStatements(database, tables, { ...DEFAULT_WEIGHTS, ...options.weights });
    const languages: Record<string, number> = {};
    for (const page of pages.values()) languages[page.language] = (languages[page.language] ?? 0) + 1;
    const databaseBytes =
      Number(database.pragma('page_count', { simple: true })) *
      Number(database.pragma('page_size', { simple: true }));
    const buildMs = performance.now() - started;
    return new DocsIndex(database, statements, pages, names, neighbourhoods, site, families, {
      pages: pages.size,
      sections,
      languages,
      databaseBytes,
      buildMs,
    });
  }

  /**
   * The sections that best answer `query`, best first, each with its `relevance`. Never throws on
   * the query text: words are extracted and quoted (see fts-query.ts). A query with no searchable
   * words returns the first sections of the `currentPath` page, or nothing.
   */
  search(query: string, options: SearchOptions = {}): SearchHit[] {
    // Closed once a newer build of the site replaced it: asking again reaches the new one.
    if (!this.database.open) throw new DocwrightError('unavailable', 'The docs index is closed.');
    const requested = Math.floor(options.limit ?? 5);
    const limit = Number.isFinite(requested) ? Math.min(50, Math.max(1, requested)) : 5;
    const { currentPath, currentId } = this.currentPage(options.currentPath);
    const concepts = queryConcepts(query);
    const match = matchExpression(concepts);
    if (match === null) {
      return currentId === undefined
        ? []
        : this.statements
            .pageSections(currentId, limit)
            .flatMap((row) => this.toHit(row, null, { relevance: 0, about: 0 }));
    }
    const filter = this.statementFilter(options.filter ?? undefined, currentId);
    if (options.withinPaths) filter.pageIds = this.pageIds(options.withinPaths);
    const boosts = this.boosts(currentPath, options.citedPaths);
    const maxPerPage = Math.max(1, options.maxPerPage ?? 1);
    const rows = this.statements.rank(match, filter, limit * 6 + 20);
    const seen = new Set(rows.map((row) => row.id));
    const extra = (candidates: RankedSection[]) =>
      rows.push(...candidates.filter((row) => !seen.has(row.id)));
    // Boosted pages may rank below the general candidates; fetch their best sections too (those
    // the search may return: a search within some pages stays within them).
    const boosted = [...boosts.keys()].filter((id) => this.allows(id, filter));
    if (boosted.length > 0) extra(this.statements.rank(match, { ...filter, pageIds: boosted }, limit));
    const headed = this.relevance.headingShares(
      concepts,
      rows.map((row) => row.id),
      filter.language,
    );
    for (const row of rows) row.score *= (boosts.get(row.pageId) ?? 1) * this.pageFactor(row.pageId);
    preferHeadedSections(rows, headed, HEADING_RANK_WEIGHT);
    const landing = this.landingPageFor(concepts, filter);
    if (landing !== undefined) this.putFirst(landing, rows, seen);
    rows.sort((left, right) => right.score - left.score);
    const candidates = capPerPage(rows, maxPerPage, limit * 4);
    addSecondSections(rows, candidates, SECOND_SECTION_WEIGHT);
    const relevance = this.rerank(candidates, concepts, filter.language);
    const ranked = options.queryVector
      ? this.fuseWithVectors(candidates, options.queryVector, filter, limit)
      : candidates;
    const lexical = new Set(candidates.map((row) => row.id));
    const missing = ranked.map((row) => row.pageId).filter((id) => !relevance.has(id));
    for (const [id, value] of this.relevance.measure(concepts, missing, filter.language))
      relevance.set(id, value);
    const shown = foldFamilies(capPerPage(ranked, maxPerPage, ranked.length), this.families, limit);
    const pageIds = [...new Set(shown.map((row) => row.pageId))];
    const about = this.relevance.measure(concepts, pageIds, filter.language, 'about');
    const fused = ranked !== candidates;
    return shown.flatMap((row) =>
      this.toHit(row, options.snippets !== false && lexical.has(row.id) ? match : null, {
        relevance: relevance.get(row.pageId) ?? 0,
        about: about.get(row.pageId) ?? 0,
        ...(fused ? {} : { lexicalScore: row.score / (boosts.get(row.pageId) ?? 1) }),
      }),
    );
  }

  /**
   * Scales each candidate by how much of the question its page holds, and by how much of it the
   * page's title, summary and name say; sorts them; returns the pages' relevance. bm25 adds up
   * words: a page with all of the question's words, a little less bm25, answers better than one
   * repeating a few, and a page whose own name or description is the question is about it.
   */
  private rerank(
    candidates: RankedSection[],
    concepts: QueryConcept[],
    language: string,
  ): Map<number, number> {
    const pageIds = [...new Set(candidates.map((row) => row.pageId))];
    const relevance = this.relevance.measure(concepts, pageIds, language);
    const titles = this.relevance.measure(concepts, pageIds, language, 'title');
    const summaries = this.relevance.measure(concepts, pageIds, language, 'summary');
    const asked = PageNames.asked(concepts);
    for (const row of candidates)
      row.score *=
        (RELEVANCE_RANK_FLOOR + (relevance.get(row.pageId) ?? 0)) *
        (1 + TITLE_RANK_WEIGHT * (titles.get(row.pageId) ?? 0)) *
        (1 + SUMMARY_RANK_WEIGHT * (summaries.get(row.pageId) ?? 0)) *
        (1 + NAME_RANK_WEIGHT * this.names.coverage(row.pageId, asked));
    candidates.sort((left, right) => right.score - left.score);
    return relevance;
  }

  /**
   * Whether one of the pages at `urlPaths` holds two neighbouring words of `query` side by side
   * (see `neighbourExpressions`). A question about the docs is made of their phrases ("custom
   * domain", "knowledge base"); an off-topic question that shares words with them ("reverse a
   * linked list", "record my screen on a Mac") finds each word somewhere, rarely two side by side.
   * A question of one word has no pair to judge by and holds its phrase.
   */
  holdsPhrase(query: string, urlPaths: readonly string[], language = this.site.defaultLanguage): boolean {
    const expressions = neighbourExpressions(query);
    if (expressions.length === 0) return true;
    const pageIds = new Set(this.pageIds(urlPaths));
    return expressions.some((expression) => this.statements.matchesIn(expression, language, pageIds));
  }

  /** Whether every word of `query` is the product's name ("What is Mintlify?"). */
  namesProduct(query: string): boolean {
    return this.namesSite(queryConcepts(query));
  }

  /**
   * The share (0-1) of the searchable words of `query` that no page holds, nor any word the
   * synonym table gives for them, in the language a search with `options` would search.
   */
  unknownWordShare(query: string, options: Pick<SearchOptions, 'filter' | 'currentPath'> = {}): number {
    const { currentId } = this.currentPage(options.currentPath);
    const { language } = this.statementFilter(options.filter ?? undefined, currentId);
    return this.relevance.unheldShare(queryConcepts(query), language);
  }

  /**
   * The searchable words of `query` that no page holds (nor a synonym of them), in the default
   * language: what a question asks about that the docs never name.
   */
  unknownWords(query: string): string[] {
    return this.relevance
      .unheld(queryConcepts(query), this.site.defaultLanguage)
      .map((concept) => concept.term);
  }

  /** Every section's id and text (page title, headings, body), to embed them. */
  sectionTexts(): { id: number; text: string }[] {
    return this.statements.sectionTexts().map(({ id, text }) => ({ id, text }));
  }

  /** Attaches the sections' embedding vectors (or detaches them with undefined). */
  attachVectors(vectors: SectionVectors | undefined): void {
    this.vectors = vectors;
  }

  /** Whether vectors are attached, so that a query vector is worth computing. */
  get hasVectors(): boolean {
    return this.vectors !== undefined;
  }

  /** The full-text ranking fused with the nearest sections by meaning: reciprocal rank fusion. */
  private fuseWithVectors(
    lexical: RankedSection[],
    queryVector: readonly number[],
    filter: StatementFilter,
    limit: number,
  ): RankedSection[] {
    if (!this.vectors) return lexical;
    const nearest = this.vectors.nearest(queryVector, limit * 4, (id) =>
      this.allows(this.relevance.pageOf(id), filter),
    );
    const fused = new Map<number, RankedSection>();
    const add = (id: number, pageId: number, rank: number) => {
      const row = fused.get(id) ?? { id, pageId, score: 0 };
      row.score += 1 / (RRF_K + rank + 1);
      fused.set(id, row);
    };
    lexical.forEach((row, rank) => add(row.id, row.pageId, rank));
    nearest.forEach((id, rank) => add(id, this.relevance.pageOf(id), rank));
    return [...fused.values()].sort((left, right) => right.score - left.score);
  }

  /** Whether a page passes a search filter (the same rules as the SQL of the ranking). */
  private allows(pageId: number, filter: StatementFilter): boolean {
    const page = this.pages.get(pageId);
    if (!page) return false;
    if (filter.pageIds !== undefined && !filter.pageIds.includes(pageId)) return false;
    if (page.language !== filter.language) return false;
    if (filter.version !== undefined && page.version !== undefined && page.version !== filter.version)
      return false;
    return filter.groups === undefined || page.groups.some((group) => filter.groups!.includes(group));
  }

  /** The indexed page at a URL path (or reader path), if any. */
  page(path: string): IndexedPageInfo | undefined {
    const id = this.neighbourhoods.pageId(normalizeUrlPath(path));
    const page = id === undefined ? undefined : this.pages.get(id);
    return page && { ...page, groups: [...page.groups] };
  }

  /**
   * The section of the page at `urlPath` headed by exactly `headings` (its heading chain, outermost
   * first), if the page has one: the parent of a subsection is the chain without its last heading.
   * Its relevance and about are 0: the caller has the page's.
   */
  section(urlPath: string, headings: readonly string[]): SearchHit | undefined {
    const [pageId] = this.pageIds([urlPath]);
    const row =
      pageId === undefined ? undefined : this.statements.sectionUnder(pageId, JSON.stringify(headings));
    return row && this.toHit(row, null, { relevance: 0, about: 0 })[0];
  }

  /** Sizes and build time of the index. */
  get stats(): DocsIndexStats {
    return { ...this.summary, languages: { ...this.summary.languages } };
  }

  /** Frees the database; searching afterwards throws. */
  close(): void {
    if (this.database.open) this.database.close();
  }

  private pageIds(paths: readonly string[]): number[] {
    return paths.flatMap((path) => this.neighbourhoods.pageId(normalizeUrlPath(path)) ?? []);
  }

  /** Score factors of the current page's neighbourhood and of the pages the conversation cited. */
  private boosts(
    currentPath: string | undefined,
    citedPaths: readonly string[] | undefined,
  ): Map<number, number> {
    const boosts =
      currentPath === undefined ? new Map<number, number>() : this.neighbourhoods.boosts(currentPath);
    for (const path of citedPaths ?? []) {
      const id = this.neighbourhoods.pageId(normalizeUrlPath(path));
      if (id !== undefined) boosts.set(id, Math.max(boosts.get(id) ?? 1, CITED_PAGE_FACTOR));
    }
    return boosts;
  }

  /** "What is <product>?": the site's own front page answers it, whatever else names the product. */
  private putFirst(pageId: number, rows: RankedSection[], seen: Set<number>): void {
    const first = this.statements.pageSections(pageId, 1)[0];
    if (!first) return;
    if (!seen.has(first.id)) rows.push(first);
    const top = Math.max(0, ...rows.map((row) => row.score));
    for (const row of rows) if (row.pageId === pageId) row.score = top * 2 + 1;
  }

  /** The landing page of the filter's language when every word of the question is the product's name. */
  private landingPageFor(concepts: readonly QueryConcept[], filter: StatementFilter): number | undefined {
    if (!this.namesSite(concepts)) return undefined;
    const path = this.site.landingPage(filter.language);
    const id = path === undefined ? this.neighbourhoods.pageId('/') : this.neighbourhoods.pageId(path);
    // The front page answers only where the search may go: a filter or a search within some
    // pages that leaves it out keeps it out.
    return id !== undefined && this.allows(id, filter) ? id : undefined;
  }

  private namesSite(concepts: readonly QueryConcept[]): boolean {
    return (
      this.siteNameTerms.size > 0 &&
      concepts.length > 0 &&
      concepts.every((concept) => this.siteNameTerms.has(concept.term))
    );
  }

  private pageFactor(pageId: number): number {
    return this.hasNavigation && this.pages.get(pageId)!.groups.length === 0 ? OFF_NAVIGATION_FACTOR : 1;
  }

  /** The indexed page a reader's `currentPath` (a path or a full URL) names, if any. */
  private currentPage(path: string | undefined): { currentPath?: string; currentId?: number } {
    const currentPath = path ? this.neighbourhoods.resolve(normalizeUrlPath(path)) : undefined;
    return {
      currentPath,
      currentId: currentPath === undefined ? undefined : this.neighbourhoods.pageId(currentPath),
    };
  }

  private statementFilter(filter: SearchFilter | undefined, currentId: number | undefined): StatementFilter {
    const currentLanguage = currentId === undefined ? undefined : this.pages.get(currentId)?.language;
    const groups = filter?.groups && filter.groups.length > 0 ? filter.groups : undefined;
    return {
      language: filter?.language ?? currentLanguage ?? this.site.defaultLanguage,
      version: filter?.version,
      groups,
    };
  }

  /** The hit of a ranked section; empty only if the section vanished, which a built index never does. */
  private toHit(
    row: RankedSection,
    match: string | null,
    shares: Pick<SearchHit, 'relevance' | 'about' | 'lexicalScore'>,
  ): SearchHit[] {
    const page = this.pages.get(row.pageId)!;
    const text = this.statements.text(row.id, match, page.language);
    if (!text) return [];
    const hit: SearchHit = {
      urlPath: page.urlPath,
      anchor: text.anchor,
      url: text.anchor ? `${page.href}#${text.anchor}` : page.href,
      pageTitle: page.title,
      heading: text.heading,
      headings: JSON.parse(text.headingChain) as string[],
      snippet: text.snippet,
      body: text.body,
      language: page.language,
      version: page.version,
      groups: [...page.groups],
      score: row.score,
      ...shares,
    };
    return [hit];
  }
}
