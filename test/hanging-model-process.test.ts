import { execFileSync } from 'node:child_process';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServeProcess, type ServeProcess } from './helpers/serve-process.js';

/**
 * An OpenAI-compatible server that takes every request and never answers it, as a hung provider
 * or a proxy that lost its upstream does. It notes each request and when its caller gave up.
 */
async function hangingModelServer() {
  const requests: { path: string; closedAt: number | null }[] = [];
  const server = http.createServer((request, response) => {
    const seen = { path: request.url ?? '', closedAt: null as number | null };
    requests.push(seen);
    request.resume();
    response.on('close', () => (seen.closedAt = Date.now()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const until = async <T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/**
 * `docwright serve` with a model that never answers: a job is archived in the middle of its model
 * request and stops at once; a job left alone fails when its time runs out, saying so; a reader's
 * answer ends in an error instead of a stream left open.
 */
describe('a model that never answers', () => {
  let root: string;
  let model: Awaited<ReturnType<typeof hangingModelServer>>;
  let serve: ServeProcess;
  let adminKey: string;
  let assistantKey: string;

  beforeAll(async () => {
    root = await fsp.mkdtemp(path.join(os.tmpdir(), 'docwright-hanging-'));
    model = await hangingModelServer();
    serve = await startServeProcess(
      path.join(root, 'data'),
      {
        ...process.env,
        DOCWRIGHT_MODEL: 'openai:gpt-hanging',
        OPENAI_BASE_URL: model.url,
        DOCWRIGHT_RUN_MINUTES: '0.05',
        DOCWRIGHT_ANSWER_IDLE_SECONDS: '2',
        LOG_LEVEL: 'info',
      },
      path.join(root, 'serve.log'),
    );
    const banner = await until(
      () => (serve.banner.some((line) => line.includes('svc_dsc_')) ? serve.banner.join('\n') : undefined),
      5000,
    );
    adminKey = /Admin key \(shown once\):\s+(svc_\S+)/.exec(banner)![1]!;
    assistantKey = /Assistant key \(shown once\):\s+(svc_dsc_\S+)/.exec(banner)![1]!;
  }, 60_000);

  afterAll(async () => {
    await serve?.stop();
    await model?.close();
    await fsp.rm(root, { recursive: true, force: true });
  });

  const call = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${serve.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as {
      id: string;
      status: string;
      error: string | null;
      reply?: string | null;
      changed?: boolean | null;
    };
  };

  it('stops a run within seconds when its job is archived: the model request is aborted, nothing committed', async () => {
    const job = await call('POST', '/v2/agent/demo/job', {
      prompt: 'rewrite the quickstart in a friendlier tone',
    });
    const before = model.requests.length;
    const request = await until(() => model.requests[before], 10_000);
    const archivedAt = Date.now();
    expect((await call('POST', `/v2/agent/demo/job/${job.id}/archive`)).status).toBe('archived');
    await until(() => request.closedAt ?? undefined, 5000);
    expect(request.closedAt! - archivedAt).toBeLessThan(2000);
    const stopped = await until(async () => {
      const seen = await call('GET', `/v2/agent/demo/job/${job.id}`);
      return seen.reply ? seen : undefined;
    }, 5000);
    expect(stopped).toMatchObject({ status: 'archived', changed: false });
    expect(stopped.reply).toMatch(/^Stopped: the job was archived/);
    const repo = path.join(root, 'data', 'demo-repo');
    expect(() =>
      execFileSync('git', ['-C', repo, 'rev-parse', '--verify', '--quiet', `docwright/job-${job.id}`]),
    ).toThrow();
  }, 30_000);

  it('fails a job whose model never answers once its run time is over, with the reason', async () => {
    const job = await call('POST', '/v2/agent/demo/job', { prompt: 'add an FAQ page' });
    const failed = await until(async () => {
      const seen = await call('GET', `/v2/agent/demo/job/${job.id}`);
      return seen.status === 'failed' ? seen : undefined;
    }, 20_000);
    expect(failed.error).toMatch(
      /^The model did not answer within the time budget \(3 seconds\), so nothing was changed/,
    );
  }, 30_000);

  it("ends a reader's answer with an error part after the model's silence, not a stream left open", async () => {
    const started = Date.now();
    const response = await fetch(`${serve.url}/discovery/v2/assistant/demo/message`, {
      method: 'POST',
      headers: { authorization: `Bearer ${assistantKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        fp: 'anonymous',
        messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'How do I install it?' }] }],
      }),
    });
    expect(response.status).toBe(200);
    const stream = await response.text();
    const elapsed = Date.now() - started;
    expect(stream).toContain('"type":"error"');
    expect(stream).toContain('data: [DONE]');
    expect(elapsed).toBeGreaterThanOrEqual(1900);
    expect(elapsed).toBeLessThan(8000);
  }, 30_000);
});
