import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { migrationProvider } from './migrations.js';
import type { Database } from './schema.js';

/** An open database: the Kysely handle, and the raw SQLite connection for the rate limiter. */
export interface OpenDatabase {
  db: Kysely<Database>;
  dialect: 'sqlite';
  sqlite: SQLite.Database;
  close(): Promise<void>;
}

/**
 * Opens (creating when needed) the SQLite file and brings its schema up to date. WAL lets readers
 * run beside the single writer; busy_timeout makes a second process wait instead of failing.
 */
export async function openSqliteDatabase(file: string): Promise<OpenDatabase> {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(db);
  return { db, dialect: 'sqlite', sqlite, close: () => db.destroy() };
}

async function migrate(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const reason =
      error instanceof Error ? error.message : `migration ${failed?.migrationName ?? 'unknown'} failed`;
    throw new Error(`Database migration failed: ${reason}`);
  }
}
