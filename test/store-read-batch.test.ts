import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SQLite } from '../src/sqlite.js';
import { compiledRead } from '../src/store/compiled-read.js';
import { openSqliteDatabase, type OpenSqliteDatabase } from '../src/store/database.js';

describe('SQLite reads of one turn in one read transaction', () => {
  let database: OpenSqliteDatabase | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  async function setUp() {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-reads-'));
    const file = path.join(dir, 'docwright.db');
    database = await openSqliteDatabase(file);
    database.sqlite.exec('create table notes (id integer primary key, text text not null)');
    database.sqlite.exec("insert into notes (text) values ('first')");
    const texts = compiledRead(
      database,
      (after: number) =>
        database!.db
          .selectFrom('notes' as never)
          .select('text' as never)
          .where('id' as never, '>', after),
      [-1],
    ) as (after: number) => Promise<{ text: string }[]>;
    return { database, file, texts };
  }

  it('runs the reads asked for together in one transaction; a read alone runs without one', async () => {
    const { database } = await setUp();
    const inTransaction = () => database.sqlite.inTransaction;
    const fallback = () => Promise.reject(new Error('not through Kysely'));
    expect(await Promise.all([1, 2, 3].map(() => database.reads.run(inTransaction, fallback)))).toEqual([
      true,
      true,
      true,
    ]);
    expect(await database.reads.run(inTransaction, fallback)).toBe(false);
    expect(database.sqlite.inTransaction).toBe(false);
  });

  it('sees what another process committed up to its turn, so all that was committed before it was asked', async () => {
    const { file, texts } = await setUp();
    const before = texts(0);
    const other = new SQLite(file);
    other.exec("insert into notes (text) values ('second')");
    other.close();
    const after = texts(0);
    expect((await after).map((row) => row.text)).toEqual(['first', 'second']);
    // Asked before the other commit, run after it: never older than when it was asked.
    expect((await before).map((row) => row.text)).toEqual(['first', 'second']);
  });

  it('fails only the read that failed', async () => {
    const { database, texts } = await setUp();
    const results = await Promise.allSettled([
      texts(0),
      database.reads.run(
        () => {
          throw new Error('this read failed');
        },
        () => Promise.resolve(),
      ),
      texts(0),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/this read failed/);
    expect(database.sqlite.inTransaction).toBe(false);
  });

  it('waits for a Kysely transaction opened before its turn, and never sees its undone writes', async () => {
    const { database, texts } = await setUp();
    const read = texts(0); // asked before the transaction begins, run after it began
    const undone = database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('notes' as never)
        .values({ text: 'undone' })
        .execute();
      await new Promise((resolve) => setTimeout(resolve, 20)); // the group's turn comes meanwhile
      throw new Error('rolled back');
    });
    await expect(undone).rejects.toThrow('rolled back');
    expect((await read).map((row) => row.text)).toEqual(['first']);
  });

  it('runs the reads asked before a Kysely transaction begins first, so one awaited inside it settles', async () => {
    const { database, texts } = await setUp();
    const asked = texts(0);
    const inside = await database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('notes' as never)
        .values({ text: 'inside' })
        .execute();
      return (await asked).map((row) => row.text);
    });
    expect(inside).toEqual(['first']);
  });

  it('ends a group whose transaction a read’s error already rolled back, and settles every read', async () => {
    const { database, texts } = await setUp();
    const results = await Promise.allSettled([
      database.reads.run(
        () => {
          database.sqlite.exec('rollback'); // as SQLite does itself on a full disk or out of memory
          throw new Error('disk full');
        },
        () => Promise.resolve(),
      ),
      texts(0),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled']);
    expect(database.sqlite.inTransaction).toBe(false);
    expect((await texts(0)).map((row) => row.text)).toEqual(['first']);
  });

  it('rejects reads asked after the database closed, each on its own, without throwing elsewhere', async () => {
    const { database: open, texts } = await setUp();
    await open.close();
    database = undefined;
    const results = await Promise.allSettled([texts(0), texts(0)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/not open/);
  });
});
