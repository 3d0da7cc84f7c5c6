import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/free-port.js';

const run = promisify(execFile);
const CLI = ['--import', 'tsx', 'src/cli.ts'];

function docwright(dataDir: string, ...args: string[]) {
  return run(process.execPath, [...CLI, '--data-dir', dataDir, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
}

/** Starts `docwright serve` and collects its stdout until the banner is complete. */
async function serve(dataDir: string, port: number): Promise<{ child: ChildProcess; output: string[] }> {
  const child = spawn(process.execPath, [...CLI, '--data-dir', dataDir, 'serve', '--port', String(port)], {
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      output.push(line);
      if (/^ {2}(curl|docwright|npx docwright) /.test(line)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output.join('\n')}`)));
  });
  return { child, output };
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

describe('npm start on a fresh data directory (docwright serve with the demo project)', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-cli-'));
  });
  afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

  it('prints the URL, project, keys and a curl line that creates a job; the job completes with a commit; a second start reuses them', async () => {
    const port = await freePort();
    const { child, output } = await serve(dataDir, port);
    try {
      const text = output.join('\n');
      expect(text).toContain(`serving on http://localhost:${port}`);
      expect(text).toContain('Demo project: demo');
      const adminKey = /Admin key \(shown once\):\s+(svc_\S+)/.exec(text)?.[1];
      expect(adminKey).toMatch(/^svc_[A-Za-z0-9]{40}$/);
      expect(text).toMatch(/Assistant key \(shown once\):\s+svc_dsc_[A-Za-z0-9]{40}/);
      expect(text).toMatch(
        new RegExp(`Chat with the docs: http://localhost:${port}/\\?domain=demo&key=svc_dsc_`),
      );
      const curl = output.find((line) => line.startsWith('  curl'))!.trim();
      const created = JSON.parse(execFileSync('sh', ['-c', curl], { encoding: 'utf8' }));
      expect(created.status).toBe('active');

      // The CLI's own client polls it to the end.
      const env = {
        ...process.env,
        DOCWRIGHT_URL: `http://localhost:${port}`,
        DOCWRIGHT_KEY: adminKey,
        DOCWRIGHT_PROJECT: 'demo',
      };
      let job;
      for (let attempt = 0; attempt < 100; attempt += 1) {
        job = JSON.parse((await run(process.execPath, [...CLI, 'job', 'get', created.id], { env })).stdout);
        if (job.status !== 'active') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(job.status).toBe('completed');
      const repo = path.join(dataDir, 'demo-repo');
      const show = execFileSync('git', ['-C', repo, 'show', `docwright/job-${created.id}:quickstart.mdx`], {
        encoding: 'utf8',
      });
      expect(show).toContain('## Try it\n\nThis section was written by my first docwright job.');

      const waited = JSON.parse(
        (
          await run(
            process.execPath,
            [
              ...CLI,
              'job',
              'create',
              '--wait',
              'append a section "Next steps" to quickstart with "Read the concepts page."',
            ],
            { env },
          )
        ).stdout,
      );
      expect(waited.status).toBe('completed');
      const list = JSON.parse(
        (await run(process.execPath, [...CLI, 'job', 'list', '--limit', '1'], { env })).stdout,
      );
      expect(list.jobs[0].id).toBe(waited.id);
      expect(list.nextCursor).toEqual(expect.any(String));
    } finally {
      expect(await stop(child)).toBe(0);
    }

    const again = await serve(dataDir, port);
    try {
      const text = again.output.join('\n');
      expect(text).toContain('Demo project: demo');
      expect(text).not.toContain('shown once');
      expect(text).toContain('Keys were printed at the first start');
      // Runnable as printed: docwright is not on this PATH, so the line says npx docwright.
      expect(text).toContain(`  npx docwright --data-dir ${dataDir} key create --project demo`);
    } finally {
      await stop(again.child);
    }
  }, 90_000);
});

describe('project and key commands', () => {
  it('adds and lists projects, and creates keys printed alone on stdout', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-cli-'));
    try {
      const repo = path.join(dataDir, 'site');
      await fs.mkdir(repo);
      execFileSync('git', ['-C', repo, 'init', '-q', '-b', 'trunk']);
      await fs.writeFile(path.join(repo, 'index.mdx'), '# Hi\n');
      execFileSync('git', ['-C', repo, 'add', '.']);
      execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init']);

      await docwright(
        dataDir,
        'project',
        'add',
        '--id',
        'site',
        '--repository',
        repo,
        '--ref',
        'trunk',
        '--domain',
        'site.example',
        '--allowed-origins',
        'https://a.dev, https://b.dev',
      );
      const { stdout } = await docwright(dataDir, 'project', 'list');
      expect(stdout.split('\n')[0]).toBe(
        `site\t${repo}\ttrunk\t.\tsite.example\thttps://a.dev,https://b.dev\tenabled`,
      );

      const admin = await docwright(dataDir, 'key', 'create', '--project', 'site');
      expect(admin.stdout).toMatch(/^svc_[A-Za-z0-9]{40}\n$/);
      const assistant = await docwright(dataDir, 'key', 'create', '--domain', 'site.example');
      expect(assistant.stdout).toMatch(/^svc_dsc_[A-Za-z0-9]{40}\n$/);

      await expect(
        docwright(dataDir, 'project', 'add', '--id', 'x', '--repository', repo, '--ref', 'main'),
      ).rejects.toMatchObject({
        stderr: expect.stringContaining('The branch "main" does not exist'),
      });
      await expect(
        docwright(dataDir, 'project', 'add', '--id', 'site', '--repository', repo, '--ref', 'trunk'),
      ).rejects.toMatchObject({
        stderr: expect.stringContaining('already exists'),
      });
      await expect(docwright(dataDir, 'key', 'create', '--project', 'nope')).rejects.toMatchObject({
        stderr: expect.stringContaining('Project nope not found'),
      });
      await expect(docwright(dataDir, 'job', 'get', 'x', '--project', 'site')).rejects.toMatchObject({
        stderr: expect.stringContaining('No API key'),
      });
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('help and an unreachable server', () => {
  it('shows an example in the --help of every command', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-cli-'));
    try {
      const commands = [
        [],
        ['serve'],
        ['project'],
        ['project', 'add'],
        ['project', 'list'],
        ['project', 'update'],
        ['project', 'remove'],
        ['key'],
        ['key', 'create'],
        ['key', 'list'],
        ['key', 'revoke'],
        ['job'],
        ['job', 'archive'],
        ['job', 'create'],
        ['job', 'get'],
        ['job', 'message'],
        ['job', 'list'],
        ['check'],
      ];
      const helps = await Promise.all(commands.map((command) => docwright(dataDir, ...command, '--help')));
      helps.forEach(({ stdout }, index) =>
        expect(stdout, `docwright ${commands[index]?.join(' ')} --help`).toMatch(
          /\nExamples:\n {2}\$ (npx )?docwright /,
        ),
      );
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('names the server it could not reach and what to check, without retrying', async () => {
    const port = await freePort(); // nothing listens there
    // The same command's start on this machine now, as it answers a usage error (no request).
    const baselineStart = Date.now();
    await expect(docwright(os.tmpdir(), 'job', 'get', 'k3n5p7q9r2s4t6u8v2wx')).rejects.toMatchObject({
      code: 2,
    });
    const baseline = Date.now() - baselineStart;
    const started = Date.now();
    const failure = docwright(
      os.tmpdir(),
      'job',
      'get',
      'k3n5p7q9r2s4t6u8v2wx',
      '--url',
      `http://127.0.0.1:${port}`,
      '--key',
      'svc_example',
      '--project',
      'demo',
    );
    await expect(failure).rejects.toMatchObject({
      stderr: expect.stringMatching(
        new RegExp(
          `^docwright: Could not reach the docwright server at http://127\\.0\\.0\\.1:${port}: connect ECONNREFUSED .+\\.\\nIs \`docwright serve\` running there\\? Start it, or pass --url \\(or set DOCWRIGHT_URL\\)`,
        ),
      ),
    });
    // Three retries would wait 2.6 s at the least (0.5, 1 and 2 s, less a quarter of jitter); what is
    // left is the process's own start, measured beside it rather than assumed.
    expect(Date.now() - started - baseline).toBeLessThan(2_000);
  });
});
