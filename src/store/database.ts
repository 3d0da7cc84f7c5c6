import path from 'node:path';
import { SQLite, type SqliteDatabase } from '../core/sqlite.js';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { DocwrightError } from '../core/errors.js';
import { ensurePrivateFile, ensurePrivateFolder } from '../core/private-files.js';
import { faultNaming } from './fault-naming-dialect.js';
import { migrationProvider } from './migrations.js';
import { StorageHealth } from './storage-faults.js';
import { withStatementCache, type CachedStatementsDatabase } from './statement-cache.js';
import { SqliteReadBatch } from './read-batch.js';
import { SqliteWriteBatch } from './write-batch.js';
import type { Database } from './schema.js';

/** An open database: the Kysely handle, and the raw client the rate limiter shares. */
export type OpenDatabase = OpenSqliteDatabase | OpenPostgresDatabase;

interface OpenDatabaseBase {
  db: Kysely<Database>;
  /** Whether the storage works, told by every query (and by the raw statements of the batches). */
  health: StorageHealth;
  close(): Promise<void>;
}

export interface OpenSqliteDatabase extends OpenDatabaseBase {
  dialect: 'sqlite';
  sqlite: SqliteDatabase;
  /** The same database with its prepared statements kept: what Kysely and the rate limiter query through. */
  statements: CachedStatementsDatabase;
  /** Hot writes of concurrent requests, committed together. */
  writes: SqliteWriteBatch;
  /** Hot reads of concurrent requests, run in one read transaction. */
  reads: SqliteReadBatch;
}

export interface OpenPostgresDatabase extends OpenDatabaseBase {
  dialect: 'postgres';
  /** The pool Kysely queries through; closed by `close()`. */
  pool: pg.Pool;
  /** How to open a connection of its own (LISTEN needs one that stays out of the pool). */
  connectionString: string;
}

/** Where the store lives: PostgreSQL when `databaseUrl` is set, else SQLite in `dataDir` (or memory). */
export type DatabaseLocation = { dataDir: string; databaseUrl?: string | undefined } | { memory: true };

/** The table rate-limiter-flexible keeps its counters in, on either dialect. */
export const RATE_LIMIT_TABLE = 'rate_limits';

/** Opens the configured database (DATABASE_URL moves the store to PostgreSQL) and migrates it. */
export function openDatabase(
  location: DatabaseLocation,
  health: StorageHealth = new StorageHealth(undefined),
): Promise<OpenDatabase> {
  if ('memory' in location) return openSqliteDatabase(':memory:', health);
  if (location.databaseUrl) return openPostgresDatabase(location.databaseUrl, { health });
  return openSqliteDatabase(path.join(location.dataDir, 'docwright.db'), health);
}

/**
 * Opens (creating when needed) the SQLite file and brings its schema up to date. WAL lets readers
 * run beside the single writer; busy_timeout makes a second process wait instead of failing.
 */
export async function openSqliteDatabase(
  file: string,
  health: StorageHealth = new StorageHealth(undefined),
): Promise<OpenSqliteDatabase> {
  if (file !== ':memory:') {
    ensurePrivateFolder(path.dirname(file));
    ensurePrivateFile(file, [`${file}-wal`, `${file}-shm`]);
  }
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  const reads = new SqliteReadBatch(sqlite);
  // Reads asked before a Kysely transaction begins run before it: one awaited inside that
  // transaction would otherwise wait for the connection the transaction holds.
  const statements = withStatementCache(sqlite, { beforeBegin: reads.flush });
  const db = new Kysely<Database>({
    dialect: faultNaming(new SqliteDialect({ database: statements }), health),
  });
  await migrate(db);
  // rate-limiter-flexible's own table, made before any request can count in it (as on PostgreSQL).
  sqlite.exec(`create table if not exists ${RATE_LIMIT_TABLE} (
    key text primary key,
    points integer not null default 0,
    expire integer
  )`);
  const writes = new SqliteWriteBatch(sqlite, statements, health);
  const close = () => {
    writes.flush();
    reads.flush();
    return db.destroy();
  };
  return { db, dialect: 'sqlite', sqlite, statements, writes, reads, health, close };
}

/**
 * Connects a pool to PostgreSQL and brings the schema up to date. Several replicas may start at
 * once: Kysely's migrator serialises them with an advisory lock, and so does the rate-limit table.
 */
async function openPostgresDatabase(
  connectionString: string,
  options: { maxConnections?: number; health?: StorageHealth } = {},
): Promise<OpenPostgresDatabase> {
  const health = options.health ?? new StorageHealth(undefined);
  const pool = new pg.Pool({
    connectionString,
    max: options.maxConnections ?? 10,
    // An unreachable server fails the start (or a request) in words instead of hanging on TCP.
    connectionTimeoutMillis: 10_000,
    types: typeParsers(),
  });
  // A connection that dies (a server restart, a failover) must never end the process. The pool
  // listens on its idle connections only and stops listening while one is checked out, so every
  // connection gets a listener of its own for its whole life; the query it was running fails
  // (named a storage fault), and the pool drops the broken connection and opens a new one.
  const lost = (error: unknown) => void health.failed(error);
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  const db = new Kysely<Database>({ dialect: faultNaming(new PostgresDialect({ pool }), health) });
  try {
    await pool.query('select 1').catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      throw new DocwrightError(
        'unavailable',
        `Cannot connect to PostgreSQL at ${describeServer(connectionString)}: ${reason}`,
        { cause: error },
      );
    });
    await migrate(db);
    await createRateLimitTable(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, dialect: 'postgres', pool, connectionString, health, close: () => db.destroy() };
}

/** host:port/database of a connection string, without the credentials it may hold. */
function describeServer(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.host}${url.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/**
 * int8 (bigint columns, `count(*)`) comes back as a number, as SQLite returns it: the store's
 * bigints are GitHub ids and counts, far below 2^53. Set per pool, not on pg's global parsers.
 */
function typeParsers(): pg.TypeOverrides {
  const overrides = new pg.TypeOverrides();
  overrides.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
  return overrides;
}

/**
 * rate-limiter-flexible's table (its own schema), made here once under a lock rather than by each
 * limiter at start, where concurrent `create table if not exists` from several replicas can fail.
 */
async function createRateLimitTable(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${RATE_LIMIT_TABLE}))`.execute(trx);
    await sql`create table if not exists ${sql.table(RATE_LIMIT_TABLE)} (
      key varchar(255) primary key,
      points integer not null default 0,
      expire bigint
    )`.execute(trx);
  });
}

async function migrate(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const reason =
      error instanceof Error ? error.message : `migration ${failed?.migrationName ?? 'unknown'} failed`;
    throw new DocwrightError('internal_error', `Database migration failed: ${reason}`, {
      retryable: false,
      cause: error,
    });
  }
}
