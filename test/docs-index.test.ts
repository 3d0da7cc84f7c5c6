import { afterAll, describe, expect, it } from 'vitest';
import { DocsIndex } from '../src/docs/docs-index.js';
import { matchExpression, neighbourExpressions, queryTerms } from '../src/docs/fts-query.js';
import { preferHeadedSections } from '../src/docs/page-scores.js';

const navigation = {
  navigation: {
    languages: [
      {
        language: 'en',
        tabs: [
          {
            tab: 'Guides',
            groups: [
              { group: 'Get started', pages: ['index', 'guides/install', 'guides/deploy'] },
              { group: 'Customize', pages: ['guides/themes', 'guides/domains'] },
            ],
          },
        ],
      },
      { language: 'fr', groups: [{ group: 'Démarrer', pages: ['fr/guides/install'] }] },
    ],
  },
};

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

const files = [
  { path: 'docs/index.mdx', content: page('Welcome', 'Welcome to the Acme docs.') },
  {
    path: 'docs/guides/install.mdx',
    content: page(
      'Install',
      '## Requirements\n\nNode 20.\n\n## Install the CLI\n\nRun `npm i -g acme` to install.',
    ),
  },
  {
    path: 'docs/guides/deploy.mdx',
    content: page('Deploy', '## Region\n\nConfigure the region in acme.json.'),
  },
  { path: 'docs/guides/themes.mdx', content: page('Themes', 'Configure the fonts in acme.json.') },
  { path: 'docs/guides/domains.mdx', content: page('Custom domains', 'Point a CNAME record at Acme.') },
  { path: 'docs/fr/guides/install.mdx', content: page('Installation', 'Installez la CLI avec npm.') },
  { path: 'docs/v1/guides/install.mdx', content: page('Install (v1)', 'Install the legacy CLI.') },
  { path: 'docs/hidden/faq.mdx', content: page('FAQ', 'Questions about the CLI and npm.') },
  { path: 'docs/snippets/shared.mdx', content: 'snippet text about npm' },
  { path: 'src/not-docs.mdx', content: 'npm' },
];

