import { describe, expect, it } from 'vitest';
import { SQLite } from '../src/core/sqlite.js';
import { compiledRead } from '../src/store/compiled-read.js';
import { notesDatabases } from './helpers/notes-database.js';

describe('SQLite reads of one turn in one read transaction', () => {
  const notesDatabase = notesDatabases();

  async function setUp() {
    const { database, file, close } = await notesDatabase(['first']);
    const notes = database.db.withTables<{ notes: { id: number; text: string } }>();
    const texts = compiledRead(
      database,
      (after: number) => notes.selectFrom('notes').select('text').where('id', '>', after),
      [-1],
    );
    return { database, file, close, texts };
  }

  it('runs the reads asked for together in one transaction; a read alone runs without one', async () => {
    const { database } = await setUp();
    const inTransaction = () => database.sqlite.inTransaction;
    expect(await Promise.all([1, 2, 3].map(() => database.reads.run(inTransaction)))).toEqual([
      true,
      true,
      true,
    ]);
    expect(await database.reads.run(inTransaction)).toBe(false);
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
      database.reads.run(() => {
        throw new Error('this read failed');
      }),
      texts(0),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/this read failed/);
    expect(database.sqlite.inTransaction).toBe(false);
  });

  it('runs a read asked before a Kysely transaction begins before it, so it never sees the undone writes', async () => {
    const { database, texts } = await setUp();
    const read = texts(0);
    const undone = database.db.transaction().execute(async (trx) => {
      await trx
        .withTables<{ notes: { text: string } }>()
        .insertInto('notes')
        .values({ text: 'undone' })
        .execute();
      await new Promise((resolve) => setTimeout(resolve, 20)); // the read's turn would come meanwhile
      throw new Error('rolled back');
    });
    await expect(undone).rejects.toThrow('rolled back');
    expect((await read).map((row) => row.text)).toEqual(['first']);
  });

  it('waits for the end of a transaction opened outside Kysely before its turn', async () => {
    const { database, texts } = await setUp();
    const read = texts(0);
    database.sqlite.exec("begin; insert into notes (text) values ('undone')");
    setTimeout(() => database.sqlite.exec('rollback'), 20);
    expect((await read).map((row) => row.text)).toEqual(['first']);
  });

  it('runs the reads asked before a Kysely transaction begins first, so one awaited inside it settles', async () => {
    const { database, texts } = await setUp();
    const asked = texts(0);
    const inside = await database.db.transaction().execute(async (trx) => {
      await trx
        .withTables<{ notes: { text: string } }>()
        .insertInto('notes')
        .values({ text: 'inside' })
        .execute();
      return (await asked).map((row) => row.text);
    });
    expect(inside).toEqual(['first']);
  });

  it('ends a group whose transaction a read’s error already rolled back, and settles every read', async () => {
    const { database, texts } = await setUp();
    const results = await Promise.allSettled([
      database.reads.run(() => {
        database.sqlite.exec('rollback'); // as SQLite does itself on a full disk or out of memory
        throw new Error('disk full');
      }),
      texts(0),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled']);
    expect(database.sqlite.inTransaction).toBe(false);
    expect((await texts(0)).map((row) => row.text)).toEqual(['first']);
  });

  it('rejects reads asked after the database closed, each on its own, without throwing elsewhere', async () => {
    const { close, texts } = await setUp();
    await close();
    const results = await Promise.allSettled([texts(0), texts(0)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/not open/);
  });
});
