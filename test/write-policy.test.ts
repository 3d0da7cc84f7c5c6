import { describe, expect, it } from 'vitest';
import { parseDocsRoot, WritePolicy, type WritePolicyOptions } from '../src/write-policy/index.js';

const symlinks = new Set(['docs/linked', 'docs/page-link.mdx']);
const isSymlink = (path: string) => symlinks.has(path);

type Settings = Omit<WritePolicyOptions, 'docsRoot'> & { docsRoot: string };
const docsFolder: Settings = { docsRoot: 'docs', isSymlink };
const rootDocs: Settings = { docsRoot: '' };

/** path × settings → true (allowed) or a piece of the reason it is refused. */
const cases: Array<[string, Settings, true | RegExp]> = [
  ['docs/guides/setup.mdx', docsFolder, true],
  ['docs/images/logo.png', docsFolder, true],
  ['docs/README.md', docsFolder, true],
  ['docs/../README.md', docsFolder, /"\.\."/],
  ['../outside.md', docsFolder, /"\.\."/],
  ['/etc/passwd', docsFolder, /absolute/],
  ['C:/docs/x.md', docsFolder, /absolute/],
  ['~/x.md', docsFolder, /absolute/],
  ['docs/%2e%2e/README.md', docsFolder, /percent-encoded/],
  ['docs/%2E%2E%2Fx.md', docsFolder, /percent-encoded/],
  ['docs\\..\\README.md', docsFolder, /backslash/],
  ['docs\\guides\\a.md', docsFolder, /backslash/],
  ['docs\u2215..\u2215README.md', docsFolder, /looks like/],
  ['docs\uFF0Fa.md', docsFolder, /looks like/],
  ['docs\u2044a.md', docsFolder, /looks like/],
  ['docs/a\u200B.md', docsFolder, /invisible/],
  ['docs/a\0.md', docsFolder, /control character/],
  ['docs/linked/page.mdx', docsFolder, /symbolic link/],
  ['docs/page-link.mdx', docsFolder, /symbolic link/],
  ['.github/workflows/ci.yml', docsFolder, /never written/],
  ['.GitHub/workflows/ci.yml', docsFolder, /never written/],
  ['.GITHUB/x.md', rootDocs, /never written/],
  ['docs/.github/x.md', docsFolder, /never written/],
  ['.git/config', rootDocs, /never written/],
  ['GIT~1/config.md', rootDocs, /short name/],
  ['docs/GITHUB~1/a.md', docsFolder, /short name/],
  ['.git./config', rootDocs, /ends with a dot/],
  ['docs/a.md::$DATA', docsFolder, /colon/],
  ['docs/.vale/styles.yml', docsFolder, /dot-folder/],
  ['.docwright/settings.md', rootDocs, /dot-folder/],
  ['docs/.gitattributes', docsFolder, /dot-file/],
  ['AGENTS.md', rootDocs, /agent's own instructions/],
  ['docs/AGENTS.md', docsFolder, /agent's own instructions/],
  ['agents.md', { ...rootDocs, writable: ['*.md'] }, /agent's own instructions/],
  ['README.md', docsFolder, /outside the docs folder docs\//],
  ['src/index.ts', docsFolder, /outside the docs folder/],
  ['docs/node_modules/x/README.md', docsFolder, /node_modules/],
  // The docs root as typed: with and without slashes, all one folder.
  ['docs/a.mdx', { docsRoot: 'docs/' }, true],
  ['docs/a.mdx', { docsRoot: './docs/' }, true],
  ['docs/a.mdx', { docsRoot: '/docs' }, true],
  ['other/a.mdx', { docsRoot: 'docs/' }, /outside the docs folder docs\//],
  // A repository-root docs root: documentation files only.
  ['index.mdx', rootDocs, true],
  ['guides/setup.md', rootDocs, true],
  ['docs.json', rootDocs, true],
  ['mint.json', rootDocs, true],
  ['images/logo.svg', rootDocs, true],
  ['snippets/card.jsx', rootDocs, true],
  ['README.md', rootDocs, /repository file.*writable:/],
  ['readme.md', rootDocs, /repository file/],
  ['LICENSE', rootDocs, /repository file/],
  ['CONTRIBUTING.md', rootDocs, /repository file/],
  ['CHANGELOG.md', rootDocs, /repository file/],
  ['package.json', rootDocs, /repository file/],
  ['package-lock.json', rootDocs, /repository file/],
  ['pnpm-lock.yaml', rootDocs, /repository file/],
  ['yarn.lock', rootDocs, /repository file/],
  ['src/index.ts', rootDocs, /not a documentation file/],
  ['openapi.yaml', rootDocs, /not a documentation file/],
  // `writable:` globs open files the defaults refuse, never the hard rules.
  ['README.md', { ...rootDocs, writable: ['README.md'] }, true],
  ['CHANGELOG.md', { ...rootDocs, writable: ['README.md'] }, /repository file/],
  ['openapi.yaml', { ...rootDocs, writable: ['*.yaml'] }, true],
  ['README.md', { ...docsFolder, writable: ['README.md'] }, true],
  ['.github/workflows/ci.yml', { ...rootDocs, writable: ['**'] }, /never written/],
  ['.docwright/x.md', { ...rootDocs, writable: ['**'] }, /dot-folder/],
  ['AGENTS.md', { ...rootDocs, writable: ['**'] }, /agent's own instructions/],
  ['docs/linked/a.md', { ...docsFolder, writable: ['**'] }, /symbolic link/],
];

describe('the write policy', () => {
  it.each(cases)('%j with %j -> %s', (path, settings, expected) => {
    const policy = new WritePolicy({ ...settings, docsRoot: parseDocsRoot(settings.docsRoot) });
    const verdict = policy.check(path);
    if (expected === true) {
      expect(verdict).toMatchObject({ allowed: true });
    } else {
      expect(verdict.allowed).toBe(false);
      expect(verdict.allowed ? '' : verdict.reason).toMatch(expected);
    }
  });

  it('reads a docs root once, whatever the slashes, and refuses roots that cannot hold docs', () => {
    for (const typed of ['docs', 'docs/', './docs', '/docs/', ' docs '])
      expect(parseDocsRoot(typed)).toBe('docs');
    for (const typed of ['', '.', './', '/']) expect(parseDocsRoot(typed)).toBe('');
    expect(parseDocsRoot('site//docs/')).toBe('site/docs');
    expect(() => parseDocsRoot('../docs')).toThrow(/"\.\."/);
    expect(() => parseDocsRoot('.github')).toThrow(/never written/);
    expect(() => parseDocsRoot('.docs')).toThrow(/dot-folders/);
    expect(() => parseDocsRoot('docs\\guides')).toThrow(/backslash/);
  });
});
