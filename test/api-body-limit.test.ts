import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type LocalServer } from './helpers/listen.js';
import { startTestService, type TestService } from './helpers/service.js';

/** A POST over a real socket, its body sent with Content-Length or chunked (no length declared). */
function post(port: number, key: string, body: string, chunked: boolean, path = '/v2/agent/docs/job') {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path,
        agent: false,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': Buffer.byteLength(body) }),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    // The server may answer 413 and close before the whole body is written.
    request.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' ? undefined : reject(error),
    );
    if (chunked)
      for (let at = 0; at < body.length; at += 64 * 1024) request.write(body.slice(at, at + 64 * 1024));
    else request.write(body);
    request.end();
  });
}

describe('request body limit over a real socket', () => {
  let t: TestService;
  let server: LocalServer;
  let port: number;
  beforeAll(async () => {
    t = await startTestService({ startWorker: false });
    server = await listen(t.service.app.fetch);
    port = server.port;
  });
  afterAll(async () => {
    await server.close();
    await t.cleanup();
  });

  const small = JSON.stringify({ prompt: 'replace "Acme Cloud" with "Acme Platform"' });
  const large = JSON.stringify({ prompt: 'x'.repeat(1024 * 1024 + 10) });

  for (const chunked of [false, true]) {
    const how = chunked ? 'chunked' : 'with Content-Length';
    it(`reads a body sent ${how}`, async () => {
      const response = await post(port, t.adminKey, small, chunked);
      expect(response.status).toBe(201);
      expect(JSON.parse(response.body)).toMatchObject({ status: expect.any(String) });
    });

    it(`413 for a body over 1 MiB sent ${how}`, async () => {
      const response = await post(port, t.adminKey, large, chunked);
      expect(response.status).toBe(413);
      expect(JSON.parse(response.body)).toMatchObject({ code: 'payload_too_large' });
    });
  }

  it('answers a question of nearly 1 MiB made to be slow to read, and stores it', async () => {
    // A credential word before a long run of spaces once made the secret redactor, which every
    // stored question passes through, scan the run from each of its positions: minutes of CPU.
    const question = `token${' '.repeat(1000 * 1000)}where do I set the theme?`;
    const body = JSON.stringify({
      fp: 'slow',
      messages: [{ role: 'user', parts: [{ type: 'text', text: question }] }],
    });
    const started = performance.now();
    const response = await post(port, t.assistantKey, body, false, '/discovery/v2/assistant/docs/message');
    expect(response.status).toBe(200);
    expect(response.body).toContain('data: [DONE]');
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
