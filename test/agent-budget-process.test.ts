import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './helpers/free-port.js';
import { createGitRepo, type GitRepo } from './helpers/git-repo.js';

const run = promisify(execFile);
const CLI = ['--import', 'tsx', 'src/cli.ts'];
const PAGES = 1000;
const LONG_TEXT = 'x'.repeat(19_000);

/** A page of ordinary prose: a couple of hundred letters "e", as real pages have. */
function page(index: number): string {
  const prose = 'Here we describe the settings of the service and the steps to take before deploying. ';
  return `---\ntitle: Page ${index}\n---\n\n## Overview\n\n${prose.repeat(8)}\n`;
}

/** VmHWM and VmRSS of a process, in MiB, from /proc/<pid>/status (Linux). */
function memoryOf(pid: number): { hwm: number; rss: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { hwm: kib('VmHWM') / 1024, rss: kib('VmRSS') / 1024 };
  } catch {
    return undefined;
  }
}

const onLinux = process.platform === 'linux';
if (!onLinux) console.warn('skipping the output budget process test: it reads /proc/<pid>/status');

describe.skipIf(!onLinux)('the output budget, as a user hits it (docwright serve, a 1,000-page site)', () => {
  let dataDir: string | undefined;
  let repo: GitRepo | undefined;
  let child: ChildProcess | undefined;
  afterAll(async () => {
    child?.kill('SIGKILL');
    await repo?.cleanup();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('fails `replace "e" with <19,000 characters>` in words, once, with bounded memory', async () => {
    const files = Object.fromEntries(
      Array.from({ length: PAGES }, (_, index) => [`pages/page-${index}.mdx`, page(index)]),
    );
    repo = await createGitRepo(files);
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-budget-'));
    const env = { ...process.env, LOG_LEVEL: 'info' as const };
    const docwright = (...args: string[]) =>
      run(process.execPath, [...CLI, '--data-dir', dataDir!, ...args], { env });
    await docwright('project', 'add', '--id', 'big', '--repository', repo.dir, '--ref', 'main');
    const key = (await docwright('key', 'create', '--project', 'big')).stdout.trim();

    const port = await freePort();
    child = spawn(process.execPath, [...CLI, '--data-dir', dataDir, 'serve', '--port', String(port)], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pid = child.pid!;
    // The banner comes on stdout, the log (one JSON object a line) on stderr.
    const lines: string[] = [];
    createInterface({ input: child.stderr! }).on('line', (line) => lines.push(line));
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child!.stdout! }).on('line', (line) => {
        lines.push(line);
        if (line.startsWith('docwright is serving on')) resolve();
      });
      child!.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${lines.join('\n')}`)));
    });

    let peakRss = 0;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, memoryOf(pid)?.rss ?? 0);
    }, 20);
    const api = `http://127.0.0.1:${port}/v2/agent/big`;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await fetch(`${api}/job`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ prompt: `replace "e" with "${LONG_TEXT}"` }),
    });
    expect(created.status).toBe(201);
    const job = (await created.json()) as { id: string };
    let settled: { status: string; error: string | null } | undefined;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const response = await fetch(`${api}/job/${job.id}`, { headers });
      settled = (await response.json()) as { status: string; error: string | null };
      if (settled.status !== 'active') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // A second look later: a retried job would have been claimed again by now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    clearInterval(sampler);
    const memory = memoryOf(pid);

    expect(settled?.status).toBe('failed');
    expect(settled?.error).toMatch(
      /^The request was stopped and nothing was committed, because the change is too large: pages\/page-\d+\.mdx would be [\d.]+ MiB, more than the 1 MiB allowed for one file/,
    );
    const runs = lines.filter((line) => line.includes('"run started"') && line.includes(job.id));
    expect(runs).toHaveLength(1);
    expect(lines.some((line) => line.includes('retrying'))).toBe(false);
    console.info(
      `budget process test: VmHWM ${memory?.hwm.toFixed(0)} MiB, peak VmRSS ${peakRss.toFixed(0)} MiB`,
    );
    expect(memory?.hwm).toBeLessThan(400);
    expect(peakRss).toBeLessThan(400);
  }, 120_000);
});
