/**
 * The framework build oracle on the fixture sites: each real docs site builds with its own
 * framework and has the pages we expect, and a broken link planted in it makes the build fail, so a
 * test that builds docwright's output can trust a green build.
 *
 * Needs scripts/install-doc-frameworks.sh and DOCWRIGHT_FRAMEWORKS_DIR; each kind skips without them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite, buildUnavailable, copyFixture, type SiteKind } from './helpers/framework-build.js';

interface Case {
  kind: SiteKind;
  /** The folder, inside the fixture, that holds the framework's config. */
  siteDir: string;
  /** Some pages the build must have, as buildSite names them. */
  routes: string[];
  /** Files in the fixture that are not pages of their own. */
  notRoutes: string[];
  /** A page to plant a link to a missing page in, and the link in the site's own form. */
  plant: { file: string; link: string };
}

const CASES: Case[] = [
  {
    kind: 'docusaurus3',
    siteDir: 'website',
    routes: [
      '/project',
      '/project/docs/intro',
      // frontmatter slug: /deploy and id: versioning
      '/project/docs/deploy',
      '/project/docs/tutorial-extras/versioning',
      '/project/docs/tutorial-basics/markdown-features',
      '/project/docs/category/tutorial---basics',
    ],
    notRoutes: ['/project/docs/_generate-command', '/project/docs/tutorial-basics/deploy-your-site'],
    plant: { file: 'website/docs/tutorial-basics/create-a-page.md', link: './missing-page.md' },
  },
  {
    kind: 'docusaurus2',
    siteDir: 'website',
    routes: [
      '/project',
      // the intro page has slug: /
      '/project/docs',
      '/project/docs/tutorial-basics/deploy-your-site',
      '/project/docs/tutorial-extras/versioning',
      '/project/docs/category/tutorial---basics',
    ],
    notRoutes: ['/project/docs/intro', '/project/docs/tutorial-basics/_build-command'],
    plant: {
      file: 'website/docs/tutorial-extras/translate-your-site.md',
      link: '../tutorial-basics/missing-page.md',
    },
  },
  {
    kind: 'mkdocs',
    siteDir: '.',
    routes: [
      '/proj',
      '/proj/getting-started',
      '/proj/setup/changing-the-fonts',
      '/proj/reference/formatting',
    ],
    notRoutes: ['/proj/index'],
    plant: { file: 'docs/setup/changing-the-fonts.md', link: '../reference/missing-page.md' },
  },
  {
    kind: 'vitepress',
    siteDir: 'docs',
    routes: ['/proj', '/proj/guide/getting-started', '/proj/guide/frontmatter', '/proj/reference/cli'],
    notRoutes: ['/proj/index', '/proj/guide/getting-started.html'],
    plant: { file: 'docs/guide/frontmatter.md', link: './missing-page.md' },
  },
  {
    kind: 'starlight',
    siteDir: 'docs',
    routes: [
      '/',
      '/guides/example',
      '/guides/project-structure',
      '/reference/frontmatter',
      '/getting-started',
    ],
    notRoutes: ['/index'],
    // Starlight pages link by URL from the site root; its link checker refuses relative links anyway.
    plant: { file: 'docs/src/content/docs/guides/example.md', link: '/guides/missing-page/' },
  },
  {
    kind: 'mintlify',
    siteDir: '.',
    routes: ['/introduction', '/quickstart', '/essentials/markdown', '/api-reference/endpoint/get'],
    notRoutes: ['/snippets/snippet-intro'],
    // Mintlify pages link by path from the site root.
    plant: { file: 'quickstart.mdx', link: '/essentials/missing-page' },
  },
];

const BUILD_TEST_TIMEOUT = 300_000;
const copies: string[] = [];

afterAll(() => {
  for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
});

function fixtureCopy(kind: SiteKind): string {
  const dir = copyFixture(kind);
  copies.push(dir);
  return dir;
}

for (const c of CASES) {
  const unavailable = buildUnavailable(c.kind);
  if (unavailable) console.warn(`framework-builds: skipping ${c.kind}: ${unavailable}`);

  describe.skipIf(unavailable !== undefined)(`${c.kind} fixture built by the framework`, () => {
    it(
      'builds as committed, with the expected pages',
      async () => {
        const root = fixtureCopy(c.kind);
        const result = await buildSite(c.kind, path.join(root, c.siteDir));
        console.info(`framework-builds: ${c.kind} fixture built in ${result.ms} ms`);
        expect(result.ok, result.output).toBe(true);
        expect(result.routes).toEqual(expect.arrayContaining(c.routes));
        for (const route of c.notRoutes) expect(result.routes).not.toContain(route);
        // Every route is in the normal form.
        for (const route of result.routes) {
          expect(route).toMatch(/^\//);
          expect(route === '/' || !route.endsWith('/')).toBe(true);
          expect(route).not.toMatch(/\.html$|\/index$/);
        }
      },
      BUILD_TEST_TIMEOUT,
    );

    it(
      'fails with a link to a missing page',
      async () => {
        const root = fixtureCopy(c.kind);
        fs.appendFileSync(path.join(root, c.plant.file), `\nSee also [the missing page](${c.plant.link}).\n`);
        const result = await buildSite(c.kind, path.join(root, c.siteDir));
        console.info(`framework-builds: ${c.kind} fixture with a broken link failed in ${result.ms} ms`);
        expect(result.ok, result.output).toBe(false);
        expect(result.routes).toEqual([]);
        expect(result.output).toMatch(/missing-page/);
      },
      BUILD_TEST_TIMEOUT,
    );
  });
}
