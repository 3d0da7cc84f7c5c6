import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServeProcess, type ServeProcess } from './helpers/serve-process.js';

const MiB = 1024 * 1024;
const WEBHOOK_SECRET = 'process-test-webhook-secret';

interface Sent {
  status: number;
  /** From the first byte sent to the answer's status line. */
  ms: number;
  sentBytes: number;
}

/**
 * A delivery of `totalBytes` with a bogus signature, written 1 MiB at a time over its own socket,
 * as an attacker would send it; writing stops when the server answers.
 */
function sendLargeDelivery(url: string, totalBytes: number, declareLength: boolean): Promise<Sent> {
  const chunk = Buffer.alloc(MiB, 'a');
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let sentBytes = 0;
    let answered: Sent | null = null;
    const request = http.request(`${url}/api/github/webhooks`, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'issue_comment',
        'x-github-delivery': `large-${totalBytes}-${declareLength}`,
        'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
        ...(declareLength ? { 'content-length': String(totalBytes) } : {}),
      },
    });
    request.on('response', (response) => {
      answered = { status: response.statusCode ?? 0, ms: Date.now() - started, sentBytes };
      response.resume();
      response.on('end', () => resolve(answered!));
    });
    // The server closes the connection after its early answer; writes after that fail by design.
    // A write can fail before the answer is read (the answer is lost with the socket): that is a
    // refusal too, reported as status 0, never an acceptance.
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) resolve(answered);
      else if (error.code === 'EPIPE' || error.code === 'ECONNRESET')
        resolve({ status: 0, ms: Date.now() - started, sentBytes });
      else reject(error);
    });
    const pump = () => {
      while (!answered && !request.destroyed && sentBytes < totalBytes) {
        sentBytes += chunk.length;
        if (!request.write(chunk)) return void request.once('drain', pump);
      }
      if (!answered && !request.destroyed) request.end();
    };
    pump();
  });
}

/**
 * `docwright serve` as a process, attacked the way a probe found it weak: deliveries far over
 * GitHub's 25 MB cap with a bogus signature. Memory is read from /proc, the log from its file.
 */
/** Token mode with a repository webhook's secret: the webhook path is served, no GitHub is needed. */
const environment = () => ({
  ...process.env,
  GITHUB_TOKEN: `ghp_${'x1'.repeat(18)}`,
  WEBHOOK_SECRET,
  LOG_LEVEL: 'info' as const,
  NODE_ENV: 'production',
});

describe('webhook deliveries against docwright serve', () => {
  let root: string;
  let serve: ServeProcess;

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-webhook-process-'));
    serve = await startServeProcess(path.join(root, 'data'), environment(), path.join(root, 'serve.log'));
  }, 60_000);

  afterAll(async () => {
    await serve?.stop();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('answers a 200 MiB delivery with 413 at once, in bounded memory, with one short log line', async () => {
    const before = serve.memory();
    const logBefore = (await fs.stat(serve.logFile)).size;
    const declared = await sendLargeDelivery(serve.url, 200 * MiB, true);
    const streamed = await sendLargeDelivery(serve.url, 200 * MiB, false);
    const after = serve.memory();
    const logGrowth = (await fs.stat(serve.logFile)).size - logBefore;

    // The answer to a declared length over the cap leaves before a byte of the body is read; the
    // client, still sending, can meet the close before it reads the answer (status 0), as below.
    // What the server answered is in its log either way.
    expect([413, 0]).toContain(declared.status);
    expect(declared.ms).toBeLessThan(2000);
    // The server answers 413 and closes while the client is still sending: the reset of the unread
    // bytes can reach the client before it reads the answer, which it then never sees (status 0).
    // What the server answered is in its log, below.
    expect([413, 0]).toContain(streamed.status);
    expect(streamed.ms).toBeLessThan(5000);
    // Reading stopped at the 25 MiB cap, not at 200 MiB.
    expect(streamed.sentBytes).toBeLessThan(120 * MiB);
    // The unbounded reader took the process from 642 MB to 2.1 GB on one such delivery.
    expect((after.peakKb - before.peakKb) / 1024).toBeLessThan(150);
    expect(logGrowth).toBeLessThan(4096);
    const log = await fs.readFile(serve.logFile, 'utf8');
    expect(log).not.toContain('aaaaaaaaaaaaaaaa');
    const refused = log.split('\n').filter((line) => line.includes('webhook delivery refused'));
    expect(refused).toHaveLength(2);
    expect(JSON.parse(refused[0]!)).toMatchObject({ event: 'issue_comment', status: 413, size: 200 * MiB });
    expect(JSON.parse(refused[1]!)).toMatchObject({ event: 'issue_comment', status: 413 });
    console.log(
      `200 MiB deliveries: 413 after ${declared.ms} ms (declared), ${streamed.status || 'reset before the answer was read'} after ${streamed.ms} ms (chunked, ${streamed.sentBytes / MiB} MiB sent); ` +
        `VmHWM ${(before.peakKb / 1024) | 0} -> ${(after.peakKb / 1024) | 0} MiB; log +${logGrowth} bytes`,
    );
  }, 60_000);

  it('answers parallel wrongly signed deliveries under the cap with 400 or 503 (or an early close), never 202, in bounded memory', async () => {
    // A fresh process: the high-water mark of the 200 MiB deliveries above must not hide this one's.
    await serve.stop();
    serve = await startServeProcess(path.join(root, 'data'), environment(), path.join(root, 'serve-2.log'));
    const before = serve.memory();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => sendLargeDelivery(serve.url, 20 * MiB, true)),
    );
    const after = serve.memory();
    const statuses = results.map((result) => result.status);
    expect(statuses.every((status) => status === 400 || status === 503 || status === 0)).toBe(true);
    // What fits in the budget of bytes read at once (32 MiB: one of these) was read and refused for its signature.
    expect(statuses.filter((status) => status === 400).length).toBeGreaterThanOrEqual(1);
    // 20 x 20 MiB were sent by nobody the server knows: memory grew by less than 50 MB, not 400 MiB.
    expect((after.peakKb - before.peakKb) / 1024).toBeLessThan(50);
    console.log(
      `20 parallel 20 MiB bad deliveries: ${statuses.filter((status) => status === 400).length} x 400, ` +
        `${statuses.filter((status) => status === 503).length} x 503; slowest ${Math.max(...results.map((r) => r.ms))} ms; ` +
        `VmHWM ${(before.peakKb / 1024) | 0} -> ${(after.peakKb / 1024) | 0} MiB`,
    );
  }, 60_000);
});
