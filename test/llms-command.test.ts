import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeLlmsFiles } from '../src/cli/llms-command.js';
import { checkLlmsText } from './helpers/llms-format.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const SITES = path.join(ROOT, 'test/fixtures/sites');
const SITE_URL = 'https://docs.example.test/base/';

/** The docs folder of every framework's fixture, and docwright's own docs. */
const CASES: { name: string; docs: string; pages: number }[] = [
  { name: 'docwright docs (Mintlify)', docs: path.join(ROOT, 'docs'), pages: 10 },
  { name: 'Mintlify', docs: path.join(SITES, 'mintlify'), pages: 5 },
  { name: 'Docusaurus 3', docs: path.join(SITES, 'docusaurus3/website'), pages: 5 },
  { name: 'Docusaurus 2', docs: path.join(SITES, 'docusaurus2/website'), pages: 5 },
  { name: 'MkDocs', docs: path.join(SITES, 'mkdocs'), pages: 5 },
  { name: 'VitePress', docs: path.join(SITES, 'vitepress/docs'), pages: 5 },
  { name: 'Starlight', docs: path.join(SITES, 'starlight/docs'), pages: 5 },
];

describe('docwright llms: llms.txt for a docs site on disk', () => {
  let out: string;
  beforeAll(async () => {
    out = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-llms-'));
  });
  afterAll(() => fs.rm(out, { recursive: true, force: true }));

  for (const { name, docs, pages } of CASES) {
    it(`${name}: llms.txt in the llmstxt.org format, each link a written .md file, llms-full.txt in the same order`, async () => {
      const folder = path.join(out, name.replace(/\W+/g, '-'));
      const written = await writeLlmsFiles({ docs, siteUrl: SITE_URL, out: folder });
      expect(written.pages).toBeGreaterThanOrEqual(pages);
      const text = readFileSync(path.join(folder, 'llms.txt'), 'utf8');
      const { problems, links } = checkLlmsText(text);
      expect(problems).toEqual([]);
      expect(links).toHaveLength(written.pages);
      for (const link of links) {
        expect(link.url.startsWith(SITE_URL), link.url).toBe(true);
        const file = path.join(folder, decodeURIComponent(link.url.slice(SITE_URL.length)));
        expect(existsSync(file), file).toBe(true);
        expect(readFileSync(file, 'utf8')).toMatch(/^# \S/);
      }
      const full = readFileSync(path.join(folder, 'llms-full.txt'), 'utf8');
      expect([...full.matchAll(/^source: (.+)$/gm)].map((match) => match[1])).toEqual(
        links.map((link) => link.url),
      );
    });
  }

  it('runs from the command line, and refuses a --site-url that is not an address', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(
          process.execPath,
          ['--import', 'tsx', 'src/cli.ts', 'llms', ...args],
          { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent' } },
          (error, stdout, stderr) =>
            resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
        ),
      );
    const folder = path.join(out, 'cli');
    const ok = await run(['--docs', 'docs', '--site-url', 'https://docs.example.test', '--out', folder]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ pages: expect.any(Number), out: folder });
    expect(readFileSync(path.join(folder, 'llms.txt'), 'utf8')).toContain(
      '(https://docs.example.test/quickstart.md)',
    );
    const bad = await run(['--docs', 'docs', '--site-url', 'docs.example.test', '--out', folder]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--site-url must be an absolute address/);
  }, 60_000);
});
