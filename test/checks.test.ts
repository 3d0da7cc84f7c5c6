import { describe, expect, it } from 'vitest';
import { checkChanges, checkDocs, isBlocking, type CheckProblem } from '../src/checks/index.js';
import type { DocsTree } from '../src/docs/docs-tree.js';
import { MemorySnapshot } from '../src/forge/memory-snapshot.js';
import { Overlay } from '../src/forge/overlay.js';
import { policyFor } from './helpers/write-policy.js';

function tree(files: Record<string, string>): DocsTree {
  return {
    paths: () => Object.keys(files).sort(),
    read: (path) => Promise.resolve(files[path] ?? ''),
  };
}

/** Problems as `file:line rule` strings, easy to compare whole. */
function brief(problems: CheckProblem[]): string[] {
  return problems.map((problem) => `${problem.file}:${problem.line ?? '-'} ${problem.rule}`);
}

const SITE = {
  'docs.json': JSON.stringify({
    navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup', 'GET /plants'] }] },
    redirects: [{ source: '/old/:slug*', destination: '/guides/:slug*' }],
  }),
  'index.mdx': '---\ntitle: Home\n---\n\nSee [setup](/guides/setup#install) and [below](#more).\n\n## More\n',
  'guides/setup.mdx': [
    '---',
    'title: Setup',
    '---',
    "import Extra from '/snippets/extra.mdx';",
    '',
    '## Install',
    '',
    '<Accordion title="Step one">x</Accordion>',
    '',
    '<Extra />',
  ].join('\n'),
  'snippets/extra.mdx': '## From a snippet\n',
  'images/logo.png': 'png',
};

describe('page checks', () => {
  it('passes a healthy site: links, anchors from headings, titles and snippets, redirects, assets', async () => {
    const files = {
      ...SITE,
      'guides/links.mdx': [
        '[a](/guides/setup#step-one) [b](./setup#from-a-snippet) [c](/old/anything)',
        '![logo](/images/logo.png) [ext](https://example.com/x) [mail](mailto:a@b.c)',
        '<Card href="/guides/setup">card</Card> [bare](setup-not-checked)',
        '```md',
        '[inside code](/nowhere)',
        '```',
        'Inline `[code](/nowhere)` is fine.',
      ].join('\n'),
    };
    expect(await checkDocs(tree(files))).toEqual([]);
  });

  it('reports broken links and anchors with their lines', async () => {
    const files = {
      ...SITE,
      'guides/broken.mdx': [
        '# Broken',
        '[gone](/guides/gone)',
        '[anchor](/guides/setup#uninstall)',
        '[self](#nowhere)',
        '[up](../../outside)',
        '<Card href="/missing-card">x</Card>',
      ].join('\n'),
    };
    const problems = await checkDocs(tree(files));
    expect(brief(problems)).toEqual([
      'guides/broken.mdx:2 broken-link',
      'guides/broken.mdx:3 broken-anchor',
      'guides/broken.mdx:4 broken-anchor',
      'guides/broken.mdx:5 broken-link',
      'guides/broken.mdx:6 broken-link',
    ]);
    expect(problems[0]!.message).toContain('/guides/gone');
  });

  it('reports invalid, unclosed and non-mapping frontmatter', async () => {
    const problems = await checkDocs(
      tree({
        'a.mdx': '---\ntitle: a: b\n---\n# A\n',
        'b.mdx': '---\ntitle: B\n# never closed\n',
        'c.md': '---\n- one\n- two\n---\n# C\n',
      }),
    );
    expect(brief(problems)).toEqual(['a.mdx:2 frontmatter', 'b.mdx:1 frontmatter', 'c.md:1 frontmatter']);
    expect(problems[0]!.message).toContain('not valid YAML');
  });

  it('reports unclosed fences, and MDX the real parser refuses, ignoring tags in code and Markdown', async () => {
    const problems = await checkDocs(
      tree({
        'fence.mdx': '# F\n\n```js\nconst a = 1;\n',
        'steps.mdx': ['<Steps>', '  <Step title="One">', '  text', '</Steps>'].join('\n'),
        'stray.mdx': '# Title\n\nA stray { brace\n',
        'closing.mdx': '# Title\n\n</Card>\n',
        'code.mdx': [
          '```mdx',
          '<Unclosed>',
          '```',
          'Use `<Tabs>` like this.',
          '<img src="/x.png" /> and <br /> close; <a href="/x.png">ok</a>',
        ].join('\n'),
        'plain.md':
          '<p>HTML may stay open in Markdown\n<details><summary>x</summary></details>\n{ not MDX }\n',
      }),
    );
    expect(brief(problems)).toEqual([
      'closing.mdx:3 mdx-syntax',
      'fence.mdx:3 code-fence',
      'steps.mdx:4 mdx-syntax',
      'stray.mdx:3 mdx-syntax',
    ]);
    expect(problems[0]!.message).toMatch(/^the MDX does not parse: Unexpected closing slash/);
    expect(problems[2]!.message).toContain('expected corresponding closing tag for `<Step>`');
    expect(problems[3]!.message).toContain('closing brace for `{`');
  });

  it('checks the navigation: listed pages exist, OpenAPI entries are skipped, the JSON parses', async () => {
    const missing = await checkDocs(
      tree({
        ...SITE,
        'docs.json': JSON.stringify({ navigation: [{ group: 'G', pages: ['index', 'nope'] }] }),
      }),
    );
    expect(missing.map((problem) => problem.message)).toEqual([
      'the navigation lists "nope" (group "G"), but no page file is there',
    ]);
    const invalid = await checkDocs(tree({ 'index.mdx': '# Home\n', 'mint.json': '{ "navigation": [' }));
    expect(brief(invalid)).toEqual(['mint.json:- navigation']);
  });
});

