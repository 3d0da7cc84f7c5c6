import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_DOCS_DIR, seedRepository } from '../src/cli/demo.js';
import { SQLite } from '../src/core/sqlite.js';
import { startPostgres, type TestPostgres } from './helpers/postgres.js';
import { startServeProcess, type ServeProcess } from './helpers/serve-process.js';

const run = promisify(execFile);
const CLI = ['--import', 'tsx', 'src/cli.ts'];

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { id?: string; status?: string; code?: string; retryable?: boolean; error?: string };
}

async function call(serve: ServeProcess, key: string, method: string, route: string, body?: unknown) {
  const response = await fetch(`${serve.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: text.startsWith('{') ? JSON.parse(text) : {},
  };
}

/** Polls until every job is completed, archived or failed; returns their statuses. */
async function settle(serve: ServeProcess, key: string, project: string, ids: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  const statuses = new Map<string, string>();
  while (Date.now() < deadline) {
    for (const id of ids) {
      if (['completed', 'failed', 'archived'].includes(statuses.get(id) ?? '')) continue;
      const answer = await call(serve, key, 'GET', `/v2/agent/${project}/job/${id}`);
      if (answer.status === 200) statuses.set(id, answer.body.status);
    }
    if (ids.every((id) => ['completed', 'failed', 'archived'].includes(statuses.get(id) ?? ''))) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return statuses;
}

/** Commits on a job's branch past main: exactly one for a job whose run was never doubled. */
function commitsOn(repo: string, jobId: string): string {
  return execFileSync('git', ['-C', repo, 'rev-list', '--count', `main..docwright/job-${jobId}`], {
    encoding: 'utf8',
  }).trim();
}

/** Asks the assistant (v2) and reads its whole stream; `threadId` continues a conversation. */
async function ask(serve: ServeProcess, key: string, question: string, threadId?: string) {
  const response = await fetch(`${serve.url}/discovery/v2/assistant/demo/message`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      fp: 'anonymous',
      ...(threadId ? { threadId } : {}),
      messages: [{ id: `m${Date.now()}`, role: 'user', parts: [{ type: 'text', text: question }] }],
    }),
  });
  expect(response.status).toBe(200);
  const stream = await response.text();
  return { stream, threadId: /"threadId":"([^"]+)"/.exec(stream)?.[1] };
}

async function metric(serve: ServeProcess, name: string, labels: string): Promise<number> {
  const text = await (await fetch(`${serve.url}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{${labels}}`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

/**
 * PostgreSQL stopped with `-m fast` (what a restart, an upgrade or a failover does to the sessions)
 * for three seconds, five times, while one `docwright serve` takes a job creation every 150 ms and
 * runs the jobs: a connection lost while checked out of the pool once ended the process.
 */
describe('PostgreSQL goes away and comes back under load', () => {
  let postgres: TestPostgres;
  let root: string;
  let repo: string;
  let key: string;
  let serve: ServeProcess;
  const CYCLES = 5;

  beforeAll(async () => {
    postgres = await startPostgres();
    root = await fsp.mkdtemp(path.join(os.tmpdir(), 'docwright-pg-fault-'));
    const env = {
      ...process.env,
      DATABASE_URL: await postgres.createDatabase(),
      DOCWRIGHT_LEASE_SECONDS: '2',
      DOCWRIGHT_JOB_RATE_LIMIT: '100000',
      DOCWRIGHT_METRICS: '1',
      LOG_LEVEL: 'info' as const,
    };
    repo = path.join(root, 'repo');
    await seedRepository(repo, SAMPLE_DOCS_DIR, process.env);
    const cli = (...args: string[]) =>
      run(process.execPath, [...CLI, '--data-dir', path.join(root, 'cli'), ...args], { env });
    await cli('project', 'add', '--id', 'docs', '--repository', repo, '--ref', 'main');
    key = (await cli('key', 'create', '--project', 'docs')).stdout.trim();
    serve = await startServeProcess(path.join(root, 'data'), env, path.join(root, 'serve.log'));
  }, 60_000);

  afterAll(async () => {
    await serve?.stop();
    await postgres?.stop();
    await fsp.rm(root, { recursive: true, force: true });
  });

  it('lives through every restart, refuses with 503 and Retry-After meanwhile, and completes every accepted job once', async () => {
    const answers: Answer[] = [];
    let loading = true;
    let count = 0;
    const load = (async () => {
      while (loading) {
        const prompt = `replace "Acme Cloud" with "Acme ${(count += 1)}"`;
        answers.push(await call(serve, key, 'POST', '/v2/agent/docs/job', { prompt }));
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    })();
    for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await postgres.interrupt(3000);
      expect(serve.child.exitCode, `serve exited during outage ${cycle}`).toBeNull();
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    loading = false;
    await load;

    expect(serve.child.exitCode).toBeNull();
    const statuses = [...new Set(answers.map((answer) => answer.status))].sort();
    expect(statuses).toEqual([201, 503]);
    for (const refused of answers.filter((answer) => answer.status === 503)) {
      expect(refused.body).toMatchObject({ code: 'unavailable', retryable: true });
      expect(refused.retryAfter).toBe('5');
    }
    const accepted = answers.filter((answer) => answer.status === 201).map((answer) => answer.body.id!);
    const final = await settle(serve, key, 'docs', accepted, 120_000);
    expect([...new Set(final.values())]).toEqual(['completed']);
    expect(accepted.map((id) => commitsOn(repo, id)).filter((count) => count !== '1')).toEqual([]);

    // Counted per refused operation, logged once per outage (not per request).
    expect(await metric(serve, 'docwright_storage_faults_total', 'fault="unreachable"')).toBeGreaterThan(0);
    const log = await fsp.readFile(serve.logFile, 'utf8');
    const outages = log.split('\n').filter((line) => line.includes('"msg":"the database cannot be reached'));
    expect(outages.length).toBeGreaterThanOrEqual(1);
    expect(outages.length).toBeLessThanOrEqual(CYCLES * 3);
    expect(log).not.toMatch(/Unhandled 'error' event|Connection terminated unexpectedly\n\s+at/);
    console.log(
      `${answers.length} creations over ${CYCLES} outages: ${accepted.length} accepted (all completed once), ` +
        `${answers.length - accepted.length} refused with 503; ${outages.length} outage log lines`,
    );
  }, 240_000);
});

/** Whether this machine lets the tests mount a tmpfs (as root in a sandbox that allows it). */
function canMount(): boolean {
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'docwright-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

const mountable = process.platform === 'linux' && canMount();
if (!mountable)
  console.warn('Skipping the full-disk process test: this machine does not let the tests mount a tmpfs.');

/**
 * The data folder on a 48 MiB tmpfs, filled to the last byte while a job runs: creations are
 * refused with 507 in words, reads and answers go on, nothing is corrupt, and work resumes once
 * space is freed.
 */
describe.skipIf(!mountable)('the data folder fills up', () => {
  let mount: string;
  let serve: ServeProcess;
  let adminKey: string;
  let assistantKey: string;
  const filler = () => path.join(mount, 'filler');

  beforeAll(async () => {
    mount = await fsp.mkdtemp(path.join(os.tmpdir(), 'docwright-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', mount]);
    serve = await startServeProcess(
      path.join(mount, 'data'),
      { ...process.env, DOCWRIGHT_LEASE_SECONDS: '2', DOCWRIGHT_METRICS: '1', LOG_LEVEL: 'info' },
      path.join(os.tmpdir(), `docwright-full-${process.pid}.log`),
    );
    const banner = async () => {
      for (
        let waited = 0;
        waited < 5000 && !serve.banner.some((line) => line.includes('svc_dsc_'));
        waited += 50
      )
        await new Promise((resolve) => setTimeout(resolve, 50));
      return serve.banner.join('\n');
    };
    const text = await banner();
    adminKey = /Admin key \(shown once\):\s+(svc_\S+)/.exec(text)![1]!;
    assistantKey = /Assistant key \(shown once\):\s+(svc_dsc_\S+)/.exec(text)![1]!;
  }, 60_000);

  afterAll(async () => {
    await serve?.stop();
    if (mount) {
      execFileSync('umount', [mount]);
      await fsp.rm(mount, { recursive: true, force: true });
    }
  });

  /** Writes a file until the filesystem says ENOSPC. */
  function fill(): void {
    const block = Buffer.alloc(256 * 1024, 1);
    const handle = fs.openSync(filler(), 'w');
    try {
      for (;;) fs.writeSync(handle, block);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    } finally {
      fs.closeSync(handle);
    }
  }

  it('refuses creations with 507, keeps serving reads and answers, and resumes the job once space is freed', async () => {
    const created = await call(serve, adminKey, 'POST', '/v2/agent/demo/job', {
      prompt: 'append a section "Limits" to quickstart with "Each key may send 600 requests a minute."',
    });
    expect(created.status).toBe(201);
    fill();

    const refused = await call(serve, adminKey, 'POST', '/v2/agent/demo/job', {
      prompt: 'replace "a" with "b"',
    });
    expect(refused.status).toBe(507);
    expect(refused.body).toMatchObject({ code: 'storage_full', retryable: true });
    expect(refused.body.error).toMatch(/storage is full/);
    expect(refused.retryAfter).toBe('60');

    const read = await call(serve, adminKey, 'GET', `/v2/agent/demo/job/${created.body.id!}`);
    expect(read.status).toBe(200);
    // A reader's question is answered, and the thread it starts goes on, though it cannot be stored.
    const first = await ask(serve, assistantKey, 'How do I install it?');
    expect(first.stream).toContain('"type":"text-delta"');
    expect(first.stream).not.toContain('"type":"error"');
    const second = await ask(serve, assistantKey, 'and how do I create a key?', first.threadId);
    expect(second.threadId).toBe(first.threadId);
    expect(second.stream).toContain('"type":"text-delta"');
    expect(await metric(serve, 'docwright_storage_faults_total', 'fault="full"')).toBeGreaterThan(0);
    expect(serve.child.exitCode).toBeNull();

    await fsp.rm(filler());
    const final = await settle(serve, adminKey, 'demo', [created.body.id!], 60_000);
    expect(final.get(created.body.id)).toBe('completed');
    const repo = path.join(mount, 'data', 'demo-repo');
    expect(commitsOn(repo, created.body.id)).toBe('1');
    const again = await call(serve, adminKey, 'POST', '/v2/agent/demo/job', {
      prompt: 'append a section "Support" to quickstart with "Ask in the issue tracker."',
    });
    expect(again.status).toBe(201);
    expect((await settle(serve, adminKey, 'demo', [again.body.id!], 60_000)).get(again.body.id)).toBe(
      'completed',
    );

    // With space again, the thread's next question stores it with everything said while full.
    await ask(serve, assistantKey, 'where do I put the key?', first.threadId);

    // Nothing half-written: the database and the repository check out whole.
    const database = new SQLite(path.join(mount, 'data', 'docwright.db'), { readonly: true });
    try {
      expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
      const stored = database
        .prepare('select role, content from assistant_messages where thread_id = ? order by id')
        .all(first.threadId) as { role: string; content: string }[];
      expect(stored.map((message) => message.role)).toEqual([
        'user',
        'assistant',
        'user',
        'assistant',
        'user',
        'assistant',
      ]);
      expect(stored[2]!.content).toBe('and how do I create a key?');
    } finally {
      database.close();
    }
    execFileSync('git', ['-C', repo, 'fsck', '--no-progress'], { stdio: 'pipe' });
    const log = await fsp.readFile(serve.logFile, 'utf8');
    const episodes = log.split('\n').filter((line) => line.includes('"msg":"storage is full'));
    expect(episodes.length).toBeGreaterThanOrEqual(1);
    expect(episodes.length).toBeLessThanOrEqual(2);
  }, 120_000);
});
