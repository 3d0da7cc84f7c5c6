import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentResolver } from '../src/agent/registry.js';
import type { Agent } from '../src/agent/types.js';
import { parseDocsRoot } from '../src/write-policy/index.js';
import { createGitRepo, type GitRepo } from './helpers/git-repo.js';
import { startTestService, type TestService } from './helpers/service.js';

const ROOT_REPO = {
  'README.md': '# Acme\n\nSome documentation lives in this repository. Acme Cloud is great.\n',
  'AGENTS.md': 'Some documentation rules for agents about Acme Cloud.\n',
  'package.json': '{ "name": "acme", "description": "Some documentation" }\n',
  'index.mdx': '---\ntitle: Home\n---\n\nSome documentation for Acme Cloud.\n',
  'guides/setup.mdx': '---\ntitle: Setup\n---\n\nSet up Acme Cloud. Some documentation here.\n',
  'guides/link.mdx': { symlink: '../index.mdx' },
};

/** Six pages whose titles turn into invalid YAML when "Acme Cloud -" becomes "Acme Cloud:". */
const TITLED_REPO = Object.fromEntries(
  Array.from({ length: 6 }, (_, index) => [
    `page-${index}.mdx`,
    `---\ntitle: Acme Cloud - part ${index}\n---\n\nAbout Acme Cloud - part ${index}.\n`,
  ]),
);

