import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { SQLite } from '../src/core/sqlite.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/core/logger.js';
import { redactConfiguredSecrets, redactSecrets } from '../src/core/redact.js';
import { startServeProcess, type ServeProcess } from './helpers/serve-process.js';

const ADMIN_LIKE = `svc_${'K3y'.repeat(12)}`;
const GITHUB_TOKEN_LIKE = `ghp_${'T0k'.repeat(12)}`;
const modeOf = async (file: string) => (await fs.stat(file)).mode & 0o777;

/** A pid that belonged to a process that has exited: what a SIGKILLed docwright leaves behind. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

describe('data at rest of docwright serve', () => {
  let root: string;
  let tmp: string;
  let dataDir: string;
  let serve: ServeProcess;
  let leftovers: string[];
  let alive: string;

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-at-rest-'));
    // The server's temporary folder is the test's own: other processes' commit folders stay out of reach.
    tmp = path.join(root, 'tmp');
    await fs.mkdir(tmp);
    leftovers = [
      path.join(tmp, `docwright-commit-${deadPid()}-a1b2c3`),
      path.join(tmp, 'docwright-commit-Zx81Qa'),
    ];
    for (const folder of leftovers) {
      await fs.mkdir(folder);
      await fs.writeFile(path.join(folder, 'index'), 'left by a killed commit');
    }
    const twoHoursAgo = new Date(Date.now() - 2 * 3600 * 1000);
    await fs.utimes(leftovers[1]!, twoHoursAgo, twoHoursAgo);
    alive = path.join(tmp, `docwright-commit-${process.pid}-live01`);
    await fs.mkdir(alive);
    dataDir = path.join(root, 'data');
    serve = await startServeProcess(
      dataDir,
      { ...process.env, TMPDIR: tmp, LOG_LEVEL: 'info', DOCWRIGHT_LEASE_SECONDS: '2' },
      path.join(root, 'serve.log'),
    );
  }, 60_000);

  afterAll(async () => {
    await serve?.stop();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('removes commit folders of killed processes at start-up, and leaves a live one', async () => {
    for (const folder of leftovers) await expect(fs.stat(folder)).rejects.toThrow(/ENOENT/);
    await expect(fs.stat(alive)).resolves.toBeTruthy();
  });

  it('keeps its data folder 0700 and the database with its WAL and SHM 0600', async () => {
    // A write, so the WAL and SHM exist.
    const admin = serve.banner
      .find((line) => line.startsWith('Admin key'))!
      .split(/\s+/)
      .at(-1)!;
    const created = await fetch(`${serve.url}/v2/agent/demo/job`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'make it sparkle' }),
    });
    expect(created.status).toBe(201);
    expect(await modeOf(dataDir)).toBe(0o700);
    for (const file of ['docwright.db', 'docwright.db-wal', 'docwright.db-shm']) {
      expect([file, await modeOf(path.join(dataDir, file))]).toEqual([file, 0o600]);
    }
  });

  it('stores questions, job requests and replies without the secrets pasted into them', async () => {
    const banner = (label: string) =>
      serve.banner
        .find((line) => line.startsWith(label))!
        .split(/\s+/)
        .at(-1)!;
    const question = `My key ${ADMIN_LIKE} and token ${GITHUB_TOKEN_LIKE} fail: how do I start?`;
    const answer = await fetch(`${serve.url}/discovery/v2/assistant/demo/message`, {
      method: 'POST',
      headers: { authorization: `Bearer ${banner('Assistant key')}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        fp: 'anonymous',
        messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: question }] }],
      }),
    });
    expect(answer.status).toBe(200);
    await answer.text();
    const job = await fetch(`${serve.url}/v2/agent/demo/job`, {
      method: 'POST',
      headers: { authorization: `Bearer ${banner('Admin key')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: `replace "Acme Cloud" with "${GITHUB_TOKEN_LIKE}"` }),
    });
    const { id } = (await job.json()) as { id: string };
    let shown = '';
    for (let poll = 0; poll < 200; poll += 1) {
      const response = await fetch(`${serve.url}/v2/agent/demo/job/${id}`, {
        headers: { authorization: `Bearer ${banner('Admin key')}` },
      });
      shown = await response.text();
      if (!shown.includes('"status":"active"')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(shown).toContain('[REDACTED]');
    expect(shown).not.toContain(GITHUB_TOKEN_LIKE);

    const database = new SQLite(path.join(dataDir, 'docwright.db'), { readonly: true });
    try {
      const stored = [
        ...database.prepare('select content from assistant_messages').all(),
        ...database.prepare('select content from job_messages').all(),
      ].map((row) => (row as { content: string }).content);
      expect(stored.join('\n')).toContain('[REDACTED]');
      for (const secret of [ADMIN_LIKE, GITHUB_TOKEN_LIKE]) expect(stored.join('\n')).not.toContain(secret);
    } finally {
      database.close();
    }
    const log = await fs.readFile(serve.logFile, 'utf8');
    for (const secret of [ADMIN_LIKE, GITHUB_TOKEN_LIKE]) expect(log).not.toContain(secret);
  }, 30_000);
});

describe('the one redactor', () => {
  it('covers docwright keys, GitHub tokens, provider keys, PEM blocks and configured secrets', () => {
    redactConfiguredSecrets(['a-configured-webhook-secret']);
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----';
    const text = [
      ADMIN_LIKE,
      GITHUB_TOKEN_LIKE,
      `github_pat_${'x'.repeat(30)}`,
      `ghs_${'S3rv'.repeat(10)}`,
      `sk-proj-${'a1'.repeat(15)}`,
      pem,
      'secret=a-configured-webhook-secret',
    ].join(' | ');
    expect(redactSecrets(text)).toBe(
      '[REDACTED] | [REDACTED] | [REDACTED] | [REDACTED] | [REDACTED] | [REDACTED] | secret=[REDACTED]',
    );
    expect(redactSecrets('Authorization: Bearer YOUR_API_KEY')).toBe('Authorization: Bearer YOUR_API_KEY');
  });

  it('keeps payloads and secrets out of log lines', () => {
    const sink = new PassThrough();
    let written = '';
    sink.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
    const logger = createLogger({ level: 'info', destination: sink });
    const error = Object.assign(new Error(`request with ${GITHUB_TOKEN_LIKE} failed`), {
      event: { id: 'd1', payload: { comment: { body: 'PAYLOAD-BODY'.repeat(100) } } },
    });
    logger.error({ err: error }, `handling failed for ${ADMIN_LIKE}`);
    expect(written).not.toContain('PAYLOAD-BODY');
    expect(written).not.toContain(GITHUB_TOKEN_LIKE);
    expect(written).not.toContain(ADMIN_LIKE);
    expect(written).toContain('[REDACTED]');
  });
});
