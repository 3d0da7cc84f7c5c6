import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type LocalServer } from './helpers/listen.js';
import { startTestService, type TestService } from './helpers/service.js';

/**
 * One request over a raw socket with `Connection: close`: when the body's last chunk arrived and
 * when the server closed the socket.
 */
function askAndClose(port: number, path: string, key: string) {
  const body = JSON.stringify({
    fp: 'anonymous',
    messages: [
      {
        id: 'm1',
        role: 'user',
        content: 'How do I start?',
        parts: [{ type: 'text', text: 'How do I start?' }],
      },
    ],
  });
  return new Promise<{ head: string; bodyEndedAt: number; closedAt: number }>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let bodyEndedAt = 0;
    socket.on('data', (data: Buffer) => {
      received += data.toString('utf8');
      // The last chunk of a chunked body.
      if (!bodyEndedAt && received.endsWith('0\r\n\r\n')) bodyEndedAt = Date.now();
    });
    socket.on('error', reject);
    socket.on('close', () =>
      resolve({ head: received.split('\r\n\r\n')[0] ?? '', bodyEndedAt, closedAt: Date.now() }),
    );
    socket.write(
      [
        `POST ${path} HTTP/1.1`,
        'Host: 127.0.0.1',
        `Authorization: Bearer ${key}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  });
}

describe('assistant streams and Connection: close', () => {
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

  it('sends the CORS headers, the thread id and the rate limits with an answer written to the socket', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/discovery/v2/assistant/docs/message`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${t.assistantKey}`,
        'content-type': 'application/json',
        origin: 'https://docs.example.com',
      },
      body: JSON.stringify({
        fp: 'anonymous',
        messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'How do I start?' }] }],
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain('X-Thread-Id');
    expect(response.headers.get('vary')).toBe('Origin');
    expect(response.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
    const threadId = response.headers.get('x-thread-id');
    const body = await response.text();
    expect(body).toContain(`"messageMetadata":{"threadId":"${threadId}"}`);
    expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
    const stored = await t.service.store.assistantThreads.messages(threadId!);
    expect(stored.map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  for (const version of ['v1', 'v2']) {
    it(`closes the socket when a ${version} answer ends`, async () => {
      const result = await askAndClose(port, `/discovery/${version}/assistant/docs/message`, t.assistantKey);
      expect(result.head).toMatch(/^HTTP\/1\.1 200/);
      expect(result.head.toLowerCase()).not.toContain('connection: keep-alive');
      expect(result.bodyEndedAt).toBeGreaterThan(0);
      // Node's keep-alive timeout is 5 s: a socket held open that long was not closed on purpose.
      expect(result.closedAt - result.bodyEndedAt).toBeLessThan(500);
    });
  }
});
