import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkDocs, isBlocking } from '../src/checks/index.js';
import { checkCommand } from '../src/cli/check-command.js';
import { DocsIndex } from '../src/docs/docs-index.js';
import { folderDocsTree } from '../src/docs/docs-tree.js';
import { openDocsSite, siteLayoutOf, type DocsSiteFiles } from '../src/docs/site-files.js';
import type { DocsFramework } from '../src/docs/site/frameworks.js';
import { editNavigationText } from '../src/docs/site/navigation-editors.js';
import { MemorySnapshot } from '../src/forge/memory-snapshot.js';

/**
 * The docs model on a small real site of each framework (test/fixtures/sites, see PROVENANCE.md):
 * the framework and its folders found from either docs root a team may name, the pages and the URLs
 * the framework serves them at (the same URLs its real build writes, see framework-builds.test.ts),
 * the navigation, and the checks: nothing wrong with the site as it is, and a broken link or a
 * navigation entry to a missing page planted in it found as the framework's build finds them.
 */

const FIXTURES = fileURLToPath(new URL('./fixtures/sites/', import.meta.url));

/** A fixture as a repository snapshot: every file with its text. */
async function fixture(name: string, extra: Record<string, string> = {}): Promise<MemorySnapshot> {
  const tree = folderDocsTree(`${FIXTURES}${name}`);
  const files = await Promise.all(
    tree.paths().map(async (path): Promise<[string, string]> => [path, await tree.read(path)]),
  );
  return new MemorySnapshot('base', [...files, ...Object.entries(extra)]);
}

interface Case {
  name: string;
  framework: DocsFramework;
  /** The docs roots a team may name: the config folder and the pages folder. */
  roots: string[];
  pagesRoot: string;
  navigationFile: string;
  /** Some pages and the URL paths the built site serves them at. */
  urls: Record<string, string>;
  /** A page and the address citations link to, as the built site spells it. */
  href: [string, string];
  /** Files in the pages folder that are not pages. */
  notPages: string[];
  /** A page (relative to the pages folder) to plant a broken link in, and how the link is written. */
  plant: { page: string; link: string };
}

const CASES: Case[] = [
  {
    name: 'docusaurus3',
    framework: 'docusaurus',
    roots: ['website', 'website/docs'],
    pagesRoot: 'website/docs',
    navigationFile: 'website/sidebars.js',
    urls: {
      'intro.mdx': '/project/docs/intro',
      // `slug: /deploy` in its frontmatter.
      'tutorial-basics/deploy-your-site.md': '/project/docs/deploy',
      // `id: versioning` in its frontmatter: the id names the page in the sidebar and in its URL.
      'tutorial-extras/manage-docs-versions.md': '/project/docs/tutorial-extras/versioning',
    },
    href: ['intro.mdx', '/project/docs/intro'],
    notPages: ['_generate-command.mdx'],
    plant: { page: 'intro.mdx', link: './missing-page.md' },
  },
  {
    name: 'docusaurus2',
    framework: 'docusaurus',
    roots: ['website', 'website/docs'],
    pagesRoot: 'website/docs',
    navigationFile: 'website/sidebars.js',
    urls: {
      // `slug: /` in its frontmatter: the docs' home.
      'intro.md': '/project/docs',
      'tutorial-basics/create-a-page.md': '/project/docs/tutorial-basics/create-a-page',
    },
    href: ['intro.md', '/project/docs'],
    notPages: ['tutorial-basics/_build-command.md'],
    plant: { page: 'intro.md', link: './missing-page.md' },
  },
  {
    name: 'mkdocs',
    framework: 'mkdocs',
    roots: ['', 'docs'],
    pagesRoot: 'docs',
    navigationFile: 'mkdocs.yml',
    urls: { 'index.md': '/proj', 'reference/buttons.md': '/proj/reference/buttons' },
    // MkDocs' directory URLs: every page is a folder.
    href: ['reference/buttons.md', '/proj/reference/buttons/'],
    notPages: [],
    plant: { page: 'index.md', link: 'missing-page.md' },
  },
  {
    name: 'vitepress',
    framework: 'vitepress',
    roots: ['docs'],
    pagesRoot: 'docs',
    navigationFile: 'docs/.vitepress/config.mts',
    urls: { 'index.md': '/proj', 'guide/getting-started.md': '/proj/guide/getting-started' },
    // `cleanUrls: true`: no `.html`.
    href: ['guide/getting-started.md', '/proj/guide/getting-started'],
    notPages: [],
    plant: { page: 'guide/getting-started.md', link: '/guide/missing-page' },
  },
  {
    name: 'starlight',
    framework: 'starlight',
    roots: ['docs', 'docs/src/content/docs'],
    pagesRoot: 'docs/src/content/docs',
    navigationFile: 'docs/astro.config.mjs',
    urls: { 'index.mdx': '/', 'guides/example.md': '/guides/example' },
    href: ['guides/example.md', '/guides/example/'],
    notPages: [],
    plant: { page: 'guides/example.md', link: '../missing-page/' },
  },
  {
    name: 'mintlify',
    framework: 'mintlify',
    roots: [''],
    pagesRoot: '',
    navigationFile: 'docs.json',
    urls: { 'quickstart.mdx': '/quickstart', 'essentials/code.mdx': '/essentials/code' },
    href: ['essentials/code.mdx', '/essentials/code'],
    notPages: ['snippets/snippet-intro.mdx'],
    plant: { page: 'quickstart.mdx', link: '/missing-page' },
  },
];

