import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { openSync, closeSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServeProcess, type ServeProcess } from './helpers/serve-process.js';
import { freePort } from './helpers/free-port.js';

const CLI = ['--import', 'tsx', 'src/cli.ts'];

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI as a script runs it: its exit status, stdout and stderr (stdout a pipe, not a terminal). */
function docwright(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...CLI, ...args],
      { env: { ...process.env, LOG_LEVEL: 'silent', ...env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function git(dir: string, ...args: string[]): void {
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { stdio: 'ignore' });
}

async function repository(files: Record<string, string>, branch = 'main'): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-repo-'));
  for (const [name, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), content);
  }
  git(dir, 'init', '-q', '-b', branch);
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'init');
  return dir;
}

describe('the CLI against a running server: exit codes, waiting, archive, keys', () => {
  let dataDir: string;
  let server: ServeProcess;
  let env: NodeJS.ProcessEnv;
  const local = (...args: string[]) => docwright(['--data-dir', dataDir, ...args]);

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-cli-hour-'));
    server = await startServeProcess(
      dataDir,
      { ...process.env, LOG_LEVEL: 'info' },
      path.join(dataDir, 'serve.log'),
    );
    for (let i = 0; i < 100 && !server.banner.some((line) => line.startsWith('Admin key')); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const adminKey = /svc_\w+/.exec(server.banner.find((line) => line.startsWith('Admin key')) ?? '')?.[0];
    env = { DOCWRIGHT_URL: server.url, DOCWRIGHT_KEY: adminKey, DOCWRIGHT_PROJECT: 'demo' };
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('job create --wait exits 0 for a completed job, with progress on stderr and the job on stdout', async () => {
    const ran = await docwright(
      ['job', 'create', '--wait', 'append a section "Exit codes" to quickstart with "Scripts read them."'],
      env,
    );
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ status: 'completed', changed: true });
    expect(ran.stderr).toMatch(/^Waiting for job \w+ \(active\); Ctrl-C stops waiting, not the job\.$/m);
    expect(ran.stderr).toMatch(/^\d+ s: active → completed$/m);
  }, 60_000);

  it('a job that changed nothing completes with its reply, and says so', async () => {
    const ran = await docwright(['job', 'create', '--wait', 'please make the docs nicer'], env);
    expect(ran.code).toBe(0);
    const job = JSON.parse(ran.stdout) as { status: string; changed: boolean; reply: string };
    expect(job).toMatchObject({ status: 'completed', changed: false });
    expect(job.reply.length).toBeGreaterThan(0);
  }, 60_000);

  it('job create --wait exits 1 for a failed job and 124 when it gives up, naming the command to look again', async () => {
    const repo = await repository({ 'docs.json': '{"name":"x"}', 'index.mdx': '# Hi\n' });
    try {
      expect(
        (await local('project', 'add', '--id', 'doomed', '--repository', repo, '--ref', 'main')).code,
      ).toBe(0);
      const key = (await local('key', 'create', '--project', 'doomed')).stdout.trim();
      git(repo, 'branch', '-m', 'main', 'renamed'); // the base branch goes away: every run fails
      const failed = await docwright(
        ['job', 'create', '--wait', '--project', 'doomed', '--key', key, 'replace "Hi" with "Hello"'],
        env,
      );
      expect(failed.code).toBe(1);
      expect(JSON.parse(failed.stdout)).toMatchObject({
        status: 'failed',
        error: expect.stringContaining('does not exist'),
      });
    } finally {
      await fs.rm(repo, { recursive: true, force: true });
    }

    const timedOut = await docwright(
      [
        'job',
        'create',
        '--wait',
        '--timeout',
        '0.001',
        'append a section "Later" to quickstart with "Soon."',
      ],
      env,
    );
    expect(timedOut.code).toBe(124);
    const id = (JSON.parse(timedOut.stdout) as { id: string }).id;
    expect(timedOut.stderr).toContain(
      `is still active after 0.001 s; it goes on without us. Look again with:`,
    );
    expect(timedOut.stderr).toMatch(new RegExp(`\\n {2}(npx )?docwright job get ${id}\\n`));
  }, 90_000);

  it('job archive stops a job, and job list --status finds it; a wrong status is a usage error (exit 2)', async () => {
    const created = await docwright(
      ['job', 'create', 'append a section "Gone" to quickstart with "Soon gone."'],
      env,
    );
    const id = (JSON.parse(created.stdout) as { id: string }).id;
    const archived = await docwright(['job', 'archive', id], env);
    expect(archived.code).toBe(0);
    expect(JSON.parse(archived.stdout)).toMatchObject({ id, status: 'archived' });
    const listed = JSON.parse((await docwright(['job', 'list', '--status', 'archived'], env)).stdout) as {
      jobs: Array<{ id: string; status: string }>;
    };
    expect(listed.jobs.map((job) => job.id)).toContain(id);
    expect(listed.jobs.every((job) => job.status === 'archived')).toBe(true);

    const wrong = await docwright(['job', 'list', '--status', 'done'], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("argument 'done' is invalid");
    expect((await docwright(['job', 'get', id], { ...env, DOCWRIGHT_KEY: '' })).code).toBe(2);
  }, 60_000);

  it('key list shows ids and last use, never a key; key revoke shuts a key out within seconds', async () => {
    const key = (await local('key', 'create', '--project', 'demo')).stdout.trim();
    expect(key).toMatch(/^svc_\w{40}$/);
    const withKey = { ...env, DOCWRIGHT_KEY: key };
    expect((await docwright(['job', 'list', '--limit', '1'], withKey)).code).toBe(0);

    const listed = await local('key', 'list', '--project', 'demo', '--json');
    const keys = JSON.parse(listed.stdout) as Array<{ id: string; kind: string; lastUsedAt: string | null }>;
    expect(listed.stdout).not.toMatch(/svc_\w{20}/);
    // Oldest first: the demo's two keys (made in the same millisecond at times, in either order),
    // then the one made here.
    expect(
      keys
        .slice(0, 2)
        .map((row) => row.kind)
        .sort(),
    ).toEqual(['admin', 'assistant']);
    expect(keys.at(-1)?.kind).toBe('admin');
    expect(keys.at(-1)?.lastUsedAt).not.toBeNull();
    const tabs = await local('key', 'list', '--project', 'demo');
    const lines = tabs.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.filter((line) => /^\S+\tadmin\tdemo\t-\t/.test(line))).toHaveLength(2);

    const revoked = await local('key', 'revoke', key); // by the key itself, as a leaked one is known
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ id: keys.at(-1)?.id, revoked: true });
    let refused: Ran | undefined;
    const started = Date.now();
    while (Date.now() - started < 10_000) {
      refused = await docwright(['job', 'list', '--limit', '1'], withKey);
      if (refused.code !== 0) break;
    }
    expect(refused?.code).toBe(1);
    expect(refused?.stderr).toContain('HTTP 401');
    expect(Date.now() - started).toBeLessThan(8_000);
    expect((await local('key', 'revoke', keys.at(-1)!.id)).stderr).toContain('No unrevoked key has the id');
  }, 60_000);
});