describe('frontmatter links', () => {
  it('checks a link the frontmatter gives (a Starlight hero action) on its own line', async () => {
    const page =
      '---\ntitle: Home\nhero:\n  actions:\n    - text: Go\n      link: /gone/\n    - text: Here\n      link: /\n---\n# Home\n';
    const problems = await checkDocs(tree({ 'index.mdx': page }));
    expect(problems.map((problem) => [problem.rule, problem.line, problem.target])).toEqual([
      ['broken-link', 6, '/gone'],
    ]);
  });
});

describe('checks of a change', () => {
  function repository(files: Record<string, string>) {
    const snapshot = new MemorySnapshot('base', Object.entries(files));
    return { files: new Overlay(snapshot), base: new Overlay(snapshot) };
  }

  it('blames the change only for what it broke, and finds links elsewhere to a deleted page', async () => {
    const { files, base } = repository({
      'README.md': '# Repo\n',
      'docs/docs.json': JSON.stringify({ navigation: [{ group: 'G', pages: ['index', 'old'] }] }),
      'docs/index.mdx': '# Home\n\n[old](/old) [already broken](/never)\n',
      'docs/old.mdx': '# Old\n',
    });
    files.write('docs/index.mdx', '# Home\n\nNew text. [already broken](/never) [new broken](/typo)\n');
    files.delete('docs/old.mdx');
    files.write('docs/other.mdx', '# Other\n\n[old](/old)\n');
    files.write('README.md', '# Changed outside\n');
    const problems = await checkChanges({
      files,
      base,
      policy: policyFor('docs'),
      changes: await files.changes(),
    });
    expect(brief(problems)).toEqual([
      'docs/docs.json:- navigation',
      'docs/index.mdx:3 broken-link',
      'docs/other.mdx:- missing-title',
      'docs/other.mdx:3 deleted-page-linked',
      'README.md:- write-policy',
    ]);
    expect(problems[1]!.message).toContain('/typo');
    expect(problems[3]!.message).toBe('links to /old, a page this change deletes');
    expect(problems.map(isBlocking)).toEqual([true, false, false, true, true]);
  });

  it('judges .md pages as Markdown and only changed pages as MDX', async () => {
    const { files, base } = repository({
      'index.mdx': '---\ntitle: Home\n---\n\nAn old <Unclosed> page nobody touched.\n',
      'notes.md': '---\ntitle: Notes\n---\n\nOld.\n',
    });
    files.write('notes.md', '---\ntitle: Notes\n---\n\nNew { braces } and <b>open HTML.\n');
    expect(await checkChanges({ files, base, policy: policyFor(), changes: await files.changes() })).toEqual(
      [],
    );
    files.write('index.mdx', '---\ntitle: Home\n---\n\nAn old <Unclosed> page, now touched.\n');
    const problems = await checkChanges({ files, base, policy: policyFor(), changes: await files.changes() });
    // It was already broken: the change did not introduce it, so it is not blamed.
    expect(problems).toEqual([]);
    files.write('index.mdx', '---\ntitle: [broken\n---\n\nAn old <Unclosed> page, now touched.\n');
    const broken = await checkChanges({ files, base, policy: policyFor(), changes: await files.changes() });
    expect(brief(broken)).toEqual(['index.mdx:3 frontmatter']);
  });

  it('finds nothing when the change is clean', async () => {
    const { files, base } = repository({ 'index.mdx': '# Home\n', 'a.mdx': '# A\n\n[home](/)\n' });
    files.write('a.mdx', '# A\n\n[home](/) [self](#a)\n');
    expect(await checkChanges({ files, base, policy: policyFor(), changes: await files.changes() })).toEqual(
      [],
    );
  });
});