/** A missing page's navigation entry, written by the framework's own editor. */
async function withMissingNavigationEntry(site: DocsSiteFiles, repository: MemorySnapshot, name: string) {
  const file = site.layout.navigationFile!;
  const text = String(await repository.read(file));
  const extension = site.layout.pageExtension;
  const ref = site.refOf(`missing-page${extension}`);
  const edited = editNavigationText(
    site.layout.framework,
    file,
    text,
    { op: 'add', ref, label: 'Missing page' },
    site.keyOfRef,
  );
  expect(edited.changed).toBe(true);
  return fixture(name, { [file]: edited.text });
}

describe.each(CASES)('the docs model on a real $name site', (testCase) => {
  it('finds the framework and its folders from either docs root', async () => {
    const repository = await fixture(testCase.name);
    for (const root of testCase.roots) {
      const layout = await siteLayoutOf(repository, root);
      expect(layout).toMatchObject({
        framework: testCase.framework,
        pagesRoot: testCase.pagesRoot,
        navigationFile: testCase.navigationFile,
      });
    }
  });

  it('lists the pages at the URLs the framework serves them at, and reads the navigation', async () => {
    const site = await openDocsSite(await fixture(testCase.name), testCase.roots[0]!);
    for (const [file, url] of Object.entries(testCase.urls)) expect(site.pages.get(file)?.url).toBe(url);
    for (const file of testCase.notPages) expect(site.pages.has(file)).toBe(false);
    const navigation = site.siteNavigation;
    expect(navigation.error).toBeUndefined();
    expect(navigation.entries.length).toBeGreaterThan(2);
    // Every entry of the site as its authors keep it names a page file.
    expect(navigation.entries.filter((entry) => entry.file === undefined)).toEqual([]);
  });

  it('cites each page at its URL, in its navigation group', async () => {
    const site = await openDocsSite(await fixture(testCase.name), testCase.roots[0]!);
    const index = DocsIndex.fromSite(site);
    try {
      for (const [file, url] of Object.entries(testCase.urls)) {
        const page = index.page(url);
        expect(page?.urlPath).toBe(url);
        // A search for the page's own title cites it at that URL.
        const hits = index.search(page!.title, { limit: 5 });
        expect(
          hits.map((hit) => hit.urlPath),
          file,
        ).toContain(url);
      }
      // Citations link to the address as the built site spells it, and a reader there is on that page.
      const [file, href] = testCase.href;
      expect(site.pages.get(file)?.href).toBe(href);
      const url = site.pages.get(file)!.url;
      const cited = index.search(index.page(url)!.title, { limit: 5 }).find((hit) => hit.urlPath === url);
      expect(cited?.url.replace(/#.*$/, '')).toBe(href);
      expect(index.page(href)?.urlPath).toBe(url);
      const grouped = site.siteNavigation.entries.find((entry) => entry.groups.length > 0 && entry.file);
      if (grouped)
        expect(index.page(site.pages.get(grouped.file!)!.url)?.groups).toContain(grouped.groups[0]);
    } finally {
      index.close();
    }
  });

  it('finds nothing wrong with the site as it is: no error, no warning', async () => {
    const site = await openDocsSite(await fixture(testCase.name), testCase.roots[0]!);
    expect(await checkDocs(site)).toEqual([]);
  });

  it('docwright check finds nothing there, named by either root', async () => {
    for (const root of testCase.roots) {
      const result = await checkCommand(`${FIXTURES}${testCase.name}`, { docsRoot: root });
      expect(result.ok, root).toBe(true);
      expect(result.output).toMatch(/: no problems found$/);
    }
  });

  it('names a broken link planted in it, as an error where the framework build fails on it', async () => {
    const clean = await openDocsSite(await fixture(testCase.name), testCase.roots[0]!);
    const pagePath = `${testCase.pagesRoot ? `${testCase.pagesRoot}/` : ''}${testCase.plant.page}`;
    const page = clean.files.find((file) => file.path === testCase.plant.page)!.content;
    const broken = await fixture(testCase.name, {
      [pagePath]: `${page}\n\nSee [the missing page](${testCase.plant.link}).\n`,
    });
    const problems = await checkDocs(await openDocsSite(broken, testCase.roots[0]!));
    const found = problems.filter((problem) => problem.message.includes(testCase.plant.link));
    expect(found.map((problem) => [problem.file, problem.rule])).toEqual([
      [testCase.plant.page, 'broken-link'],
    ]);
    expect(isBlocking(found[0]!)).toBe(clean.layout.brokenLinksFail);
  });

  it('names a navigation entry to a missing page, as an error', async () => {
    const repository = await fixture(testCase.name);
    const site = await openDocsSite(repository, testCase.roots[0]!);
    const planted = await withMissingNavigationEntry(site, repository, testCase.name);
    const problems = await checkDocs(await openDocsSite(planted, testCase.roots[0]!));
    const navigation = problems.filter((problem) => problem.rule === 'navigation');
    expect(navigation).toHaveLength(1);
    expect(navigation[0]!.message).toContain('missing-page');
    expect(isBlocking(navigation[0]!)).toBe(true);
  });
});

/** A site held in memory, for the rules no fixture shows. */
function siteOf(files: Record<string, string>, docsRoot = '') {
  return openDocsSite(new MemorySnapshot('c0ffee', Object.entries(files)), docsRoot);
}

describe("each framework's page rules", () => {
  it('Docusaurus: number prefixes, README and folder-named pages, ids, partials, absolute route links', async () => {
    const site = await siteOf({
      'docusaurus.config.ts':
        "export default { baseUrl: '/', presets: [['classic', { docs: { routeBasePath: 'guide' } }]] };",
      'docs/01-intro.md':
        '# Intro\n\nSee [the API](/guide/api), [setup](/guide/setup/installing), [the setup page](@site/docs/setup/setup.md) and [about](@site/src/pages/about.md).\n',
      'docs/api/README.md': '# API\n',
      'docs/setup/setup.md': '# Setup\n',
      'docs/setup/02-install.mdx': '---\nid: installing\n---\n# Install\n',
      'docs/_shared/note.md': 'A partial.\n',
      'sidebars.ts': "export default { docs: [{ type: 'autogenerated', dirName: '.' }] };",
    });
    expect(Object.fromEntries([...site.pages].map(([file, page]) => [file, [page.url, page.ref]]))).toEqual({
      '01-intro.md': ['/guide/intro', 'intro'],
      'api/README.md': ['/guide/api', 'api/README'],
      'setup/setup.md': ['/guide/setup', 'setup/setup'],
      'setup/02-install.mdx': ['/guide/setup/installing', 'setup/installing'],
    });
    // Links written as routes (without the site's base) and `@site/` files resolve; a page outside
    // the docs (src/pages) is not checked; an `@site/` link to a missing doc is an error.
    expect(await checkDocs(site)).toEqual([]);
    const broken = await siteOf({
      'docusaurus.config.ts': "export default { presets: [['classic', { docs: {} }]] };",
      'docs/intro.md': '# Intro\n\n[gone](@site/docs/gone.md)\n',
    });
    const problems = await checkDocs(broken);
    expect(problems.map((problem) => [problem.rule, isBlocking(problem)])).toEqual([['broken-link', true]]);
  });

  it('MkDocs: exclude_docs pages are not pages, and a site with no nav: lists every page by itself', async () => {
    const site = await siteOf({
      'mkdocs.yml': 'site_name: X\nexclude_docs: |\n  drafts/\n',
      'docs/index.md': '# Home\n',
      'docs/drafts/wip.md': '# WIP\n',
    });
    expect([...site.pages.keys()]).toEqual(['index.md']);
    expect(site.siteNavigation.items).toEqual([{ kind: 'generated', folder: '' }]);
  });

  it('VitePress without cleanUrls and MkDocs without directory URLs cite `.html` addresses', async () => {
    const vitepress = await siteOf(
      {
        'docs/.vitepress/config.mts': 'export default { themeConfig: {} };',
        'docs/guide/setup.md': '# Setup\n',
        'docs/guide/index.md': '# Guide\n',
      },
      'docs',
    );
    expect(vitepress.pages.get('guide/setup.md')?.href).toBe('/guide/setup.html');
    expect(vitepress.pages.get('guide/index.md')?.href).toBe('/guide/');
    const mkdocs = await siteOf({
      'mkdocs.yml': 'site_name: X\nuse_directory_urls: false\n',
      'docs/guide/setup.md': '# Setup\n',
    });
    expect(mkdocs.pages.get('guide/setup.md')?.href).toBe('/guide/setup.html');
  });

  it('VitePress: srcExclude globs are not pages', async () => {
    const site = await siteOf(
      {
        'docs/.vitepress/config.mts':
          "export default { srcExclude: ['**/README.md', 'drafts/**'], themeConfig: {} };",
        'docs/guide/setup.md': '# Setup\n',
        'docs/guide/README.md': '# Notes for writers\n',
        'docs/drafts/wip.md': '# WIP\n',
      },
      'docs',
    );
    expect([...site.pages.keys()]).toEqual(['guide/setup.md']);
  });

  it('VitePress and Starlight: locale folders hold translations, cited in their language', async () => {
    const site = await siteOf(
      {
        'docs/.vitepress/config.mts':
          "export default { locales: { root: { label: 'English' }, fr: { label: 'Français' } }, themeConfig: {} };",
        'docs/guide/setup.md': '# Setup\n\nInstall the widget.\n',
        'docs/fr/guide/setup.md': '# Installation\n\nInstallez le widget.\n',
      },
      'docs',
    );
    expect(site.pages.get('fr/guide/setup.md')).toMatchObject({ url: '/fr/guide/setup', translation: 'fr' });
    const index = DocsIndex.fromSite(site);
    try {
      expect(index.page('/fr/guide/setup')?.language).toBe('fr');
      expect(index.page('/guide/setup')?.language).toBe('en');
    } finally {
      index.close();
    }
  });

  it('Starlight: a frontmatter slug is the URL, and `_` files are not pages', async () => {
    const site = await siteOf({
      'astro.config.mjs':
        "import starlight from '@astrojs/starlight';\nexport default { base: '/docs', integrations: [starlight({ title: 'X' })] };",
      'src/content/docs/Guides/Getting Started.md': '---\ntitle: Start\n---\n',
      'src/content/docs/moved.md': '---\ntitle: Moved\nslug: elsewhere/here\n---\n',
      'src/content/docs/_draft.md': '---\ntitle: Draft\n---\n',
    });
    expect(Object.fromEntries([...site.pages].map(([file, page]) => [file, page.url]))).toEqual({
      'Guides/Getting Started.md': '/docs/guides/getting-started',
      'moved.md': '/docs/elsewhere/here',
    });
  });

  it('names the framework it was told to use, where its config does not show it', async () => {
    const files = { 'site/mkdocs.yml': 'site_name: X\n', 'site/docs/index.md': '# Home\n' };
    expect((await siteOf(files, 'site')).layout.framework).toBe('mkdocs');
    const declared = await openDocsSite(new MemorySnapshot('c0ffee', Object.entries(files)), 'site/docs', {
      framework: 'mintlify',
    });
    expect(declared.layout).toMatchObject({ framework: 'mintlify', pagesRoot: 'site/docs' });
  });
});
