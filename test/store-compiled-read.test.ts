import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { SQLite } from '../src/sqlite.js';
import { compiledRead } from '../src/store/compiled-read.js';

interface Tables {
  items: { id: number; owner: string; name: string };
}

describe('compiledRead', () => {
  const sqlite = new SQLite(':memory:');
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }) });
  afterAll(() => db.destroy());
  sqlite.exec('create table items (id integer primary key, owner text, name text)');

  it('runs with each call’s values wherever the SQL names them', async () => {
    sqlite.exec("insert into items values (1, 'ann', 'a'), (2, 'ann', 'b'), (3, 'bob', 'a')");
    // The SQL names `name` before `owner`, the reverse of the arguments.
    const read = compiledRead(
      db as Kysely<unknown>,
      (owner: string, name: string) =>
        db.selectFrom('items').select('id').where('name', '=', name).where('owner', '=', owner),
      ['owner?', 'name?'],
    );
    expect(await read('ann', 'b')).toEqual([{ id: 2 }]);
    expect(await read('bob', 'a')).toEqual([{ id: 3 }]);
    expect(await read('bob', 'b')).toEqual([]);
  });

  it('refuses placeholders it could not tell apart, and values that are not placeholders', () => {
    const build = (owner: string, name: string) =>
      db.selectFrom('items').select('id').where('owner', '=', owner).where('name', '=', name);
    expect(() => compiledRead(db as Kysely<unknown>, build, ['x', 'x'])).toThrow(/distinct placeholders/);
    expect(() =>
      compiledRead(
        db as Kysely<unknown>,
        (owner: string) =>
          db.selectFrom('items').select('id').where('owner', '=', owner).where('name', '=', 'a'),
        ['owner?'],
      ),
    ).toThrow(/not a placeholder/);
  });
});