describe('projects: update, remove, docs roots that do not exist', () => {
  it('refuses an unknown docs root, updates settings, and removes only with --yes', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-cli-projects-'));
    const repo = await repository({ 'site/docs.json': '{"name":"x"}', 'site/index.mdx': '# Hi\n' });
    const local = (...args: string[]) => docwright(['--data-dir', dataDir, ...args]);
    try {
      const wrong = await local(
        'project',
        'add',
        '--id',
        'p',
        '--repository',
        repo,
        '--ref',
        'main',
        '--docs-root',
        'docs',
      );
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain(
        `--docs-root docs is not a folder of ${repo} on main (a docs site's config is at site/docs.json)`,
      );

      expect((await local('project', 'add', '--id', 'p', '--repository', repo, '--ref', 'main')).code).toBe(
        0,
      );
      const updated = await local('project', 'update', 'p', '--docs-root', 'site', '--domain', 'p.example');
      expect(JSON.parse(updated.stdout)).toMatchObject({ id: 'p', docsRoot: 'site', domain: 'p.example' });
      expect((await local('project', 'update', 'p', '--docs-root', 'nope')).stderr).toContain(
        '--docs-root nope is not a folder',
      );
      expect((await local('project', 'update', 'p')).code).toBe(2);
      await local('key', 'create', '--project', 'p');

      const unconfirmed = await local('project', 'remove', 'p');
      expect(unconfirmed.code).toBe(2);
      expect(unconfirmed.stderr).toContain(
        'deletes its 0 job(s), their history and its 1 key(s); pass --yes',
      );
      const removed = await local('project', 'remove', 'p', '--yes');
      expect(JSON.parse(removed.stdout)).toEqual({ id: 'p', removed: true, jobs: 0, keys: 1 });
      expect(JSON.parse((await local('project', 'list', '--json')).stdout)).toEqual([]);
      expect((await local('key', 'list')).stdout).toBe('');
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
      await fs.rm(repo, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('check with no path, --version, a busy port', () => {
  it('finds the docs root from the settings file, else the nearest docs.json, else says how to name it', async () => {
    const settings = await repository({
      '.github/docwright.yml': 'docs_root: handbook\n',
      'handbook/docs.json': '{"name":"x","navigation":{"pages":["index"]}}',
      'handbook/index.mdx': '---\ntitle: Home\n---\n\n[Broken](/nowhere)\n',
      'README.md': '[not docs](/api/overview)\n',
    });
    const nested = await repository({
      'packages/site/docs.json': '{"name":"x","navigation":{"pages":["index"]}}',
      'packages/site/index.mdx': '---\ntitle: Home\n---\n\nFine.\n',
      'other/page.mdx': '[not docs](/api/overview)\n',
    });
    const bare = await repository({ 'notes.md': '# Notes\n' });
    const inside = (cwd: string) =>
      new Promise<Ran>((resolve) =>
        execFile(
          process.execPath,
          [
            '--import',
            pathToFileURL(path.resolve('node_modules/tsx/dist/loader.mjs')).href,
            path.resolve('src/cli.ts'),
            'check',
          ],
          { cwd },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
        ),
      );
    try {
      const fromSettings = await inside(path.join(settings, 'handbook'));
      expect(fromSettings.stderr).toContain('(docs_root in .github/docwright.yml)');
      // A broken link is a warning on a site whose build does not refuse it: listed, exit status 0.
      expect(fromSettings.code).toBe(0);
      expect(fromSettings.stdout).toContain('warning  the link /nowhere');
      expect(fromSettings.stdout).not.toContain('/api/overview');

      const fromConfig = await inside(nested);
      expect(fromConfig.stderr).toContain('Checking packages/site (it holds docs.json)');
      expect(fromConfig.code).toBe(0);

      const none = await inside(bare);
      expect(none.code).toBe(1);
      expect(none.stderr).toContain('No docs site config (docs.json, mint.json, mkdocs.yml');
      expect(none.stderr).toContain('name the docs folder, as in docwright check docs');
    } finally {
      for (const dir of [settings, nested, bare]) await fs.rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('prints its version, and exits 2 for an unknown command', async () => {
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    expect(await docwright(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
    const unknown = await docwright(['jbo', 'list']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'jbo'");
  }, 30_000);

  it('names --port and PORT when the port is taken, and prints the banner before any log line', async () => {
    const port = await freePort();
    const taken = net.createServer().listen(port);
    await new Promise((resolve) => taken.once('listening', resolve));
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-cli-port-'));
    try {
      const busy = await docwright(['--data-dir', dataDir, 'serve', '--port', String(port)]);
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain(
        `docwright: Port ${port} is in use: pass --port <n> or set PORT to another port`,
      );
      expect(busy.stderr).not.toContain('EADDRINUSE');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }

    // stdout and stderr into one file, in the order they were written.
    const both = path.join(dataDir, 'both.log');
    const fd = openSync(both, 'w');
    const child = spawn(process.execPath, [...CLI, '--data-dir', dataDir, 'serve', '--port', String(port)], {
      env: { ...process.env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    try {
      let text = '';
      for (let i = 0; i < 300 && !text.includes('setup flow is open'); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        text = await fs.readFile(both, 'utf8');
      }
      expect(text.startsWith(`docwright is serving on http://localhost:${port}`)).toBe(true);
      expect(text.indexOf('Create a job:')).toBeLessThan(text.indexOf('setup flow is open'));
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
