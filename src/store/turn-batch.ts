import type { SqliteDatabase } from '../core/sqlite.js';

/** A caller's part of a group, and the promise it waits on. */
export interface Pending<Work> {
  work: Work;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Work asked for while the event loop works through its ready callbacks, done as one group when
 * it is about to wait (`setImmediate`). A transaction left open across an await on the one
 * connection (one of Kysely's) must not take in a group's statements: the group waits for it to
 * end, on a timer, not a busy loop of turns.
 */
export abstract class TurnBatch<Work> {
  private pending: Pending<Work>[] = [];

  constructor(protected readonly sqlite: SqliteDatabase) {}

  /** Does what is waiting now (before the database closes, and whenever a group must not wait). */
  readonly flush = (): void => {
    if (this.pending.length === 0) return;
    if (this.sqlite.inTransaction) {
      setTimeout(this.flush, 1);
      return;
    }
    const group = this.pending;
    this.pending = [];
    this.runGroup(group);
  };

  /** Adds the work to the next group (the first of a group schedules it); settles with its result. */
  protected add<T>(work: Work): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (this.pending.length === 1) setImmediate(this.flush);
    });
  }

  /** Runs a group, settling each of its items. */
  protected abstract runGroup(group: Pending<Work>[]): void;
}
