/**
 * The gates that keep the Action's artifacts honest: the committed dist/ is what
 * `npm run package` builds from the sources today, and the Action's docs page documents every input
 * and output.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** The `ncc build …` arguments of the `package` script, writing to `outDir` instead of dist. */
async function packageArguments(outDir: string): Promise<string[]> {
  const manifest = JSON.parse(await fs.readFile('package.json', 'utf8')) as {
    scripts: Record<string, string>;
  };
  // The script may clear dist/ first (`rm -rf dist && ncc build …`): the build is its last command.
  const build = manifest.scripts.package!.split('&&').at(-1)!.trim();
  const words = build.split(/\s+/);
  expect(words.slice(0, 2)).toEqual(['ncc', 'build']);
  const output = words.indexOf('-o');
  expect(words[output + 1]).toBe('dist');
  words[output + 1] = outDir;
  return words.slice(1);
}

function nccCli(): string | null {
  try {
    return createRequire(import.meta.url).resolve('@vercel/ncc/dist/ncc/cli.js');
  } catch {
    return null;
  }
}

/** Inputs or outputs of action.yml: the names indented under `section:`. */
async function actionYmlNames(section: 'inputs' | 'outputs'): Promise<string[]> {
  const text = await fs.readFile('action.yml', 'utf8');
  const start = text.indexOf(`\n${section}:\n`);
  const end = text.slice(start + 2).search(/\n\S/);
  const body = text.slice(start, end === -1 ? undefined : start + 2 + end);
  return [...body.matchAll(/^ {2}([a-z-]+):$/gm)].map((match) => match[1]!);
}

describe('dist/', () => {
  it('is what `npm run package` builds from the current sources', async (context) => {
    const cli = nccCli();
    if (!cli) return context.skip('@vercel/ncc is not installed, so dist/ cannot be rebuilt here');
    expect(
      existsSync('dist/index.js'),
      'dist/index.js is missing: run `npm run package` and commit dist/',
    ).toBe(true);
    const outDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-dist-'));
    try {
      await run(process.execPath, [cli, ...(await packageArguments(outDir)), '--quiet'], {
        maxBuffer: 16 * 2 ** 20,
      });
      const built = (await fs.readdir(outDir)).sort();
      expect((await fs.readdir('dist')).sort()).toEqual(built);
      for (const file of built) {
        const fresh = await fs.readFile(path.join(outDir, file), 'utf8');
        const committed = await fs.readFile(path.join('dist', file), 'utf8');
        expect(
          committed === fresh,
          `dist/${file} differs from a fresh build: run \`npm run package\` and commit dist/`,
        ).toBe(true);
      }
    } finally {
      await fs.rm(outDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the bundle', () => {
  it('stays under 4 MiB in all and carries no native module, so it loads on node24 from dist/ alone', async () => {
    const files = await fs.readdir('dist');
    const sizes = await Promise.all(files.map(async (file) => (await fs.stat(path.join('dist', file))).size));
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThan(4 * 2 ** 20);
    expect(files.filter((file) => file.endsWith('.node'))).toEqual([]);
  });
});

describe('action.yml', () => {
  it('runs dist/index.js on node24', async () => {
    const text = await fs.readFile('action.yml', 'utf8');
    expect(text).toMatch(/\nruns:\n {2}using: node24\n {2}main: dist\/index\.js\n/);
  });

  it('has every input and output documented in a table row of docs/action.mdx', async () => {
    const page = await fs.readFile('docs/action.mdx', 'utf8');
    const names = [...(await actionYmlNames('inputs')), ...(await actionYmlNames('outputs'))];
    expect(names).toContain('api-key');
    expect(names).toContain('pr-link');
    const undocumented = names.filter((name) => !page.includes(`| \`${name}\``));
    expect(undocumented, 'action.yml names missing from the tables of docs/action.mdx').toEqual([]);
  });
});
