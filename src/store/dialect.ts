import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/** The two databases the store runs on. */
export type DialectName = 'sqlite' | 'postgres';

/** Which dialect a Kysely handle (or a migration's `db`) speaks. */
export function dialectOf<DB>(db: Kysely<DB>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * The column builder of an integer primary key the database numbers itself, for every migration:
 * `integer primary key autoincrement` on SQLite (ids never reused), an identity column on
 * PostgreSQL, which has no `autoincrement` keyword. Use as
 * `.addColumn('id', 'integer', autoIncrementKey(db))`.
 */
export function autoIncrementKey(
  db: Kysely<unknown>,
): (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder {
  return dialectOf(db) === 'postgres'
    ? (column) => column.generatedByDefaultAsIdentity().primaryKey()
    : (column) => column.primaryKey().autoIncrement();
}

/**
 * The column type of raw bytes, for every migration: `blob` on SQLite, `bytea` on PostgreSQL (which
 * has no `blob`). Both come back to Node as a Buffer.
 */
export function binaryType(db: Kysely<unknown>): 'blob' | 'bytea' {
  return dialectOf(db) === 'postgres' ? 'bytea' : 'blob';
}
