import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DocsIndex } from '../src/docs/docs-index.js';
import { readDocsFolder } from '../src/docs/read-docs-folder.js';
import { readDocsSite } from '../src/docs/site-files.js';

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
const corpusPath = resolve(repositoryRoot, '../shared/corpora/mintlify-docs');
const corpusMissing = !existsSync(corpusPath);

const corpus = corpusMissing
  ? await readDocsSite({ paths: () => [], read: () => Promise.resolve('') })
  : await readDocsFolder(corpusPath);

if (corpusMissing) console.warn(`Skipping the mintlify corpus tests: ${corpusPath} does not exist.`);

describe.skipIf(corpusMissing)('the mintlify docs corpus (../shared/corpora/mintlify-docs)', () => {
  const index = DocsIndex.fromSite(corpus);
  afterAll(() => index.close());

  it('indexes every page in its language, snippets and dot-folders left out', () => {
    const stats = index.stats;
    expect(stats.pages).toBeGreaterThan(1000);
    expect(stats.sections).toBeGreaterThan(5000);
    expect(Object.keys(stats.languages).sort()).toEqual(['en', 'es', 'fr', 'zh']);
    expect(index.page('/snippets/icons-optional')).toBeUndefined();
    expect(index.page('/quickstart')).toMatchObject({
      title: 'Quickstart',
      groups: ['Get started'],
      tab: 'Documentation',
    });
  });

  it.each([
    ['How do I add a custom domain?', '/customize/custom-domain'],
    ['What Node version does the CLI need?', '/cli/install'],
    ['How do I hide a page from the navigation?', '/organize/hidden-pages'],
    ['Set up redirects for moved pages', '/create/redirects'],
    ['How do I make collapsible accordion sections?', '/components/accordions'],
  ])('finds the page answering %j', (question, page) => {
    const pages = index.search(question, { limit: 5 }).map((hit) => hit.urlPath);
    expect(pages).toContain(page);
  });

  it('answers in the language of the page the reader is on', () => {
    const hits = index.search('installer la CLI', { currentPath: '/fr/quickstart' });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.language === 'fr')).toBe(true);
  });

  it('filters by navigation group', () => {
    const hits = index.search('colors', { filter: { groups: ['Components'] } });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.groups.includes('Components'))).toBe(true);
  });
});
