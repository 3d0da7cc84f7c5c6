import { describe, expect, it } from 'vitest';
import { SQLite } from '../src/core/sqlite.js';
import { notesDatabases } from './helpers/notes-database.js';

describe('SQLite group commit of concurrent writes', () => {
  const setUp = notesDatabases();

  const insert = (text: string) => (prepare: (sql: string) => { run(...values: unknown[]): unknown }) =>
    prepare('insert into notes (text) values (?)').run(text);

  it('commits the writes asked for together in one transaction, each settled once committed', async () => {
    const { database, file } = await setUp();
    const seenInTransaction: boolean[] = [];
    const writes = ['a', 'b', 'c'].map((text) =>
      database.writes.run((prepare) => {
        seenInTransaction.push(database.sqlite.inTransaction);
        insert(text)(prepare);
        return text;
      }),
    );
    expect(await Promise.all(writes)).toEqual(['a', 'b', 'c']);
    expect(seenInTransaction).toEqual([true, true, true]);
    // Another connection (another process) sees them once the promises resolved.
    const other = new SQLite(file, { readonly: true });
    expect(other.prepare('select text from notes order by id').pluck().all()).toEqual(['a', 'b', 'c']);
    other.close();
  });

  it('fails only the write that failed; the others of its group are stored', async () => {
    const { database } = await setUp();
    const results = await Promise.allSettled([
      database.writes.run(insert('a')),
      database.writes.run(insert('a')), // unique: refused
      database.writes.run(insert('b')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(database.sqlite.prepare('select text from notes order by id').pluck().all()).toEqual(['a', 'b']);
  });

  it('does not join a transaction left open across an await, so its rollback keeps the group', async () => {
    const { database } = await setUp();
    let written: Promise<unknown> | undefined;
    await expect(
      database.db.transaction().execute(async (trx) => {
        await trx.schema.createTable('scratch').addColumn('id', 'integer').execute();
        written = database.writes.run(insert('kept'));
        await new Promise((resolve) => setTimeout(resolve, 20)); // the group's turn comes meanwhile
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await written;
    expect(database.sqlite.prepare('select text from notes').pluck().all()).toEqual(['kept']);
  });
});
