/**
 * `docwright impact` as a CI step runs it: the real program in a child process, on a git
 * repository made for the test, with diffs given as a file, on stdin and as a range.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_SYNC_DIR, hasDocsSyncCases, loadDocsSyncCases } from '../bench/docs-sync-cases.js';
import { ENV_PAGE, OPTIONS_PAGE } from './fixtures/sync-pages.js';
import { impact } from './helpers/impact-cli.js';

const gitIn =
  (cwd: string) =>
  (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
      cwd,
      encoding: 'utf8',
    });

describe('docwright impact', () => {
  let repo: string;
  let git: ReturnType<typeof gitIn>;
  let renameDiff: string;

  beforeAll(() => {
    repo = mkdtempSync(path.join(tmpdir(), 'docwright-impact-'));
    git = gitIn(repo);
    git('init', '-q', '-b', 'main');
    mkdirSync(path.join(repo, 'docs/reference'), { recursive: true });
    mkdirSync(path.join(repo, 'src'));
    writeFileSync(path.join(repo, 'docs/reference/options.md'), OPTIONS_PAGE);
    writeFileSync(path.join(repo, 'docs/environment.mdx'), ENV_PAGE);
    writeFileSync(path.join(repo, 'docs/intro.md'), '---\ntitle: Intro\n---\n\nWelcome to the client.\n');
    writeFileSync(
      path.join(repo, 'src/options.ts'),
      'export const defaults = {\n  maxRetries: 3,\n  timeout: 10,\n};\n',
    );
    writeFileSync(path.join(repo, 'src/token.ts'), 'export const token = process.env.APP_TOKEN;\n');
    git('add', '-A');
    git('commit', '-qm', 'first');
    writeFileSync(
      path.join(repo, 'src/options.ts'),
      'export const defaults = {\n  retryLimit: 3,\n  timeout: 10,\n};\n',
    );
    git('commit', '-qam', 'rename maxRetries');
    renameDiff = git('diff', 'HEAD~1', 'HEAD');
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('lists the page that names a renamed option, with the diff line and the page line', async () => {
    writeFileSync(path.join(repo, 'change.diff'), renameDiff);
    const { stdout, code } = await impact(repo, ['--docs', 'docs', '--patch', 'change.diff']);
    expect(code).toBe(0);
    // The page that documents the command shows this very output.
    const page = readFileSync('docs/impact.mdx', 'utf8');
    const shown = /```text\n([\s\S]*?)```/.exec(page)?.[1];
    expect(stdout).toBe(shown);
    expect(stdout).not.toContain('environment.mdx');
    expect(stdout).not.toContain('intro.md');
  });

  it('prints exactly {needsDocs, chance, pages:[{path, score, affected, evidence}]} with --json, reading the diff from stdin', async () => {
    const { stdout, code } = await impact(repo, ['--docs', 'docs', '--patch', '-', '--json'], renameDiff);
    expect(code).toBe(0);
    const output = JSON.parse(stdout) as {
      needsDocs: boolean;
      chance: number;
      pages: { path: string; score: number; affected: boolean; evidence: unknown[] }[];
    };
    expect(Object.keys(output)).toEqual(['needsDocs', 'chance', 'pages']);
    expect(output.pages.map((page) => Object.keys(page))).toEqual([
      ['path', 'score', 'affected', 'evidence'],
    ]);
    expect(output.pages[0]!.affected).toBe(true);
    expect(output.pages[0]).toMatchObject({
      path: 'reference/options.md',
      score: expect.any(Number),
      evidence: expect.arrayContaining([
        expect.objectContaining({
          kind: 'name',
          name: 'maxRetries',
          change: 'renamed',
          renamedTo: 'retryLimit',
          diffLine: { file: 'src/options.ts', line: 2, text: 'maxRetries: 3,' },
          pageLine: { line: 5, text: '## maxRetries' },
        }),
      ]),
    });
  });

  it('reads a commit range of the repository it runs in, and orders pages most affected first', async () => {
    writeFileSync(path.join(repo, 'src/token.ts'), 'export const token = readToken();\n');
    writeFileSync(
      path.join(repo, 'src/options.ts'),
      'export const defaults = {\n  retryLimit: 3,\n  timeout: 30,\n};\n',
    );
    git('commit', '-qam', 'token from a file, longer timeout');
    const { stdout, code } = await impact(path.join(repo, 'src'), [
      '--docs',
      '../docs',
      '--range',
      'HEAD~2..HEAD',
      '--json',
    ]);
    expect(code).toBe(0);
    const pages = (JSON.parse(stdout) as { pages: { path: string; score: number }[] }).pages;
    expect(pages.map((page) => page.path).sort()).toEqual(['environment.mdx', 'reference/options.md']);
    expect(pages[0]!.score).toBeGreaterThanOrEqual(pages[1]!.score);

    const limited = await impact(repo, [
      '--docs',
      'docs',
      '--range',
      'HEAD~2..HEAD',
      '--json',
      '--limit',
      '1',
    ]);
    expect((JSON.parse(limited.stdout) as { pages: unknown[] }).pages).toEqual([pages[0]]);
    git('reset', '-q', '--hard', 'HEAD~1');
  });

  it('with --check, exits 1 and names the stale page; exits 0 once the same diff changes it', async () => {
    const stale = await impact(repo, ['--docs', 'docs', '--range', 'HEAD~1..HEAD', '--check']);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain('reference/options.md');
    expect(stale.stderr).toBe(
      'docwright impact: docs may be stale: reference/options.md is affected by the change but not changed with it.\n',
    );

    const page = path.join(repo, 'docs/reference/options.md');
    writeFileSync(page, readFileSync(page, 'utf8').replaceAll('maxRetries', 'retryLimit'));
    git('commit', '-qam', 'docs follow');
    const fresh = await impact(repo, ['--docs', 'docs', '--range', 'HEAD~2..HEAD', '--check']);
    expect(fresh.stderr).toBe('');
    expect(fresh.code).toBe(0);
    git('reset', '-q', '--hard', 'HEAD~1');
  });

  it('says so, exits 0 and lists nothing for a change that touches only tests and the lockfile', async () => {
    const diff = [
      'diff --git a/test/options.test.ts b/test/options.test.ts',
      '--- a/test/options.test.ts',
      '+++ b/test/options.test.ts',
      '@@ -1 +1 @@',
      '-expect(defaults.maxRetries).toBe(3)',
      '+expect(defaults.retryLimit).toBe(3)',
      'diff --git a/package-lock.json b/package-lock.json',
      '--- a/package-lock.json',
      '+++ b/package-lock.json',
      '@@ -1 +1 @@',
      '-"APP_TOKEN": 1',
      '+"APP_TOKEN": 2',
      '',
    ].join('\n');
    const text = await impact(repo, ['--docs', 'docs', '--patch', '-', '--check'], diff);
    expect(text).toEqual({ stdout: 'No docs page is affected by this change.\n', stderr: '', code: 0 });
    const json = await impact(repo, ['--docs', 'docs', '--patch', '-', '--json'], diff);
    expect(JSON.parse(json.stdout)).toEqual({ needsDocs: false, chance: 0, pages: [] });
  });

  it('with --all, shows every page with evidence, best first, the listed ones marked affected', async () => {
    // A second docs tree with a guide that talks about the same options without naming the renamed one.
    mkdirSync(path.join(repo, 'site/reference'), { recursive: true });
    writeFileSync(path.join(repo, 'site/reference/options.md'), OPTIONS_PAGE);
    writeFileSync(
      path.join(repo, 'site/tuning.md'),
      '# Tuning\n\nThe client defaults suit most networks. Raise the `timeout` option on slow links; the\noptions page lists every default.\n',
    );
    const args = ['--docs', 'site', '--patch', '-', '--json'];
    const listed = await impact(repo, args, renameDiff);
    const all = await impact(repo, [...args, '--all'], renameDiff);
    expect(all.code).toBe(0);
    const pages = (JSON.parse(all.stdout) as { pages: { path: string; score: number; affected: boolean }[] })
      .pages;
    // The rename's page is listed; the environment page shares only the module's words.
    expect(pages.map((page) => [page.path, page.affected])).toEqual([
      ['reference/options.md', true],
      ...pages.slice(1).map((page) => [page.path, false]),
    ]);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.map((page) => page.score)).toEqual(
      [...pages.map((page) => page.score)].sort((a, b) => b - a),
    );
    const affected = pages.filter((page) => page.affected);
    expect((JSON.parse(listed.stdout) as { pages: unknown[] }).pages).toEqual(affected);
    const text = await impact(repo, ['--docs', 'site', '--patch', '-', '--all'], renameDiff);
    expect(text.stdout).toContain(`${pages[1]!.path}  ${pages[1]!.score.toFixed(2)}  (not affected)`);
    expect(text.stdout).not.toContain('reference/options.md  1.00  (not affected)');
  });

  it.each([
    [['--patch', 'change.diff'], "error: required option '--docs <dir>' not specified"],
    [
      ['--docs', 'docs'],
      'docwright impact: give the change either as --patch <file|-> or as --range <base>..<head>.',
    ],
    [
      ['--docs', 'docs', '--patch', '-', '--range', 'HEAD~1..HEAD'],
      'docwright impact: give the change either as --patch <file|-> or as --range <base>..<head>.',
    ],
    [
      ['--docs', 'docs', '--patch', 'missing.diff'],
      'docwright impact: the patch file missing.diff does not exist.',
    ],
    [['--docs', 'nowhere', '--patch', '-'], 'docwright impact: The docs folder nowhere does not exist.'],
    [
      ['--docs', 'docs', '--range', 'HEAD'],
      'docwright impact: --range takes <base>..<head>, such as origin/main..HEAD; got "HEAD".',
    ],
    [
      ['--docs', 'docs', '--range', 'nope..HEAD'],
      'docwright impact: git diff nope..HEAD failed: fatal: bad revision',
    ],
    [
      ['--docs', 'docs', '--patch', '-', '--limit', 'two'],
      "error: option '--limit <n>' argument 'two' is invalid.",
    ],
  ])('refuses %j with a sentence on stderr and exit status 2', async (args, message) => {
    const { stdout, stderr, code } = await impact(repo, args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.startsWith(message)).toBe(true);
  });

  it('shows examples in its --help', async () => {
    const { stdout, code } = await impact(repo, ['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/\nExamples:\n {2}\$ git diff main \| docwright impact --docs docs --patch -\n/);
  });
});

describe('docwright impact on real histories', () => {
  const ids = ['undici-1918731333', 'neg-fastify-49272d1fd6'];
  const present = hasDocsSyncCases();
  if (!present) console.log(`No docs-sync cases at ${DOCS_SYNC_DIR}: the real-history tests are skipped.`);

  it.skipIf(!present)(
    'lists the pages the maintainers changed, and nothing on a change that needed none',
    async () => {
      const folder = mkdtempSync(path.join(tmpdir(), 'docwright-impact-cases-'));
      try {
        for (const testCase of await loadDocsSyncCases(DOCS_SYNC_DIR, ids)) {
          const root = path.join(folder, testCase.id);
          for (const file of testCase.files) {
            mkdirSync(path.dirname(path.join(root, file.path)), { recursive: true });
            writeFileSync(path.join(root, file.path), file.text);
          }
          const { stdout, code } = await impact(
            folder,
            ['--docs', testCase.id, '--patch', '-', '--json'],
            testCase.patch,
          );
          expect(code).toBe(0);
          const listed = (JSON.parse(stdout) as { pages: { path: string }[] }).pages.map((page) => page.path);
          if (testCase.expected.length === 0) expect(listed, testCase.id).toEqual([]);
          else
            expect(
              listed.filter((page) => testCase.expected.includes(page)),
              testCase.id,
            ).not.toEqual([]);
        }
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
