import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeImpact, readImpactInput } from '../src/impact/index.js';

describe('readImpactInput', () => {
  const root = mkdtempSync(join(tmpdir(), 'impact-docs-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'guides'));
  mkdirSync(join(root, 'snippets'));
  writeFileSync(join(root, 'docs.json'), JSON.stringify({ navigation: { pages: ['guides/setup'] } }));
  writeFileSync(join(root, 'guides/setup.mdx'), '---\ntitle: Setup\n---\n\nSet `APP_TOKEN` first.\n');
  writeFileSync(join(root, 'snippets/note.mdx'), 'A snippet naming APP_TOKEN.');
  writeFileSync(join(root, 'README.md'), 'APP_TOKEN');

  it('reads the pages of a docs folder, relative to it, and nothing else', async () => {
    const input = await readImpactInput(root, 'the diff');
    expect(input.diff).toBe('the diff');
    expect(input.pages).toEqual([{ path: 'guides/setup.mdx', text: expect.stringContaining('APP_TOKEN') }]);
  });

  it('feeds analyzeImpact', async () => {
    const diff = [
      'diff --git a/src/auth.ts b/src/auth.ts',
      '--- a/src/auth.ts',
      '+++ b/src/auth.ts',
      '@@ -1 +1 @@',
      '-const token = process.env.APP_TOKEN',
      '+const token = readToken()',
    ].join('\n');
    const result = analyzeImpact(await readImpactInput(root, diff));
    expect(result.pages.filter((page) => page.affected).map((page) => page.path)).toEqual([
      'guides/setup.mdx',
    ]);
  });

  it('says so when the folder is missing or is a file', async () => {
    await expect(readImpactInput(join(root, 'missing'), '')).rejects.toMatchObject({ code: 'not_found' });
    await expect(readImpactInput(join(root, 'README.md'), '')).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });
});
