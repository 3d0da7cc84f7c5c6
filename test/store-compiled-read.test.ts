import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compiledRead } from '../src/store/compiled-read.js';
import type { OpenDatabase } from '../src/store/database.js';
import { openStore, type Store } from '../src/store/index.js';
import { DIALECTS, testDatabases } from './helpers/postgres.js';

const databases = testDatabases();
afterAll(() => databases.close());

describe.each(DIALECTS)('a read compiled once, on %s', (dialect) => {
  let store: Store;
  let database: OpenDatabase;
  beforeEach(async () => {
    store = await openStore(await databases.create(dialect));
    database = store.database;
    for (const [id, baseRef] of [
      ['ann', 'main'],
      ['bob', 'dev'],
      ['cy', 'main'],
    ] as const) {
      await store.projects.create({ id, repository: `/repo/${id}`, baseRef, domain: id });
    }
  });
  afterEach(() => store.close());

  // The SQL names `base_ref` before `id`, the reverse of the arguments.
  const byIdAndRef = (id: string, ref: string) =>
    database.db
      .selectFrom('projects')
      .select(['id', 'domain', 'base_ref'])
      .where('base_ref', '=', ref)
      .where('id', '=', id);

  it('runs with each call’s values wherever the SQL names them, rows named by their columns', async () => {
    const read = compiledRead(database, byIdAndRef, ['id?', 'ref?']);
    expect(await read('ann', 'main')).toEqual([{ id: 'ann', domain: 'ann', base_ref: 'main' }]);
    expect(await read('bob', 'dev')).toEqual([{ id: 'bob', domain: 'bob', base_ref: 'dev' }]);
    expect(await read('bob', 'main')).toEqual([]);
  });

  it('refuses placeholders it could not tell apart, and values that are not placeholders', () => {
    expect(() => compiledRead(database, byIdAndRef, ['x', 'x'])).toThrow(/distinct placeholders/);
    const fixedRef = (id: string) => byIdAndRef(id, 'main');
    expect(() => compiledRead(database, fixedRef, ['id?'])).toThrow(/not a placeholder/);
  });
});
