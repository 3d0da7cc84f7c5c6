/** The part of `node:sqlite` used here (the project's Node 20 type definitions do not have it). */
interface DatabaseSync {
  readonly isOpen: boolean;
  readonly isTransaction: boolean;
  exec(sql: string): void;
  prepare(sql: string): StatementSync;
  close(): void;
}

interface StatementSync {
  setReturnArrays(enabled: boolean): void;
  run(...parameters: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...parameters: unknown[]): unknown;
  all(...parameters: unknown[]): unknown[];
  iterate(...parameters: unknown[]): Iterable<unknown>;
}

type Parameters = unknown[];

/**
 * Node's own SQLite (`node:sqlite`, with FTS5) behind the part of better-sqlite3's interface that
 * the in-memory docs index uses: exec, prepared statements (run, get, all, iterate, raw), pragma,
 * transaction and close. It is what the Action's bundle, which carries no native module, indexes
 * the docs with on the node24 runtime. `undefined` where Node has no `node:sqlite` (Node 20).
 */
export function openNodeSqlite(filename: string): NodeSqliteDatabase | undefined {
  const module = builtinSqlite();
  return module ? new NodeSqliteDatabase(new module.DatabaseSync(filename)) : undefined;
}

function builtinSqlite(): { DatabaseSync: new (filename: string) => DatabaseSync } | undefined {
  try {
    // getBuiltinModule keeps bundlers from resolving the name; it answers undefined for a module
    // this Node does not have, and older Node 20 releases lack the function itself.
    const load = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
    return load?.('node:sqlite') as { DatabaseSync: new (filename: string) => DatabaseSync } | undefined;
  } catch {
    return undefined;
  }
}

class NodeSqliteDatabase {
  constructor(private readonly database: DatabaseSync) {}

  get open(): boolean {
    return this.database.isOpen;
  }

  exec(sql: string): this {
    this.database.exec(sql);
    return this;
  }

  prepare(sql: string): NodeSqliteStatement {
    return new NodeSqliteStatement(this.database.prepare(sql));
  }

  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const statement = this.database.prepare(`PRAGMA ${source}`);
    if (!options.simple) return statement.all();
    statement.setReturnArrays(true);
    return (statement.get() as unknown[] | undefined)?.[0];
  }

  /** As better-sqlite3's: a function that runs `body` in one transaction, rolled back if it throws. */
  transaction<Result>(body: (...args: Parameters) => Result): (...args: Parameters) => Result {
    return (...args) => {
      this.database.exec('BEGIN');
      try {
        const result = body(...args);
        this.database.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.database.isTransaction) this.database.exec('ROLLBACK');
        throw error;
      }
    };
  }

  close(): this {
    this.database.close();
    return this;
  }
}

class NodeSqliteStatement {
  constructor(private readonly statement: StatementSync) {}

  /** As better-sqlite3's `raw()`: rows come as arrays of column values from now on. */
  raw(toggle = true): this {
    this.statement.setReturnArrays(toggle);
    return this;
  }

  run(...parameters: Parameters): { changes: number; lastInsertRowid: number } {
    const { changes, lastInsertRowid } = this.statement.run(...parameters);
    return { changes: Number(changes), lastInsertRowid: Number(lastInsertRowid) };
  }

  get(...parameters: Parameters): unknown {
    return this.statement.get(...parameters);
  }

  all(...parameters: Parameters): unknown[] {
    return this.statement.all(...parameters);
  }

  iterate(...parameters: Parameters): Iterable<unknown> {
    return this.statement.iterate(...parameters);
  }
}