describe('a run held to the write policy and the blocking checks (local git forge)', () => {
  let t: TestService | undefined;
  let repo: GitRepo | undefined;
  afterEach(async () => {
    await t?.cleanup();
    await repo?.cleanup();
    t = undefined;
    repo = undefined;
  });

  /** How many runs the agent was asked for: a run that is retried asks again. */
  let runs = 0;

  async function project(files: Parameters<typeof createGitRepo>[0]) {
    repo = await createGitRepo(files);
    const builtin = createAgentResolver()('builtin');
    runs = 0;
    const counting: Agent = {
      model: 'builtin',
      run: (input) => {
        runs += 1;
        return builtin.run(input);
      },
    };
    t = await startTestService({ overrides: { agentFor: () => counting } });
    await t.service.store.projects.create({ id: 'site', repository: repo.dir, baseRef: 'main' });
    const key = (await t.service.store.keys.create({ kind: 'admin', projectId: 'site' })).key;
    const service = t;
    const request = (method: string, route: string, body?: unknown) =>
      service.request(method, `/v2/agent/site${route}`, { key, ...(body ? { body } : {}) });
    const settle = async (id: string) => {
      for (;;) {
        const { body } = await request('GET', `/job/${id}`);
        if (body.status !== 'active') return body;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    const dir = repo.dir;
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', stdio: 'pipe' }).trim();
    return { request, settle, git };
  }

  it('applies a `;`-joined request in order, leaves README.md, AGENTS.md and package.json alone and says why', async () => {
    const { request, settle, git } = await project(ROOT_REPO);
    const { body: job } = await request('POST', '/job', {
      prompt: 'replace "Acme Cloud" with "Acme"; then replace "Some documentation" with "Some docs"',
    });
    const done = await settle(job.id);
    expect(done.status).toBe('completed');
    const branch = `docwright/job-${job.id}`;
    expect(git('show', `${branch}:index.mdx`)).toContain('Some docs for Acme.');
    expect(git('show', `${branch}:guides/setup.mdx`)).toContain('Set up Acme. Some docs here.');
    expect(git('diff', '--name-only', `main..${branch}`).split('\n').sort()).toEqual([
      'guides/setup.mdx',
      'index.mdx',
    ]);
    const reply: string = done.messages.at(-1).content;
    const lines = reply.split('\n');
    expect(lines[0]).toMatch(/^1\. Done: Replaced "Acme Cloud" with "Acme": 2 occurrences in 2 files\./);
    expect(lines[1]).toMatch(
      /^2\. Done: Replaced "Some documentation" with "Some docs": 2 occurrences in 2 files\./,
    );
    expect(reply).toContain('`README.md`: README.md is a repository file, not a docs page');
    expect(reply).toContain("`AGENTS.md`: AGENTS.md holds the agent's own instructions");
    expect(reply).toContain('**Files changed (2):** `guides/setup.mdx`, `index.mdx`');
  });

  it('writes README.md when the repository settings list it under writable: (carried to the run)', async () => {
    const { request, settle, git } = await project(ROOT_REPO);
    await t!.service.store.projects.applySettings('site', {
      baseRef: 'main',
      docsRoot: parseDocsRoot('./'),
      model: null,
      writable: ['README.md'],
    });
    const { body: job } = await request('POST', '/job', {
      prompt: 'replace "Some documentation" with "Some docs"',
    });
    const done = await settle(job.id);
    expect(done.status).toBe('completed');
    expect(git('diff', '--name-only', `main..docwright/job-${job.id}`).split('\n').sort()).toEqual([
      'README.md',
      'guides/setup.mdx',
      'index.mdx',
    ]);
    expect(done.messages.at(-1).content).toContain(
      "`AGENTS.md`: AGENTS.md holds the agent's own instructions",
    );
  });

  it('applies one instruction a line, in order, each answered on its own line; one it cannot parse changes nothing', async () => {
    const { request, settle, git } = await project(ROOT_REPO);
    const { body: job } = await request('POST', '/job', {
      prompt: [
        'replace "Acme Cloud" with "Acme One"',
        'make it sparkle',
        'replace "Acme One" with "Acme Two"',
        'remove the page nowhere',
      ].join('\n'),
    });
    const done = await settle(job.id);
    expect(done.status).toBe('completed');
    expect(git('show', `docwright/job-${job.id}:index.mdx`)).toContain('Acme Two');
    const lines: string[] = done.messages.at(-1).content.split('\n');
    expect(lines[0]).toMatch(/^1\. Done: Replaced "Acme Cloud" with "Acme One"/);
    expect(lines[1]).toBe('2. Not understood: "make it sparkle"; nothing changed for it.');
    expect(lines[2]).toMatch(/^3\. Done: Replaced "Acme One" with "Acme Two"/);
    expect(lines[3]).toMatch(/^4\. Not possible: /);
  });

  it('commits nothing when the edits break frontmatter: the job fails with the findings, and a follow-up can fix it', async () => {
    const { request, settle, git } = await project(TITLED_REPO);
    const { body: job } = await request('POST', '/job', {
      prompt: 'replace "Acme Cloud -" with "Acme Cloud:"',
    });
    const failed = await settle(job.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^Nothing was committed: the change would break the docs site \(6 problems/);
    for (let index = 0; index < 6; index += 1) {
      expect(failed.error).toContain(`\`page-${index}.mdx:2\`: the frontmatter is not valid YAML`);
    }
    expect(() => git('rev-parse', '--verify', `docwright/job-${job.id}`)).toThrow();

    await request('POST', `/job/${job.id}/message`, { prompt: 'replace "Acme Cloud -" with "Acme Cloud,"' });
    const fixed = await settle(job.id);
    expect(fixed).toMatchObject({ status: 'completed', error: null });
    expect(git('show', `docwright/job-${job.id}:page-0.mdx`)).toContain('title: Acme Cloud, part 0');
  });

  it.each([
    ['a Windows short name', 'add a page GIT~1/config.md titled "x"', /looks like a Windows short name/],
    ['a NUL byte in a title', 'add a page guides/nul titled "bad\u0000title"', /control character/],
    [
      'a move onto a symlink',
      'move page guides/setup to guides/link',
      /guides\/link\.mdx is a symbolic link/,
    ],
    ['a .GitHub folder', 'add a page .GitHub/workflows/x titled "x"', /\.GitHub\/ is never written/],
  ])('refuses %s before git sees it, in words and without a retry', async (_name, prompt, reason) => {
    const { request, settle, git } = await project(ROOT_REPO);
    const { body: job } = await request('POST', '/job', { prompt });
    const done = await settle(job.id);
    expect(done.status).toBe('completed');
    expect(done.messages.at(-1).content).toMatch(reason);
    expect(done.messages.at(-1).content).not.toMatch(/Nothing to commit/);
    expect(runs).toBe(1);
    expect(() => git('rev-parse', '--verify', `docwright/job-${job.id}`)).toThrow();
  });
});
