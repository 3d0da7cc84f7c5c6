import { beforeAll, describe, expect, it } from 'vitest';
import {
  DOCS_SYNC_DIR,
  hasDocsSyncCases,
  loadDocsSyncCases,
  type DocsSyncCase,
} from '../bench/docs-sync-cases.js';
import { analyzeImpact, type ImpactResult } from '../src/impact/index.js';

const present = hasDocsSyncCases();
const ids = [
  'undici-1918731333',
  'fastify-9af8a5ce3f',
  'undici-445522ba1b',
  'undici-916f4f5cf5',
  'neg-fastify-49272d1fd6',
  'neg-undici-905adfb316',
];

describe.skipIf(!present)(`analyzeImpact on real commits (needs ${DOCS_SYNC_DIR})`, () => {
  const results = new Map<string, { testCase: DocsSyncCase; result: ImpactResult }>();
  beforeAll(async () => {
    for (const testCase of await loadDocsSyncCases(DOCS_SYNC_DIR, ids))
      results.set(testCase.id, {
        testCase,
        result: analyzeImpact({ diff: testCase.patch, pages: testCase.files }),
      });
  });
  const listed = (id: string) =>
    results
      .get(id)!
      .result.pages.filter((page) => page.affected)
      .map((page) => page.path);
  const page = (id: string, path: string) =>
    results.get(id)!.result.pages.find((entry) => entry.path === path);

  it('a default flipped from false to true: the Client page, which states the old default', () => {
    // First, and at most one page beside it: the change judge lists a second page near the first.
    expect(listed('undici-1918731333')[0]).toBe('docs/api/Client.md');
    expect(listed('undici-1918731333').length).toBeLessThanOrEqual(2);
    expect(page('undici-1918731333', 'docs/api/Client.md')!.evidence[0]).toMatchObject({
      kind: 'name',
      name: 'allowH2',
      change: 'default-changed',
      oldValue: 'false',
      newValue: 'true',
    });
  });

  it('a removed server option: the pages that still document it', () => {
    const found = listed('fastify-9af8a5ce3f');
    expect(found).toEqual(expect.arrayContaining(['Reference/Server.md', 'Guides/Getting-Started.md']));
    expect(page('fastify-9af8a5ce3f', 'Reference/Server.md')!.evidence[0]).toMatchObject({
      name: 'jsonShorthand',
      change: 'removed',
    });
  });

  it('a new error code and a new diagnostics channel: the pages that catalogue their families', () => {
    expect(listed('undici-445522ba1b')).toEqual(['docs/api/Errors.md']);
    expect(page('undici-445522ba1b', 'docs/api/Errors.md')!.evidence).toContainEqual(
      expect.objectContaining({ kind: 'family', name: 'UND_ERR_PRX_CONN' }),
    );
    expect(listed('undici-916f4f5cf5')).toEqual(['docs/api/DiagnosticsChannel.md']);
  });

  it('the expected pages rank in the top ten', () => {
    for (const id of ['undici-1918731333', 'fastify-9af8a5ce3f', 'undici-445522ba1b', 'undici-916f4f5cf5']) {
      const { testCase, result } = results.get(id)!;
      const top = result.pages.slice(0, 10).map((entry) => entry.path);
      expect(top).toEqual(expect.arrayContaining(testCase.expected));
    }
  });

  it('stays quiet on a test-only change and on an internal rename', () => {
    expect(results.get('neg-fastify-49272d1fd6')!.result.pages).toEqual([]);
    expect(listed('neg-undici-905adfb316')).toEqual([]);
  });
});