describe('DocsIndex', () => {
  const index = DocsIndex.build(files, { docsRoot: 'docs', navigation });
  afterAll(() => index.close());

  it('indexes the pages under the docs root, navigation or not, snippets excluded', () => {
    expect(index.stats).toMatchObject({ pages: 8, languages: { en: 7, fr: 1 } });
    expect(index.page('/hidden/faq')).toMatchObject({ title: 'FAQ', groups: [], language: 'en' });
    expect(index.page('guides/install')).toMatchObject({ groups: ['Get started'], tab: 'Guides' });
  });

  it('returns sections with page, anchor, heading chain and a weighted score', () => {
    const [hit] = index.search('how do I install the CLI?');
    expect(hit).toMatchObject({
      urlPath: '/guides/install',
      anchor: 'install-the-cli',
      url: '/guides/install#install-the-cli',
      pageTitle: 'Install',
      heading: 'Install the CLI',
      headings: ['Install the CLI'],
      language: 'en',
      groups: ['Get started'],
    });
    expect(hit!.body).toContain('npm i -g acme');
    expect(hit!.score).toBeGreaterThan(0);
  });

  it('ranks a title match above a body match', () => {
    const urls = index.search('themes').map((hit) => hit.urlPath);
    expect(urls[0]).toBe('/guides/themes');
  });

  it('searches the default language unless told otherwise, or the language of the current page', () => {
    expect(index.search('npm').every((hit) => hit.language === 'en')).toBe(true);
    expect(index.search('installez', { filter: { language: 'fr' } })[0]?.urlPath).toBe('/fr/guides/install');
    expect(index.search('npm', { currentPath: '/fr/guides/install' })[0]?.urlPath).toBe('/fr/guides/install');
  });

  it('filters by navigation groups and by version', () => {
    const grouped = index.search('configure acme', { filter: { groups: ['Customize'] } });
    expect(grouped.map((hit) => hit.urlPath).sort()).toEqual(['/guides/domains', '/guides/themes']);
    expect(index.search('configure', { filter: { groups: ['Nope'] } })).toEqual([]);
    expect(index.search('install', { filter: { groups: [] } }).length).toBeGreaterThan(0);

    const versioned = DocsIndex.build(files, {
      docsRoot: 'docs',
      navigation: {
        navigation: {
          versions: [
            { version: 'v2', groups: [{ group: 'Guides', pages: ['guides/install'] }] },
            { version: 'v1', groups: [{ group: 'Guides', pages: ['v1/guides/install'] }] },
          ],
        },
      },
    });
    const v1 = versioned.search('install cli', { filter: { version: 'v1' } }).map((hit) => hit.urlPath);
    // Pages outside any version (the FAQ) are shared by all versions.
    expect(v1).toEqual(['/v1/guides/install', '/hidden/faq']);
    const v2 = versioned.search('install cli', { filter: { version: 'v2' } }).map((hit) => hit.urlPath);
    expect(v2).not.toContain('/v1/guides/install');
    versioned.close();
  });

  it("cuts snippets around the query words, or gives each section's opening when asked for none", () => {
    const long = `${'Intro words fill the opening of this section. '.repeat(12)}The fonts live in acme.json.`;
    const sized = DocsIndex.build([{ path: 'guides/fonts.mdx', content: page('Fonts', long) }]);
    const [cut] = sized.search('fonts acme.json');
    expect(cut!.snippet).toContain('acme.json');
    expect(cut!.snippet.startsWith('Intro')).toBe(false);
    const [opening] = sized.search('fonts acme.json', { snippets: false });
    expect(opening!.snippet).toBe(long.slice(0, 200));
    expect(opening!.body).toBe(cut!.body);
    sized.close();
  });

  it('finds the same sections with and without a filter that restricts nothing', () => {
    const plain = index.search('configure acme.json install', { limit: 10 });
    const everyGroup = index.search('configure acme.json install', {
      limit: 10,
      filter: { groups: ['Get started', 'Customize'] },
    });
    expect(everyGroup.map((hit) => [hit.url, hit.score])).toEqual(
      plain.filter((hit) => hit.groups.length > 0).map((hit) => [hit.url, hit.score]),
    );
  });

  it('limits the number of sections and of sections per page', () => {
    expect(index.search('install', { limit: Number.NaN }).length).toBeGreaterThan(0);
    expect(index.search('install', { limit: 0 })).toHaveLength(1);
    expect(index.search('install cli npm node', { limit: 1 })).toHaveLength(1);
    const hits = index.search('install cli npm node requirements', { limit: 10, maxPerPage: 1 });
    expect(new Set(hits.map((hit) => hit.urlPath)).size).toBe(hits.length);
  });

  it('boosts the current page and its neighbours', () => {
    const query = 'configure acme.json';
    const plain = index.search(query).map((hit) => hit.urlPath);
    const fromThemes = index.search(query, { currentPath: 'https://docs.acme.dev/guides/themes#top' });
    expect(fromThemes[0]!.urlPath).toBe('/guides/themes');
    const fromDeploy = index.search(query, { currentPath: '/guides/deploy' });
    expect(fromDeploy[0]!.urlPath).toBe('/guides/deploy');
    expect(plain).toContain('/guides/themes');
    expect(plain).toContain('/guides/deploy');
    // Scores carry the boost; the lexical score, which compares the hits of one search, does not.
    const boosted = fromDeploy[0]!;
    const unboosted = index.search(query).find((hit) => hit.url === boosted.url)!;
    expect(boosted.score).toBeGreaterThan(unboosted.score);
    expect(boosted.lexicalScore).toBeCloseTo(unboosted.lexicalScore!, 9);
    // The boost only reorders matches: an unrelated current page adds nothing.
    expect(index.search('cname', { currentPath: '/guides/install' }).map((hit) => hit.urlPath)).toEqual([
      '/guides/domains',
    ]);
  });

  it('searches within some pages alike whether their sections lie together or apart', () => {
    // Sections of a few pages are read by ranges of ids when they lie in a few runs, by the
    // general query when they are spread out: both find the same sections, scored the same.
    const north = (n: number) => ({
      path: `north/page-${n}.mdx`,
      content: page(`North ${n}`, `Regional settings ${'gateway '.repeat(n)}for the north.`),
    });
    const south = (n: number) => ({
      path: `south/page-${n}.mdx`,
      content: page(`South ${n}`, 'Gateway regional settings for the south.'),
    });
    const numbers = [1, 2, 3, 4, 5, 6];
    const together = DocsIndex.build([...numbers.map(north), ...numbers.map(south)]);
    const apart = DocsIndex.build(numbers.flatMap((n) => [south(n), north(n)]));
    const within = (site: DocsIndex) =>
      site
        .search('gateway regional settings', {
          limit: 10,
          withinPaths: numbers.map((n) => `/north/page-${n}`),
        })
        .map((hit) => [hit.urlPath, hit.score.toFixed(6)]);
    const found = within(together);
    expect(found.map(([path]) => path).sort()).toEqual(numbers.map((n) => `/north/page-${n}`));
    expect(within(apart)).toEqual(found);
    // A page named twice is searched once.
    const twice = together.search('gateway regional settings', {
      limit: 10,
      withinPaths: ['/north/page-1', '/north/page-1/', '/north/page-2'],
    });
    expect(twice.map((hit) => hit.urlPath).sort()).toEqual(['/north/page-1', '/north/page-2']);
    together.close();
    apart.close();
  });

  it('answers "what is this page about" from the current page when the query has no words', () => {
    expect(index.search('what is this?', { currentPath: '/guides/domains' })[0]?.urlPath).toBe(
      '/guides/domains',
    );
    expect(index.search('what is this?')).toEqual([]);
  });

  it.each([
    "what's `foo`?",
    'a OR (b',
    '"',
    '*',
    'NEAR',
    'NEAR(install cli)',
    'install AND NOT cli',
    'title:install',
    '^install',
    'install*',
    '🎉🎉',
    '',
    'how do I do it?',
    '-- ; DROP TABLE pages; --',
    '\u0000',
  ])('never fails on the query %j', (query) => {
    expect(() => index.search(query)).not.toThrow();
  });

  it('treats operators typed by a reader as words', () => {
    expect(index.search('NEAR(install cli)')[0]?.urlPath).toBe('/guides/install');
    expect(index.search('title:install')[0]?.urlPath).toBe('/guides/install');
  });

  it('tells whether given pages hold two neighbouring words of a question side by side', () => {
    // "install the CLI" is a phrase of the install page; "region" and "fonts" are each on a page,
    // never together; "cname record" is on the domains page only.
    expect(index.holdsPhrase('how do I install the CLI?', ['/guides/install'])).toBe(true);
    expect(index.holdsPhrase('the CLI install fails', ['/guides/install'])).toBe(true);
    expect(index.holdsPhrase('region fonts', ['/guides/deploy', '/guides/themes'])).toBe(false);
    expect(index.holdsPhrase('add a CNAME record', ['/guides/install'])).toBe(false);
    expect(index.holdsPhrase('add a CNAME record', ['/guides/install', '/guides/domains'])).toBe(true);
    // One word is no pair: nothing to judge by.
    expect(index.holdsPhrase('install', [])).toBe(true);
    expect(index.holdsPhrase('NEAR("install" "cli") AND', ['/guides/install'])).toBe(true);
  });

  it('throws after close', () => {
    const other = DocsIndex.build(files.slice(0, 2), { docsRoot: 'docs' });
    other.close();
    expect(() => other.search('install')).toThrow(/closed/);
  });
});

