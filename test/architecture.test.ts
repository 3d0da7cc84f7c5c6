import { readdirSync, readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { LAYERS } from '../eslint.config.js';

/** The layer rule's findings on `code` as if it were the file at `filePath`. */
async function layerFindings(eslint: ESLint, filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId?.startsWith('boundaries/'))
    .map((message) => message.message);
}

describe('the direction of dependencies', () => {
  it('is a ladder: each folder imports only folders listed before it, so no import can close a cycle', () => {
    const folders = Object.keys(LAYERS);
    folders.forEach((folder, position) => {
      for (const imported of LAYERS[folder]!) {
        expect(folders.indexOf(imported), `${folder} imports ${imported}`).toBeGreaterThanOrEqual(0);
        expect(folders.indexOf(imported), `${folder} imports ${imported}`).toBeLessThan(position);
      }
    });
  });

  it('covers every folder of src/, so none escapes the rule', () => {
    const folders = readdirSync(new URL('../src/', import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual(Object.keys(LAYERS).sort());
  });

  it('is the table docs/architecture.mdx draws', () => {
    const page = readFileSync(new URL('../docs/architecture.mdx', import.meta.url), 'utf8');
    const table = page.slice(page.indexOf('{/* layers:start */}'), page.indexOf('{/* layers:end */}'));
    const rows = [...table.matchAll(/^\| `([\w-]+)` +\| ([^|]+?) +\|$/gm)].map(([, folder, imports]) => [
      folder,
      imports === 'nothing' ? [] : imports!.split(', '),
    ]);
    expect(Object.fromEntries(rows)).toEqual(LAYERS);
  });

  it('draws the ladder the lint step enforces: every folder once, top to bottom, none importing one above it', () => {
    const page = readFileSync('docs/architecture.mdx', 'utf8');
    const picture = /## The layers[\s\S]*?```text\n([\s\S]*?)```/.exec(page)![1]!;
    const drawn = picture
      .trim()
      .split('\n')
      .map((line) => line.trim().split(/\s+/)[0]!);
    expect(drawn).toEqual(Object.keys(LAYERS).reverse());
    drawn.forEach((folder, rung) => {
      for (const below of LAYERS[folder]!)
        expect(drawn.indexOf(below), `${folder} imports ${below}`).toBeGreaterThan(rung);
    });
  });

  it('fails the lint step on an import that points up, a type import too, and lets one that points down pass', async () => {
    const eslint = new ESLint();
    expect(
      await layerFindings(
        eslint,
        'src/github-api/hosts.ts',
        "import type { GitHubBot } from '../bot/index.js';\nexport type Bot = GitHubBot;\n",
      ),
    ).toEqual([expect.stringContaining('from elements of type "github-api" to elements of type "bot"')]);
    // The platform layer knows nothing of docwright's conversation on GitHub.
    expect(
      await layerFindings(
        eslint,
        'src/github-api/hosts.ts',
        "import { jobMarker } from '../github/job-marker.js';\nexport const marker = jobMarker;\n",
      ),
    ).toEqual([expect.stringContaining('from elements of type "github-api" to elements of type "github"')]);
    expect(
      await layerFindings(
        eslint,
        'src/store/migrations.ts',
        "import { GITHUB_COM } from '../github-api/hosts.js';\nexport const host = GITHUB_COM;\n",
      ),
    ).toEqual([expect.stringContaining('from elements of type "store" to elements of type "github-api"')]);
    expect(
      await layerFindings(
        eslint,
        'src/core/errors.ts',
        "import { program } from '../cli.js';\nexport const entry = program;\n",
      ),
    ).not.toEqual([]);
    expect(
      await layerFindings(
        eslint,
        'src/bot/replies.ts',
        "import { jobMarker } from '../github/job-marker.js';\nexport const marker = jobMarker('j');\n",
      ),
    ).toEqual([]);
  }, 120_000);
});

describe('one reader of a page', () => {
  /** Every TypeScript file of src/ with its text, by path from the repository. */
  function sources(): [string, string][] {
    const root = new URL('../src/', import.meta.url);
    return (readdirSync(root, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts'))
      .map((file) => [`src/${file}`, readFileSync(new URL(file, root), 'utf8')]);
  }

  it('reads frontmatter and code fences in src/docs/page-syntax.ts and frontmatter.ts alone', () => {
    const readers: string[] = [];
    for (const [file, text] of sources()) {
      if (file === 'src/docs/page-syntax.ts') continue;
      // A pattern for a fence (three backticks or tildes) or a frontmatter fence (`^---`).
      if (/\/\^[^/\n]*(?:`\{3,?\}|`{3}|~\{3,?\}|~{3})/.test(text)) readers.push(`${file}: a fence pattern`);
      if (/\/\^(?:\\uFEFF\?)?---/.test(text)) readers.push(`${file}: a frontmatter pattern`);
      if (file !== 'src/docs/frontmatter.ts' && /from 'gray-matter'/.test(text))
        readers.push(`${file}: gray-matter`);
    }
    expect(readers).toEqual([]);
  });
});
