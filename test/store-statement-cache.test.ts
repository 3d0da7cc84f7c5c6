import { afterEach, describe, expect, it } from 'vitest';
import { SQLite, type SqliteDatabase } from '../src/core/sqlite.js';
import { Kysely, SqliteDialect } from 'kysely';
import { withStatementCache } from '../src/store/statement-cache.js';

describe('prepared statements kept per SQL text', () => {
  let sqlite: SqliteDatabase | undefined;
  afterEach(() => {
    sqlite?.close();
    sqlite = undefined;
  });

  it('prepares a SQL text once and hands back the same statement', () => {
    sqlite = new SQLite(':memory:');
    const cached = withStatementCache(sqlite);
    const first = cached.prepare('select 1 as one');
    expect(cached.prepare('select 1 as one')).toBe(first);
    expect(cached.prepare('select 2 as two')).not.toBe(first);
  });

  it('gives a fresh statement while the cached one is still iterating', () => {
    sqlite = new SQLite(':memory:');
    sqlite.exec('create table t (a); insert into t values (1), (2)');
    const cached = withStatementCache(sqlite);
    const text = 'select a from t order by a';
    const iterating = cached.prepare(text) as ReturnType<SqliteDatabase['prepare']>;
    const rows = iterating.iterate([]);
    rows.next();
    const other = cached.prepare(text) as ReturnType<SqliteDatabase['prepare']>;
    expect(other).not.toBe(iterating);
    expect(other.all([])).toEqual([{ a: 1 }, { a: 2 }]);
    rows.return?.();
  });

  it('keeps at most the given number of statements, dropping the least recently used', () => {
    sqlite = new SQLite(':memory:');
    const cached = withStatementCache(sqlite, { maxStatements: 2 });
    const one = cached.prepare('select 1');
    const two = cached.prepare('select 2');
    expect(cached.prepare('select 1')).toBe(one);
    cached.prepare('select 3');
    expect(cached.prepare('select 1')).toBe(one);
    expect(cached.prepare('select 2')).not.toBe(two);
  });

  it('answers Kysely with current rows through reused statements', async () => {
    sqlite = new SQLite(':memory:');
    sqlite.exec('create table t (a)');
    const db = new Kysely<{ t: { a: number } }>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    });
    const read = () => db.selectFrom('t').select('a').orderBy('a').execute();
    await db.insertInto('t').values({ a: 1 }).execute();
    expect(await read()).toEqual([{ a: 1 }]);
    await db.insertInto('t').values({ a: 2 }).execute();
    expect(await read()).toEqual([{ a: 1 }, { a: 2 }]);
  });
});
