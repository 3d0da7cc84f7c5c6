import { openMemoryDatabase, type SqliteDatabase } from '../core/sqlite.js';
import { identifierPartsText, searchableText, TOKENIZER } from './search-text.js';
import type { DocsPage, DocsSection, PageMetadata } from './types.js';

/**
 * The in-memory SQLite database behind one DocsIndex. Sections live in a plain table that is also
 * the external content of the FTS5 table, so `snippet()` works without storing the text twice.
 * Columns searched, in `bm25()` weight order: the page title, the section's heading chain, the
 * body, a page summary repeated on every section (the site's own words for the page: frontmatter
 * description, keywords and sidebar title, and the navigation groups it is listed under), and the
 * parts of the section's underscore identifiers. Searched columns hold text as `searchableText`
 * spells it; `display` keeps the body as written when that differs (CJK pages).
 */
const SCHEMA = `
  CREATE TABLE pages (
    id INTEGER PRIMARY KEY,
    url_path TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    language TEXT NOT NULL,
    version TEXT
  );
  CREATE TABLE page_groups (
    page_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (page_id, name)
  ) WITHOUT ROWID;
  CREATE TABLE sections (
    id INTEGER PRIMARY KEY,
    page_id INTEGER NOT NULL,
    position INTEGER NOT NULL,
    anchor TEXT NOT NULL,
    heading TEXT NOT NULL,
    heading_chain TEXT NOT NULL,
    title TEXT NOT NULL,
    headings TEXT NOT NULL,
    body TEXT NOT NULL,
    summary TEXT NOT NULL,
    terms TEXT NOT NULL,
    display TEXT
  );
  CREATE INDEX sections_by_page ON sections (page_id, position);
`;

/**
 * One full-text table per language: a question is asked in one language, and searching only that
 * language's sections keeps the work (and bm25's word statistics) to the pages it can return.
 * The tables share `sections` as their external content, so text is stored once.
 */
function createFtsTable(database: SqliteDatabase, name: string): void {
  database.exec(`CREATE VIRTUAL TABLE ${name} USING fts5(
    title, headings, body, summary, terms,
    content = 'sections', content_rowid = 'id',
    tokenize = "${TOKENIZER}"
  )`);
}

/** The full-text tables of an index: language -> table name, and the sections each holds. */
export interface FtsTables {
  byLanguage: Map<string, string>;
  sections: Map<string, number>;
}

/** A page ready to insert: parsed text plus where it sits on the site. */
export interface IndexedPage {
  /** Row id of the page, unique in the index. */
  id: number;
  page: DocsPage;
  metadata: PageMetadata;
  /** The site's words for the page beyond its text (navigation groups); searched as its summary. */
  siteWords?: string[];
}

export interface InsertOptions {
  /** Put the frontmatter description in the searchable summary (turned off to evaluate retrieval). */
  indexDescriptions: boolean;
}

/** Opens a fresh in-memory database with the index schema. */
export function openIndexDatabase(): SqliteDatabase {
  const database = openMemoryDatabase();
  database.exec(SCHEMA);
  return database;
}

/**
 * Inserts pages (distinct ids and URL paths) in one transaction: a single batch, so thousands of
 * rows take milliseconds. Returns the number of sections written.
 */
export function insertPages(
  database: SqliteDatabase,
  pages: Iterable<IndexedPage>,
  options: InsertOptions,
): { sections: number; tables: FtsTables } {
  const insertPage = database.prepare(
    'INSERT INTO pages (id, url_path, title, language, version) VALUES (?, ?, ?, ?, ?)',
  );
  const insertGroup = database.prepare('INSERT OR IGNORE INTO page_groups (page_id, name) VALUES (?, ?)');
  const insertSection = database.prepare(
    `INSERT INTO sections (page_id, position, anchor, heading, heading_chain, title, headings, body, summary,
       terms, display)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let sections = 0;
  const tables: FtsTables = { byLanguage: new Map(), sections: new Map() };
  const languages = new Map<number, string>();
  database.transaction(() => {
    for (const { id: pageId, page, metadata, siteWords = [] } of pages) {
      insertPage.run(pageId, page.urlPath, page.title, metadata.language, metadata.version ?? null);
      languages.set(pageId, metadata.language);
      for (const group of metadata.groups) insertGroup.run(pageId, group);
      const summary = searchableText(
        [
          options.indexDescriptions ? page.description : undefined,
          page.sidebarTitle,
          ...page.keywords,
          ...siteWords,
        ]
          .filter((text): text is string => text !== undefined)
          .join('\n'),
      );
      const title = searchableText(page.title);
      sectionsOf(page, options).forEach((section, position) => {
        const body = searchableText(section.body);
        insertSection.run(
          pageId,
          position,
          section.anchor,
          section.heading,
          JSON.stringify(section.headings),
          title,
          searchableText(section.headings.join('\n')),
          body,
          summary,
          identifierPartsText(`${page.title}\n${section.headings.join('\n')}\n${section.body}`),
          body === section.body ? null : section.body,
        );
        sections += 1;
      });
    }
    // External-content FTS: each language's table indexes its rows of `sections` in one statement.
    for (const language of new Set(languages.values())) {
      const name = `sections_fts_${tables.byLanguage.size}`;
      createFtsTable(database, name);
      const inserted = database
        .prepare(
          `INSERT INTO ${name} (rowid, title, headings, body, summary, terms)
           SELECT s.id, s.title, s.headings, s.body, s.summary, s.terms FROM sections s
           JOIN pages p ON p.id = s.page_id WHERE p.language = ?`,
        )
        .run(language);
      tables.byLanguage.set(language, name);
      tables.sections.set(language, inserted.changes);
    }
  })();
  return { sections, tables };
}

/**
 * A page's sections; a page with none (an API endpoint page whose content the OpenAPI file
 * renders, a page of frontmatter and components only) gets one made of its description, so that
 * its title, summary and description still find it and an answer can quote it.
 */
function sectionsOf(page: DocsPage, options: InsertOptions): DocsSection[] {
  if (page.sections.length > 0) return page.sections;
  const body = options.indexDescriptions ? (page.description ?? '') : '';
  return [{ anchor: '', heading: '', headings: [], level: 0, body }];
}
