/**
 * Node's own SQLite behind better-sqlite3's interface, as the docs index uses it where
 * better-sqlite3 is not there (the Action's bundle on node24): each statement the index runs gives
 * the same rows on both drivers.
 */
import { describe, expect, it } from 'vitest';
import { openNodeSqlite } from '../src/core/node-sqlite.js';
import { SQLite, type SqliteDatabase } from '../src/core/sqlite.js';

const hasNodeSqlite = openNodeSqlite(':memory:') !== undefined;

function bothDrivers(): [string, SqliteDatabase][] {
  return [
    ['better-sqlite3', new SQLite(':memory:')],
    ['node:sqlite', openNodeSqlite(':memory:') as unknown as SqliteDatabase],
  ];
}

const PAGES = [
  'Running the server behind a proxy',
  'Rate limits: requests are limited per key',
  'Install the CLI and run it',
  'Keys are rotated every ninety days',
];

function fill(database: SqliteDatabase): number {
  database.exec(`CREATE TABLE pages (id INTEGER PRIMARY KEY, body TEXT);
    CREATE VIRTUAL TABLE pages_fts USING fts5(body, content='pages', content_rowid='id', tokenize='porter unicode61');`);
  const insert = database.prepare('INSERT INTO pages (id, body) VALUES (?, ?)');
  database.transaction(() => PAGES.forEach((body, id) => insert.run(id + 1, body)))();
  return database.prepare('INSERT INTO pages_fts (rowid, body) SELECT id, body FROM pages').run().changes;
}

describe.skipIf(!hasNodeSqlite)('node:sqlite as the docs index opens it', () => {
  it('answers the index statements as better-sqlite3 does: FTS5 with the porter stemmer, bm25, named values, raw rows', () => {
    const answers = bothDrivers().map(([, database]) => {
      const inserted = fill(database);
      const ranked = database
        .prepare(
          'SELECT rowid AS id, bm25(pages_fts) AS score FROM pages_fts WHERE pages_fts MATCH @match ORDER BY score LIMIT @limit',
        )
        .all({ match: 'run OR key', limit: 10 });
      const raw = database.prepare('SELECT id, body FROM pages WHERE id > ? ORDER BY id').raw().all(2);
      const iterated = [
        ...(database
          .prepare('SELECT rowid FROM pages_fts WHERE pages_fts MATCH @match')
          .raw()
          .iterate({ match: 'limit' }) as Iterable<unknown[]>),
      ];
      const one = database.prepare('SELECT body FROM pages WHERE id = @id').get({ id: 3 });
      const missing = database.prepare('SELECT body FROM pages WHERE id = @id').get({ id: 99 });
      const pageSize = Number(database.pragma('page_size', { simple: true }));
      database.close();
      return {
        inserted,
        ranked: ranked.map((row) => ({ ...(row as object) })),
        raw,
        iterated,
        one: { ...(one as object) },
        missing,
        pageSize,
        open: database.open,
      };
    });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]!.inserted).toBe(4);
    // "run" finds "Running" and "run" through the stemmer; "key" finds "key" and "Keys".
    expect(answers[0]!.ranked.map((row) => (row as { id: number }).id).sort()).toEqual([1, 2, 3, 4]);
    expect(answers[0]!.open).toBe(false);
  });

  it('rolls a transaction back when its body throws, and passes the error on', () => {
    for (const [driver, database] of bothDrivers()) {
      database.exec('CREATE TABLE t (n INTEGER)');
      const insert = database.prepare('INSERT INTO t (n) VALUES (?)');
      const failing = database.transaction((count: number) => {
        for (let n = 0; n < count; n += 1) insert.run(n);
        throw new Error('stop');
      });
      expect(() => failing(3), driver).toThrow('stop');
      expect(database.prepare('SELECT count(*) AS n FROM t').get(), driver).toEqual(
        expect.objectContaining({ n: 0 }),
      );
      database.close();
    }
  });
});

describe.skipIf(hasNodeSqlite)('without node:sqlite', () => {
  it('is not offered (Node 20), so the index says SQLite is missing', () => {
    expect(openNodeSqlite(':memory:')).toBeUndefined();
  });
});
