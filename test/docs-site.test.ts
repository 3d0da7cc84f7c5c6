/**
 * docs/ is docwright's own documentation site. These gates keep it whole and true: a valid
 * Mintlify config whose navigation covers every page, frontmatter on every page, `docwright check`
 * clean, the API reference as generated from /openapi.json today, and every setting, CLI flag,
 * and Action input and output on its page.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fetchOpenApiDocument, REFERENCE_PAGE, renderApiReference } from '../scripts/api-reference.js';
import { readRunnerEnvironment } from '../src/action/environment.js';
import { checkCommand } from '../src/cli/check-command.js';
import { remote } from '../src/cli/job-commands.js';
import { EnvSchema } from '../src/config/config.js';
import { readFrontmatter } from '../src/docs/frontmatter.js';
import type { CommandFlags } from './helpers/dump-cli-commands.js';

const run = promisify(execFile);
const page = (name: string) => fs.readFile(path.join('docs', `${name}.mdx`), 'utf8');

/** Names mentioned as inline code in a page's text. */
const missingFrom = (text: string, names: string[]) => names.filter((name) => !text.includes(`\`${name}\``));

async function mdxPages(folder = 'docs', prefix = ''): Promise<string[]> {
  const pages: string[] = [];
  for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
    if (entry.isDirectory())
      pages.push(...(await mdxPages(path.join(folder, entry.name), `${prefix}${entry.name}/`)));
    else if (entry.name.endsWith('.mdx')) pages.push(`${prefix}${entry.name.slice(0, -4)}`);
  }
  return pages.sort();
}

describe('docs/docs.json', () => {
  it('has the Mintlify shape, and its navigation lists every page once', async () => {
    const config = JSON.parse(await fs.readFile('docs/docs.json', 'utf8'));
    expect(config.$schema).toBe('https://mintlify.com/docs.json');
    expect(config.name).toBe('docwright');
    expect(config.theme).toEqual(expect.any(String));
    expect(config.colors.primary).toMatch(/^#[0-9A-Fa-f]{6}$/);
    const listed: string[] = config.navigation.groups.flatMap((group: { group: string; pages: string[] }) => {
      expect(group.group).toEqual(expect.any(String));
      return group.pages;
    });
    expect([...listed].sort()).toEqual(await mdxPages());
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('every page has a title and a description', async () => {
    for (const name of await mdxPages()) {
      const { title, description } = readFrontmatter(await page(name));
      expect(title, `${name}.mdx: title`).toEqual(expect.any(String));
      expect(description, `${name}.mdx: description`).toEqual(expect.any(String));
    }
  });
});

describe('docwright check docs', () => {
  it('finds no problem: frontmatter, MDX, links, anchors, navigation', async () => {
    const result = await checkCommand('docs');
    expect(result.output).toContain('no problems found');
    expect(result.ok).toBe(true);
  });
});

describe('docs/api/reference.mdx', () => {
  it('is what `npm run docs:api` generates from /openapi.json today', async () => {
    const fresh = await renderApiReference(await fetchOpenApiDocument());
    const committed = await fs.readFile(REFERENCE_PAGE, 'utf8');
    expect(committed === fresh, 'docs/api/reference.mdx is stale: run `npm run docs:api` and commit it').toBe(
      true,
    );
  }, 30_000);
});

describe('the configuration page', () => {
  it('names every variable loadConfig reads', async () => {
    const names = Object.keys(EnvSchema.shape);
    expect(names).toContain('DOCWRIGHT_DATA_DIR');
    expect(missingFrom(await page('configuration'), names)).toEqual([]);
  });

  it('names every variable the job commands and the Action read', async () => {
    const read = new Set<string>();
    const recorder = new Proxy(
      {},
      {
        get: (_target, name) => {
          if (typeof name === 'string') read.add(name);
          return 'x';
        },
      },
    );
    remote({}, recorder);
    // Every variable reads as "x", which is not a price table: the reads before the refusal count.
    expect(() => readRunnerEnvironment(recorder)).toThrow(/DOCWRIGHT_MODEL_PRICES is not valid JSON/);
    expect(read).toContain('DOCWRIGHT_MODEL_PRICES');
    expect(read).toContain('DOCWRIGHT_URL');
    expect(read).toContain('GITHUB_API_URL');
    expect(missingFrom(await page('configuration'), [...read])).toEqual([]);
  });
});

describe('the CLI page', () => {
  it('shows every command and every flag of the program', async () => {
    const { stdout } = await run(process.execPath, [
      '--import',
      'tsx',
      '--import',
      './test/helpers/dump-cli-commands.ts',
      'src/cli.ts',
    ]);
    const commands = JSON.parse(stdout) as CommandFlags[];
    expect(commands.map((command) => command.path)).toEqual(
      expect.arrayContaining(['serve', 'project add', 'job create', 'check']),
    );
    const text = await page('cli');
    for (const { path: command, flags } of commands) {
      if (command !== '') expect(text, `docwright ${command}`).toContain(`docwright ${command}`);
      const missing = flags.filter((flag) => !text.includes(`\`${flag}`));
      expect(missing, `flags of "docwright ${command}" missing from docs/cli.mdx`).toEqual([]);
    }
  }, 60_000);
});

describe('README.md', () => {
  it('is the front door: under 10 KB, with the two commands and links into docs/ that exist', async () => {
    const readme = await fs.readFile('README.md', 'utf8');
    expect(Buffer.byteLength(readme)).toBeLessThan(10 * 1024);
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
    const links = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1]!);
    const local = links.filter((link) => !/^[a-z]+:/.test(link));
    expect(local.filter((link) => link.startsWith('docs/')).length).toBeGreaterThan(5);
    const missing = [];
    for (const link of local) {
      if (!(await fs.stat(link).catch(() => null))) missing.push(link);
    }
    expect(missing, 'README links to files that do not exist').toEqual([]);
  });

  it('and docs/ cite nothing a clone lacks', async () => {
    const texts = [
      await fs.readFile('README.md', 'utf8'),
      ...(await Promise.all((await mdxPages()).map(page))),
    ];
    expect(texts.filter((text) => text.includes('../shared'))).toEqual([]);
  });
});
