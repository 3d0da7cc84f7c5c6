/**
 * Old versions of the docs kept beside the current ones (`1.x/` beside `latest/`, `v1/` beside
 * `v2/`, Docusaurus's `versioned_docs/`) are never listed or ranked, whichever folder is named as
 * the docs root, through the site model, `analyzeImpact` and the `docwright impact` command.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oldVersionFolders, openDocsSite } from '../src/docs/index.js';
import { folderWithSurroundings } from '../src/docs/docs-tree.js';
import { analyzeImpact, readImpactInput, readImpactPages } from '../src/impact/index.js';
import { impact } from './helpers/impact-cli.js';

describe('oldVersionFolders', () => {
  const old = (paths: string[]) => Object.fromEntries(oldVersionFolders(paths));

  it('keeps latest/current/next/main and drops the numbered versions beside them', () => {
    expect(
      old(['1.x/concepts/a.md', 'latest/concepts/a.md', 'latest/b.md', 'canary/c.md', 'index.md']),
    ).toEqual({ '1.x/concepts/a.md': '1.x', 'canary/c.md': 'canary' });
    expect(old(['docs/v1/a.md', 'docs/v2/a.md', 'docs/next/a.md'])).toEqual({
      'docs/v1/a.md': 'docs/v1',
      'docs/v2/a.md': 'docs/v2',
    });
    expect(old(['1/a.md', '2/a.md', 'current/a.md'])).toEqual({ '1/a.md': '1', '2/a.md': '2' });
  });

  it('keeps the highest version when no folder is named for the current one', () => {
    expect(old(['v1/a.md', 'v2/a.md', 'guides/a.md'])).toEqual({ 'v1/a.md': 'v1' });
    expect(old(['v1.9/a.md', 'v1.10/a.md'])).toEqual({ 'v1.9/a.md': 'v1.9' });
    expect(old(['version-1.0/a.md', 'version-2.0/a.md'])).toEqual({ 'version-1.0/a.md': 'version-1.0' });
    expect(old(['1.x/a.md', '2.x/a.md', 'stable/a.md'])).toEqual({ '1.x/a.md': '1.x', '2.x/a.md': '2.x' });
  });

  it('drops everything under versioned_docs and versioned_sidebars', () => {
    expect(
      old(['docs/setup.md', 'versioned_docs/version-2.0/setup.md', 'website/versioned_sidebars/x.md']),
    ).toEqual({
      'versioned_docs/version-2.0/setup.md': 'versioned_docs',
      'website/versioned_sidebars/x.md': 'website/versioned_sidebars',
    });
  });

  it('leaves a lone version folder, years and numbered steps alone', () => {
    expect(old(['api/v1/users.md', 'guides/setup.md'])).toEqual({});
    expect(old(['blog/2023/a.md', 'blog/2024/b.md'])).toEqual({});
    expect(old(['tutorial/1/a.md', 'tutorial/2/b.md'])).toEqual({});
    expect(old(['latest/a.md', 'next/b.md'])).toEqual({});
  });
});

/** A git diff of one file: lines start with ' ', '-' or '+', as in a hunk. */
function filePatch(file: string, lines: string[], start = 60): string {
  const old = lines.filter((line) => !line.startsWith('+')).length;
  const added = lines.filter((line) => !line.startsWith('-')).length;
  return [
    `diff --git a/${file} b/${file}`,
    `--- a/${file}`,
    `+++ b/${file}`,
    `@@ -${start},${old} +${start},${added} @@`,
    ...lines,
    '',
  ].join('\n');
}

/** A builder options interface whose one field changes type, as in a real framework. */
const STATIC_DIR_DIFF = filePatch('packages/fresh/src/dev/builder.ts', [
  '   /** The root directory of the project. */',
  '   root?: string;',
  '   /** Path to the static file directory. */',
  '-  staticDir?: string;',
  '+  staticDir?: string | string[];',
  '   /** Path to the islands directory. */',
  '   islandDir?: string;',
]);