describe('DocsIndex on a small site', () => {
  const index = DocsIndex.build(
    [
      {
        path: 'docs/quickstart.mdx',
        content: page('Quickstart', 'Clone the repository, run `npm ci`, then `npm start`.'),
      },
      { path: 'docs/deploy.mdx', content: page('Deploy', 'Build the container and run it with a volume.') },
    ],
    { docsRoot: 'docs' },
  );
  afterAll(() => index.close());

  it('finds the quickstart for "install" in a site whose quickstart never says install', () => {
    expect(index.search('How do I install it?')[0]?.urlPath).toBe('/quickstart');
  });
});

describe('sections whose own headings name the question', () => {
  it('come first within their page, which keeps its best and second best scores', () => {
    const rows = [
      { id: 1, pageId: 10, score: 9 },
      { id: 2, pageId: 10, score: 6 },
      { id: 3, pageId: 10, score: 2 },
      { id: 4, pageId: 20, score: 8 },
    ];
    // Section 2 is headed with the whole question, section 4 (alone on its page) too.
    preferHeadedSections(
      rows,
      new Map([
        [2, 1],
        [4, 1],
      ]),
      1,
    );
    expect(rows).toEqual([
      { id: 1, pageId: 10, score: 6 },
      { id: 2, pageId: 10, score: 9 },
      { id: 3, pageId: 10, score: 2 },
      { id: 4, pageId: 20, score: 8 },
    ]);
  });

  it('do not pass a section that bm25 scores more than twice as high, with the weight 1', () => {
    const rows = [
      { id: 1, pageId: 10, score: 9 },
      { id: 2, pageId: 10, score: 4 },
    ];
    preferHeadedSections(rows, new Map([[2, 1]]), 1);
    expect(rows.map((row) => row.score)).toEqual([9, 4]);
  });
});

