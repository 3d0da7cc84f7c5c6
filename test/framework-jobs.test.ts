import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDocs, isBlocking } from '../src/checks/index.js';
import { folderDocsTree } from '../src/docs/docs-tree.js';
import { openDocsSite, type DocsSiteFiles } from '../src/docs/site-files.js';
import { listedByGenerated } from '../src/docs/site/navigation-tree.js';
import { MemorySnapshot } from '../src/forge/memory-snapshot.js';
import type { Job } from '../src/protocol/agent-job.js';
import { buildSite, buildUnavailable, type SiteKind } from './helpers/framework-build.js';
import { createGitRepo, type GitRepo } from './helpers/git-repo.js';
import { startTestService, type TestService } from './helpers/service.js';

/**
 * Jobs on a real site of each framework, through the service (API, engine, built-in agent, local
 * git forge): a page added, one moved and one removed, each a commit on the job's branch with the
 * navigation edited in the framework's own file and the links to a moved or removed page
 * repointed; a change that would break the build commits nothing. The framework's own build of the
 * branch is the oracle where it is installed (scripts/install-doc-frameworks.sh; .ci/run does it).
 */

const FIXTURES = fileURLToPath(new URL('./fixtures/sites/', import.meta.url));

interface Case {
  kind: SiteKind;
  /** The docs root the project names (config folder or pages folder, both are tried across cases). */
  docsRoot: string;
  /** The site's config folder, where its build runs. */
  siteRoot: string;
  add: { page: string; group?: string };
  move: { from: string; to: string };
  remove: { page: string; linksTo: string };
  /** A replacement that turns a working link into one to a missing page. */
  breakLink: { search: string; replace: string };
}

const CASES: Case[] = [
  {
    kind: 'docusaurus3',
    docsRoot: 'website',
    siteRoot: 'website',
    add: { page: 'tutorial-basics/new-page' },
    move: { from: 'tutorial-basics/create-a-page', to: 'tutorial-basics/making-pages' },
    remove: { page: 'tutorial-basics/congratulations', linksTo: 'intro' },
    breakLink: { search: 'create-a-document.md', replace: 'no-such-document.md' },
  },
  {
    kind: 'docusaurus2',
    docsRoot: 'website/docs',
    siteRoot: 'website',
    add: { page: 'tutorial-extras/new-page', group: 'Tutorial - Extras' },
    move: { from: 'tutorial-basics/create-a-page', to: 'tutorial-basics/making-pages' },
    remove: { page: 'tutorial-basics/congratulations', linksTo: 'intro' },
    breakLink: { search: 'create-a-document.md', replace: 'no-such-document.md' },
  },
  {
    kind: 'mkdocs',
    docsRoot: '',
    siteRoot: '',
    add: { page: 'setup/new-page' },
    move: { from: 'philosophy', to: 'about/philosophy' },
    remove: { page: 'browser-support', linksTo: 'getting-started' },
    breakLink: { search: 'getting-started.md', replace: 'no-such-page.md' },
  },
  {
    kind: 'vitepress',
    docsRoot: 'docs',
    siteRoot: 'docs',
    add: { page: 'guide/new-page', group: 'Writing' },
    move: { from: 'guide/mpa-mode', to: 'guide/multi-page-mode' },
    remove: { page: 'reference/default-theme-badge', linksTo: 'reference/cli' },
    breakLink: { search: 'getting-started', replace: 'no-such-page' },
  },
  {
    kind: 'starlight',
    docsRoot: 'docs/src/content/docs',
    siteRoot: 'docs',
    add: { page: 'guides/new-page' },
    move: { from: 'guides/example', to: 'guides/first-example' },
    remove: { page: 'reference/example', linksTo: 'reference/frontmatter' },
    breakLink: { search: '](/manual-setup/)', replace: '](/no-such-setup/)' },
  },
  {
    kind: 'mintlify',
    docsRoot: '',
    siteRoot: '',
    add: { page: 'essentials/new-page' },
    move: { from: 'essentials/code', to: 'essentials/code-blocks' },
    remove: { page: 'development', linksTo: 'quickstart' },
    breakLink: { search: '](/essentials/markdown)', replace: '](/essentials/no-such-page)' },
  },
];

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.cleanup());

