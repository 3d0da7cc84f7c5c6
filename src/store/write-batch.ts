import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from '../sqlite.js';
import type { CachedStatementsDatabase } from './statement-cache.js';

/** A group's synchronous statements; `prepare` hands out the kept prepared statement of a SQL text. */
export type SqliteWrite<T> = (prepare: (sql: string) => BetterSqlite3.Statement) => T;

/**
 * An insert of one row for a group's writes: its SQL is made once from the column list, and each
 * call passes the row's values in that order.
 */
export function rowInsert<Row>(
  table: string,
  columns: readonly (keyof Row & string)[],
): (prepare: (sql: string) => BetterSqlite3.Statement, row: Row) => void {
  const sql = `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`;
  return (prepare, row) => {
    prepare(sql).run(...columns.map((column) => row[column]));
  };
}

interface PendingWrite {
  write: SqliteWrite<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * A group commit for SQLite: the writes asked for while the event loop works through its ready
 * callbacks run together in one transaction when it is about to wait (`setImmediate`), and each
 * caller's promise settles once that transaction committed, so what a caller was promised is on
 * disk as much as a write of its own would be. A commit writes every page it touched to the WAL;
 * concurrent requests' writes share those pages and that write instead of each paying it.
 *
 * A write that throws (a constraint, a refused rate limit) undoes the group; then every write of
 * it runs again in a transaction of its own, so only the one that failed fails.
 */
export class SqliteWriteBatch {
  private pending: PendingWrite[] = [];

  constructor(
    private readonly sqlite: SqliteDatabase,
    private readonly statements: CachedStatementsDatabase,
  ) {}

  /** Runs `write` in the next group's transaction; resolves with its result once committed. */
  run<T>(write: SqliteWrite<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ write, resolve, reject });
      if (this.pending.length === 1) setImmediate(this.flush);
    });
  }

  /** Commits what is waiting now (before the database closes). */
  readonly flush = (): void => {
    if (this.pending.length === 0) return;
    // A transaction of Kysely's is open across an await: writes run now would join it and be
    // undone if it rolled back. The group waits for it to end (a timer, not a busy loop of turns).
    if (this.sqlite.inTransaction) {
      setTimeout(this.flush, 1);
      return;
    }
    const batch = this.pending;
    this.pending = [];
    const prepare = (sql: string) => this.statements.prepare(sql);
    let results: unknown[];
    try {
      results = this.sqlite.transaction(() => batch.map((each) => each.write(prepare)))();
    } catch {
      for (const each of batch) {
        try {
          each.resolve(this.sqlite.transaction(() => each.write(prepare))());
        } catch (error) {
          each.reject(error);
        }
      }
      return;
    }
    batch.forEach((each, index) => each.resolve(results[index]));
  };
}