describe('a section by its heading chain', () => {
  it('is the section of that page headed by exactly that chain, or nothing', () => {
    const index = DocsIndex.build([
      {
        path: 'domains.mdx',
        content: page(
          'Domains',
          'Intro.\n\n## DNS\n\nAdd a CNAME record.\n\n### Apex domains\n\nUse an ALIAS record.\n\n## Apex domains\n\nAnother.',
        ),
      },
      { path: 'other.mdx', content: page('Other', '## DNS\n\nNot this one.') },
    ]);
    expect(index.section('/domains', ['DNS'])?.body).toContain('CNAME');
    expect(index.section('/domains', ['DNS', 'Apex domains'])?.body).toContain('ALIAS');
    expect(index.section('/domains', ['Apex domains'])?.body).toContain('Another');
    expect(index.section('/other', ['DNS'])?.body).toContain('Not this one');
    expect(index.section('/domains', ['Missing'])).toBeUndefined();
    expect(index.section('/missing', ['DNS'])).toBeUndefined();
    index.close();
  });
});

describe('query terms', () => {
  it('drops stop-words and punctuation, and quotes every term', () => {
    expect(queryTerms("How do I configure the `mint.json` file? It's NEAR (v2)")).toEqual([
      'configure',
      'mint',
      'json',
      'file',
      'near',
      'v2',
    ]);
    expect(matchExpression(['near', 'or'])).toBe('"near" OR "or"');
    expect(matchExpression(queryTerms('what is it?'))).toBeNull();
  });

  it('pairs neighbouring words, skipping stop words and numbers', () => {
    expect(neighbourExpressions('how do I reverse a linked list in Java 21?')).toEqual([
      'NEAR("reverse" "linked", 1)',
      'NEAR("linked" "list", 1)',
      'NEAR("list" "java", 1)',
    ]);
    expect(neighbourExpressions('install')).toEqual([]);
  });

  it('caps long queries', () => {
    const words = Array.from({ length: 100 }, (_, index) => `word${index}`).join(' ');
    expect(queryTerms(words)).toHaveLength(32);
  });
});
