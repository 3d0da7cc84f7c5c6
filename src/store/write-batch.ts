import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from '../core/sqlite.js';
import type { CachedStatementsDatabase } from './statement-cache.js';
import type { StorageHealth } from './storage-faults.js';
import { TurnBatch, type Pending } from './turn-batch.js';

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

type PendingWrite = Pending<SqliteWrite<unknown>>;

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
export class SqliteWriteBatch extends TurnBatch<SqliteWrite<unknown>> {
  constructor(
    sqlite: SqliteDatabase,
    private readonly statements: CachedStatementsDatabase,
    /** Told of every group: a full disk fails its writes named (507), and a commit that works ends that. */
    private readonly health: StorageHealth,
  ) {
    super(sqlite);
  }

  /** Runs `write` in the next group's transaction; resolves with its result once committed. */
  run<T>(write: SqliteWrite<T>): Promise<T> {
    return this.add<T>(write);
  }

  protected runGroup(batch: PendingWrite[]): void {
    const prepare = (sql: string) => this.statements.prepare(sql);
    let results: unknown[];
    try {
      results = this.sqlite.transaction(() => batch.map((each) => each.work(prepare)))();
    } catch {
      for (const each of batch) {
        try {
          each.resolve(this.sqlite.transaction(() => each.work(prepare))());
          this.health.succeeded('write');
        } catch (error) {
          each.reject(this.health.failed(error));
        }
      }
      return;
    }
    this.health.succeeded('write');
    batch.forEach((each, index) => each.resolve(results[index]));
  }
}
