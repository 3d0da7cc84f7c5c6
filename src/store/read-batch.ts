import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from '../core/sqlite.js';
import { TurnBatch, type Pending } from './turn-batch.js';

type PendingRead = Pending<() => unknown>;

/**
 * The hot reads asked for while the event loop works through its ready callbacks, run together in
 * one read transaction when it is about to wait (`setImmediate`). A statement run alone is a
 * transaction of its own: SQLite takes and drops the database's shared lock and a WAL read mark,
 * several `fcntl` calls, and under load those cost a request more than the read itself. Every read
 * of a group starts after the requests that asked for it arrived, so each sees what was committed
 * before it was asked, and the group sees one snapshot.
 *
 * A read that throws fails alone. The reads asked before a transaction of Kysely's begins on the
 * one connection run just before it (`flush` is called then), so none sees its writes before they
 * commit or roll back, and one awaited inside it settles. Should a group find another transaction
 * open all the same, it waits for its end, as the write batch does.
 */
export class SqliteReadBatch extends TurnBatch<() => unknown> {
  private readonly begin: BetterSqlite3.Statement;
  private readonly end: BetterSqlite3.Statement;

  constructor(sqlite: SqliteDatabase) {
    super(sqlite);
    this.begin = sqlite.prepare('begin');
    this.end = sqlite.prepare('commit');
  }

  /** Runs `read` with the next group. */
  run<T>(read: () => T): Promise<T> {
    return this.add<T>(read);
  }

  protected runGroup(group: PendingRead[]): void {
    // One read is its own transaction already: a begin and a commit around it would only add two.
    // A begin that fails (the database closed) leaves each read to run, and fail, on its own.
    if (group.length === 1 || !this.began()) {
      for (const each of group) settle(each);
      return;
    }
    try {
      for (const each of group) settle(each);
    } finally {
      this.ended();
    }
  }

  private began(): boolean {
    try {
      this.begin.run();
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Ends the group's transaction. Some errors of a read (a full disk, out of memory) make SQLite
   * roll it back already; a commit that fails is rolled back, so no later statement runs inside it.
   */
  private ended(): void {
    if (!this.sqlite.inTransaction) return;
    try {
      this.end.run();
    } catch {
      if (this.sqlite.inTransaction) this.sqlite.exec('rollback');
    }
  }
}

function settle(pending: PendingRead): void {
  try {
    pending.resolve(pending.work());
  } catch (error) {
    pending.reject(error);
  }
}
