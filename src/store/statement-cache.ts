import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import type { SqliteDatabase } from '../core/sqlite.js';

/** How many distinct SQL texts keep a prepared statement; the store issues far fewer. */
const MAX_STATEMENTS = 256;

/** What Kysely's SQLite driver and rate-limiter-flexible call on a better-sqlite3 database. */
export type CachedStatementsDatabase = {
  prepare(sql: string): BetterSqlite3.Statement;
} & KyselySqliteDatabase &
  Pick<SqliteDatabase, 'transaction'>;

/**
 * The database with prepared statements kept per SQL text, for Kysely's SQLite driver and the rate
 * limiter: both prepare their SQL on every query, and preparing costs more than running one of the
 * store's indexed reads. Their queries are a small fixed set, so each is prepared once. A statement
 * still iterating (a streamed query) is busy, so a second user gets a fresh one.
 */
export function withStatementCache(
  sqlite: SqliteDatabase,
  options: {
    maxStatements?: number;
    /** Runs just before a `begin` prepared here (Kysely's transactions) starts a transaction. */
    beforeBegin?: () => void;
  } = {},
): CachedStatementsDatabase {
  const { maxStatements = MAX_STATEMENTS, beforeBegin } = options;
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    transaction: (fn) => sqlite.transaction(fn),
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare: (text: string) => {
      // Kysely prepares its `begin` and runs it at once: what must happen before a transaction
      // starts happens here.
      if (text === 'begin') beforeBegin?.();
      const cached = statements.get(text);
      if (cached && !cached.busy) {
        // Re-inserted so the map's order is least recently used first.
        statements.delete(text);
        statements.set(text, cached);
        return cached;
      }
      const statement = sqlite.prepare(text);
      if (cached) return statement;
      statements.set(text, statement);
      if (statements.size > maxStatements) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}