/** Polls a job of `project` until it ends. */
async function waitForJob(project: string, key: string, id: string, timeoutMs = 60_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await t.request('GET', `/v2/agent/${project}/job/${id}`, { key });
    if (['completed', 'failed'].includes(body.status)) return body as Job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${body.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The branch as a folder on disk (for the build) and as the docs model reads it. */
async function checkout(repo: GitRepo, branch: string, docsRoot: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docwright-branch-'));
  const archive = execFileSync('git', ['-C', repo.dir, 'archive', '--format=tar', branch]);
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  const tree = folderDocsTree(dir);
  const files = await Promise.all(
    tree.paths().map(async (file): Promise<[string, string]> => [file, await tree.read(file)]),
  );
  const site = await openDocsSite(new MemorySnapshot(branch, files), docsRoot);
  return { dir, site };
}

/** The site's page file of a page name (`guides/setup` → `guides/setup.md`), if there is one. */
function fileOf(site: DocsSiteFiles, page: string): string | undefined {
  return [...site.pages.keys()].find((file) => file.replace(/\.(mdx?|mdoc)$/, '') === page);
}

function listed(site: DocsSiteFiles, file: string): boolean {
  return site.siteNavigation.entries.some((entry) => entry.file === file);
}

/** Whether the navigation lists every page of a folder by itself (autogenerated) or names each one. */
function generated(site: DocsSiteFiles, file: string): boolean {
  return listedByGenerated(site.siteNavigation.items, site.keyOfRef(site.refOf(file)));
}

describe.each(CASES)('jobs on a real $kind site', (testCase) => {
  const project = `site-${testCase.kind}`;
  let repo: GitRepo;
  let key: string;

  beforeAll(async () => {
    repo = await createGitRepo({ fromDir: path.join(FIXTURES, testCase.kind) });
    await t.service.store.projects.create({
      id: project,
      repository: repo.dir,
      baseRef: 'main',
      docsRoot: testCase.docsRoot,
    });
    key = (await t.service.store.keys.create({ kind: 'admin', projectId: project })).key;
  });
  afterAll(() => repo.cleanup());

  async function run(job: string | undefined, prompt: string): Promise<Job> {
    const route = job === undefined ? `/v2/agent/${project}/job` : `/v2/agent/${project}/job/${job}/message`;
    const { status, body } = await t.request('POST', route, { key, body: { prompt } });
    expect(status, JSON.stringify(body)).toBeLessThan(300);
    return waitForJob(project, key, body.id ?? job);
  }

  it(
    'adds, moves and removes pages with the navigation and links kept whole, and the real build passes',
    { timeout: 420_000 },
    async () => {
      const { add, move, remove } = testCase;
      const added = await run(
        undefined,
        `add a page ${add.page} titled "New page"${add.group ? ` in group "${add.group}"` : ''} with "A page about widgets."`,
      );
      expect(added.status, added.error ?? '').toBe('completed');
      let { site } = await checkout(repo, added.source.ref, testCase.docsRoot);
      const newFile = fileOf(site, add.page)!;
      expect(newFile, 'the new page').toBeDefined();
      // MkDocs and VitePress build .md only; every site here writes its pages as .md.
      if (['mkdocs', 'vitepress'].includes(testCase.kind)) expect(newFile).toMatch(/\.md$/);
      expect(listed(site, newFile) || generated(site, newFile), 'listed in the navigation').toBe(true);

      const moved = await run(added.id, `move page ${move.from} to ${move.to}`);
      expect(moved.status, moved.error ?? '').toBe('completed');
      ({ site } = await checkout(repo, moved.source.ref, testCase.docsRoot));
      const movedFile = fileOf(site, move.to)!;
      expect(movedFile, 'the moved page').toBeDefined();
      expect(fileOf(site, move.from)).toBeUndefined();
      expect(listed(site, movedFile) || generated(site, movedFile)).toBe(true);

      const removed = await run(
        added.id,
        `remove the page ${remove.page} and point its links to ${remove.linksTo}`,
      );
      expect(removed.status, removed.error ?? '').toBe('completed');
      const branch = await checkout(repo, removed.source.ref, testCase.docsRoot);
      ({ site } = branch);
      expect(fileOf(site, remove.page)).toBeUndefined();
      // Nothing the framework's build would refuse, and no link or entry left to a page that is gone.
      const problems = await checkDocs(site);
      expect(problems.filter(isBlocking)).toEqual([]);
      expect(problems.filter((problem) => problem.rule === 'broken-link')).toEqual([]);
      expect(site.siteNavigation.entries.filter((entry) => entry.file === undefined)).toEqual([]);

      const unavailable = buildUnavailable(testCase.kind);
      if (unavailable !== undefined) {
        console.warn(`Not building the ${testCase.kind} branch: ${unavailable}`);
        return;
      }
      const build = await buildSite(testCase.kind, path.join(branch.dir, testCase.siteRoot));
      expect(build.ok, build.output).toBe(true);
      // The assistant cites every page at a URL the built site has.
      for (const [file, page] of site.pages) expect(build.routes, file).toContain(page.url);
      fs.rmSync(branch.dir, { recursive: true, force: true });
    },
  );

  it('commits nothing when the change would break the build', { timeout: 60_000 }, async () => {
    const { search, replace } = testCase.breakLink;
    const site = (await checkout(repo, 'main', testCase.docsRoot)).site;
    const job = await run(undefined, `replace "${search}" with "${replace}"`);
    if (site.layout.brokenLinksFail) {
      expect(job.status).toBe('failed');
      expect(job.error).toContain('no-such');
      expect(
        execFileSync('git', ['-C', repo.dir, 'branch', '--list', job.source.ref], { encoding: 'utf8' }),
      ).toBe('');
    } else {
      // The framework builds it: the job lands it and says what a reader would trip on.
      expect(job.status).toBe('completed');
    }
  });
});
