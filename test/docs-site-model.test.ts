import { describe, expect, it } from 'vitest';
import { DocsSearch } from '../src/agent/tools/docs-search.js';
import { PathGuard } from '../src/agent/tools/path-guard.js';
import { buildIndex } from '../src/assistant/docs-indexes.js';
import { checkDocs } from '../src/checks/index.js';
import { docsTreeOf } from '../src/docs/index.js';
import { MemorySnapshot } from '../src/forge/memory-snapshot.js';
import { Overlay } from '../src/forge/overlay.js';
import { parseDocsRoot, WritePolicy } from '../src/write-policy/index.js';

/**
 * One repository whose docs use what Mintlify sites use: navigation split with `$ref`, a
 * `.mintignore`, a snippet imported by a page, a `noindex` page. Every reader of a docs site (the
 * assistant's index, the agent's search, the checks) must see the same site in it.
 */
const REPOSITORY = new MemorySnapshot('c0ffee', [
  ['README.md', '# Project\n\nNot a docs page.'],
  [
    'docs/docs.json',
    JSON.stringify({
      name: 'Acme',
      navigation: { languages: [{ language: 'en', pages: ['index'] }, { $ref: './fr/nav.json' }] },
    }),
  ],
  [
    'docs/fr/nav.json',
    JSON.stringify({ language: 'fr', groups: [{ group: 'Guides', pages: ['fr/webhooks'] }] }),
  ],
  ['docs/.mintignore', 'drafts/\n'],
  ['docs/index.mdx', '---\ntitle: Welcome\n---\n\nimport Limits from "/snippets/limits.mdx"\n\n<Limits />\n'],
  ['docs/snippets/limits.mdx', 'Each key may send 600 requests a minute.\n'],
  ['docs/fr/webhooks.mdx', '---\ntitle: Webhooks\n---\n\nLes webhooks signent chaque livraison.\n'],
  ['docs/drafts/secret-roadmap.mdx', '---\ntitle: Roadmap\n---\n\nThe unannounced quasar feature.\n'],
  ['docs/internal.mdx', '---\ntitle: Internal\nnoindex: true\n---\n\nThe quasar staging host.\n'],
]);

describe('one docs-site model for every reader', () => {
  it("gives the assistant's index the pages of $ref navigation, snippet text, and not what .mintignore or noindex hide", async () => {
    const index = await buildIndex(REPOSITORY, 'docs');
    try {
      expect(index.page('/fr/webhooks')).toMatchObject({ language: 'fr', groups: ['Guides'] });
      expect(index.search('600 requests a minute')[0]?.urlPath).toBe('/');
      expect(index.search('quasar')).toEqual([]);
    } finally {
      index.close();
    }
  });

  it("gives the agent's search_docs the same site: the $ref'd French page is French, hidden pages stay hidden", async () => {
    const search = new DocsSearch(
      new Overlay(REPOSITORY),
      new PathGuard(new WritePolicy({ docsRoot: parseDocsRoot('docs') })),
    );
    try {
      expect(await search.search('600 requests a minute')).toMatch(/^1\. index\.mdx/);
      // Searched in the site's default language, as the assistant searches: the navigation file
      // that says the page is French is only reachable through the `$ref`.
      expect(await search.search('livraison')).toBe('Nothing in the docs matches "livraison".');
      expect(await search.search('quasar')).toBe('Nothing in the docs matches "quasar".');
    } finally {
      search.close();
    }
  });

  it('lets the checks follow the same $ref: a page listed there exists, a missing one is named', async () => {
    const tree = docsTreeOf(REPOSITORY, 'docs');
    expect(await checkDocs(tree)).toEqual([]);
    const broken = new Overlay(REPOSITORY);
    broken.write(
      'docs/fr/nav.json',
      JSON.stringify({ language: 'fr', groups: [{ group: 'Guides', pages: ['fr/webhooks', 'fr/gone'] }] }),
    );
    const problems = await checkDocs(docsTreeOf(broken, 'docs'));
    expect(problems.map((problem) => problem.message)).toEqual([
      expect.stringContaining('the navigation lists "fr/gone"'),
    ]);
  });
});
