import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/index.js';
import { DIALECTS, testDatabases } from './helpers/postgres.js';

const databases = testDatabases();
afterAll(() => databases.close());

/** The page_feedback table of the MCP server's submit_feedback, on both dialects. */
describe.each(DIALECTS)('page feedback on %s', (dialect) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await databases.create(dialect));
    await store.projects.create({ id: 'docs', repository: '/repo', baseRef: 'main', domain: 'docs' });
  });
  afterEach(() => store.close());

  it('keeps reports newest first, with secrets redacted, and goes with its project', async () => {
    const first = await store.pageFeedback.add(
      { projectId: 'docs', pagePath: '/quickstart', problem: 'Step 2 is missing.', keyId: 'k_1' },
      new Date('2026-01-01T00:00:00Z'),
    );
    expect(first).toEqual({
      id: expect.any(Number),
      project_id: 'docs',
      page_path: '/quickstart',
      problem: 'Step 2 is missing.',
      key_id: 'k_1',
      created_at: '2026-01-01T00:00:00.000Z',
    });
    const key = `svc_${'a'.repeat(32)}`;
    await store.pageFeedback.add({
      projectId: 'docs',
      pagePath: '/api',
      problem: `My key ${key} fails`,
      keyId: null,
    });
    const listed = await store.pageFeedback.list('docs');
    expect(listed.map((row) => row.page_path)).toEqual(['/api', '/quickstart']);
    expect(listed[0]!.problem).not.toContain(key);
    expect(await store.projects.remove('docs')).toBe(true);
    expect(await store.pageFeedback.list('docs')).toEqual([]);
  });
});
