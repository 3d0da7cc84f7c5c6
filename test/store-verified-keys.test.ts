import { afterEach, describe, expect, it } from 'vitest';
import { hashesEqual, hashKey } from '../src/core/keys.js';
import { ApiKeyStore } from '../src/store/api-keys.js';
import { openStore, type Store } from '../src/store/index.js';
import { VERIFIED_KEY_TTL_MS, VerifiedKeys } from '../src/store/verified-keys.js';
import type { ApiKeyRow } from '../src/store/index.js';

describe('keys found by their hash are trusted for a few seconds', () => {
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  async function setUp() {
    store = await openStore({ memory: true });
    await store.projects.create({ id: 'docs', repository: '/tmp/r', baseRef: 'main' });
    let clock = 0;
    const keys = new ApiKeyStore(
      store.database.db,
      new VerifiedKeys<ApiKeyRow>(VERIFIED_KEY_TTL_MS, () => clock),
    );
    return { keys, db: store.database.db, advance: (ms: number) => (clock += ms) };
  }

  it('stops accepting a key revoked in the database once the window has passed', async () => {
    const { keys, db, advance } = await setUp();
    const { row } = await keys.create({ kind: 'admin', projectId: 'docs' });
    expect(await keys.findByHash(row.hash)).toEqual(row);

    // Revoked by another process: this one still trusts its lookup until the window ends.
    await db.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).execute();
    advance(VERIFIED_KEY_TTL_MS - 1);
    expect(await keys.findByHash(row.hash)).toEqual(row);
    advance(1);
    expect(await keys.findByHash(row.hash)).toBeUndefined();
  });

  it('stops accepting a deleted key once the window has passed', async () => {
    const { keys, db, advance } = await setUp();
    const { row } = await keys.create({ kind: 'assistant', projectId: 'docs', domain: 'docs' });
    expect(await keys.findByHash(row.hash)).toEqual(row);
    await db.deleteFrom('api_keys').execute();
    advance(VERIFIED_KEY_TTL_MS);
    expect(await keys.findByHash(row.hash)).toBeUndefined();
  });

  it('does not remember a hash it did not find, so a key added elsewhere works at once', async () => {
    const { keys, db } = await setUp();
    const hash = hashKey(`svc_${'a'.repeat(40)}`);
    expect(await keys.findByHash(hash)).toBeUndefined();
    const row: ApiKeyRow = {
      id: 'key_elsewhere',
      hash,
      kind: 'admin',
      project_id: 'docs',
      domain: null,
      created_at: new Date().toISOString(),
      revoked_at: null,
      last_used_at: null,
    };
    await db.insertInto('api_keys').values(row).execute();
    expect(await keys.findByHash(hash)).toEqual(row);
  });
});

describe('key hashes are compared whole', () => {
  it('tells equal hashes from hashes differing anywhere, or in length', () => {
    const hash = hashKey('svc_0123456789abcdefghijklmnopqrstuvwxyzABCD');
    expect(hashesEqual(hash, hashKey('svc_0123456789abcdefghijklmnopqrstuvwxyzABCD'))).toBe(true);
    for (const index of [0, 31, hash.length - 1]) {
      const changed = `${hash.slice(0, index)}${hash[index] === 'a' ? 'b' : 'a'}${hash.slice(index + 1)}`;
      expect(hashesEqual(hash, changed)).toBe(false);
    }
    expect(hashesEqual(hash, hash.slice(0, -1))).toBe(false);
    expect(hashesEqual('', '')).toBe(true);
  });
});