/** The two versions' pages quote the field as it was; only the current one may be listed. */
const OLD_BUILDER_PAGE = [
  '# Server configuration',
  '',
  '```ts',
  'export interface FreshConfig {',
  '  staticDir?: string;',
  '  islandDir?: string;',
  '}',
  '```',
  '',
  '## StaticDir',
  '',
  'Use `staticDir` to serve files from another folder.',
  '',
].join('\n');
const CURRENT_BUILDER_PAGE = [
  '# Builder',
  '',
  '```ts',
  'const builder = new Builder({',
  '  // Path to static file directory. (Default: `<root>/static/`)',
  '  staticDir?: string;',
  '  // Path to island directory. (Default: `<root>/islands`)',
  '  islandDir?: string;',
  '})',
  '```',
  '',
].join('\n');

describe('impact on a docs tree with versions side by side', () => {
  const repository = mkdtempSync(path.join(tmpdir(), 'impact-versions-'));
  afterAll(() => rmSync(repository, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(path.join(repository, file, '..'), { recursive: true });
    writeFileSync(path.join(repository, file), text);
  };
  mkdirSync(path.join(repository, '.git'));
  write('docs/1.x/concepts/server-configuration.md', OLD_BUILDER_PAGE);
  write('docs/1.x/examples/writing-tests.md', OLD_BUILDER_PAGE.replace('# Server configuration', '# Tests'));
  write('docs/latest/advanced/builder.md', CURRENT_BUILDER_PAGE);
  write(
    'docs/latest/concepts/static-files.md',
    '# Static files\n\nFiles in `static/` are served as they are.\n',
  );
  write('docs/canary/the-canary-version.md', '# Canary\n\nThe canary docs follow the main branch.\n');
  write('docs/toc.ts', 'export default {};\n');
  write('packages/fresh/README.md', 'Set `staticDir?: string;` in the builder.\n');

  const listed = (paths: readonly { path: string }[]) => paths.map((page) => page.path).sort();

  it('reads the current version only, whichever folder is named, parent of the versions or higher', async () => {
    expect(listed((await readImpactInput(path.join(repository, 'docs'), '')).pages)).toEqual([
      'latest/advanced/builder.md',
      'latest/concepts/static-files.md',
    ]);
    expect(listed((await readImpactInput(repository, '')).pages)).toEqual([
      'docs/latest/advanced/builder.md',
      'docs/latest/concepts/static-files.md',
    ]);
    // The site model says which version a page belongs to; readImpactPages leaves the old ones out.
    const { repository: files, docsRoot } = folderWithSurroundings(path.join(repository, 'docs'));
    const site = await openDocsSite(files, docsRoot);
    expect(site.pages.get('1.x/concepts/server-configuration.md')?.oldVersion).toBe('1.x');
    expect(site.pages.get('latest/advanced/builder.md')?.oldVersion).toBeUndefined();
    expect(listed(await readImpactPages(files, docsRoot))).toEqual([
      'latest/advanced/builder.md',
      'latest/concepts/static-files.md',
    ]);
  });

  it('lists the current page for a change both versions quote, and never ranks an old copy', async () => {
    for (const folder of [path.join(repository, 'docs'), repository]) {
      const result = analyzeImpact(await readImpactInput(folder, STATIC_DIR_DIFF));
      expect(result.pages.map((page) => page.path).some((page) => /1\.x|canary/.test(page))).toBe(false);
      expect(result.pages.filter((page) => page.affected).map((page) => page.path)).toEqual([
        folder === repository ? 'docs/latest/advanced/builder.md' : 'latest/advanced/builder.md',
      ]);
    }
  });

  it('drops old-version copies handed to analyzeImpact directly, as the site model does', () => {
    const pages = [
      { path: '1.x/concepts/server-configuration.md', text: OLD_BUILDER_PAGE },
      { path: 'latest/advanced/builder.md', text: CURRENT_BUILDER_PAGE },
      { path: 'versioned_docs/version-2.0/builder.md', text: CURRENT_BUILDER_PAGE },
      { path: 'reference/v1/builder.md', text: OLD_BUILDER_PAGE },
      { path: 'reference/v2/builder.md', text: CURRENT_BUILDER_PAGE },
    ];
    const result = analyzeImpact({ diff: STATIC_DIR_DIFF, pages });
    expect(result.pages.map((page) => page.path).sort()).toEqual([
      'latest/advanced/builder.md',
      'reference/v2/builder.md',
    ]);
  });

  it('leaves versioned_docs out for any framework: a Docusaurus site named by its repository, an MkDocs site', async () => {
    write('site/mkdocs.yml', 'site_name: Acme\n');
    write('site/docs/v1/builder.md', OLD_BUILDER_PAGE);
    write('site/docs/v2/builder.md', CURRENT_BUILDER_PAGE);
    write('web/docusaurus.config.js', "module.exports = { baseUrl: '/' };\n");
    write('web/docs/builder.md', CURRENT_BUILDER_PAGE);
    write('web/versioned_docs/version-1.0/builder.md', OLD_BUILDER_PAGE);
    expect(listed((await readImpactInput(path.join(repository, 'site'), '')).pages)).toEqual([
      'docs/v2/builder.md',
    ]);
    const whole = listed((await readImpactInput(repository, '')).pages);
    expect(whole).toContain('web/docs/builder.md');
    expect(whole.filter((page) => /versioned_docs|\/v1\/|1\.x/.test(page))).toEqual([]);
  });
});

describe('docwright impact --check on a docs tree with versions side by side', () => {
  let repo: string;
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
      cwd: repo,
      encoding: 'utf8',
    });
  const write = (file: string, text: string) => {
    mkdirSync(path.join(repo, file, '..'), { recursive: true });
    writeFileSync(path.join(repo, file), text);
  };

  beforeAll(() => {
    repo = mkdtempSync(path.join(tmpdir(), 'docwright-impact-versions-'));
    git('init', '-q', '-b', 'main');
    write('docs/1.x/concepts/server-configuration.md', OLD_BUILDER_PAGE);
    write('docs/latest/advanced/builder.md', CURRENT_BUILDER_PAGE);
    write(
      'packages/fresh/src/dev/builder.ts',
      'export interface BuildOptions {\n  root?: string;\n  staticDir?: string;\n  islandDir?: string;\n}\n',
    );
    git('add', '-A');
    git('commit', '-qm', 'first');
    const source = path.join(repo, 'packages/fresh/src/dev/builder.ts');
    writeFileSync(
      source,
      readFileSync(source, 'utf8').replace('staticDir?: string;', 'staticDir?: string | string[];'),
    );
    git('commit', '-qam', 'several static folders');
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('warns about the current page only, and is satisfied once the current page follows', async () => {
    for (const docs of ['docs', '.']) {
      const stale = await impact(repo, ['--docs', docs, '--range', 'HEAD~1..HEAD', '--check']);
      expect(stale.code, docs).toBe(1);
      expect(stale.stdout).toContain('latest/advanced/builder.md');
      expect(stale.stdout + stale.stderr).not.toContain('1.x');
    }

    const page = path.join(repo, 'docs/latest/advanced/builder.md');
    writeFileSync(
      page,
      readFileSync(page, 'utf8').replace('staticDir?: string;', 'staticDir?: string | string[];'),
    );
    git('commit', '-qam', 'docs follow, the 1.x docs stay as they were');
    for (const docs of ['docs', '.']) {
      const fresh = await impact(repo, ['--docs', docs, '--range', 'HEAD~2..HEAD', '--check']);
      expect(fresh.stderr, docs).toBe('');
      expect(fresh.code, docs).toBe(0);
      expect(fresh.stdout).not.toContain('1.x');
    }
  }, 60_000);
});
