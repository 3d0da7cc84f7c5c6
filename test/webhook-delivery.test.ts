import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { serve, type ServerType } from '@hono/node-server';
import { sign } from '@octokit/webhooks-methods';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { createServerWithFrontDoor, createWebhookMiddleware } from '../src/bot/front-door.js';
import type { DeliveryOutcome } from '../src/bot/webhook-receiver.js';
import { createLogger, silentLogger } from '../src/core/logger.js';
import { issueComment, startBotHarness, WEBHOOK_SECRET, type BotHarness } from './fixtures/bot/harness.js';

let t: BotHarness | null = null;
let server: ServerType | null = null;

afterEach(async () => {
  if (server && 'closeAllConnections' in server) server.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = null;
  await t?.close();
  t = null;
  nock.cleanAll();
  nock.enableNetConnect();
});

/** serve's front door (webhook receiver before the API) on a free port, with a log the test reads. */
async function listen(options: { webhookMaxBytes?: number } = {}) {
  t = await startBotHarness({ load: false });
  const bot = t.service.github!;
  const lines: Record<string, unknown>[] = [];
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
  });
  const outcomes: DeliveryOutcome[] = [];
  const webhooks = await createWebhookMiddleware(bot.probot!, bot.app, {
    path: '/api/github/webhooks',
    secret: WEBHOOK_SECRET,
    maxBytes: options.webhookMaxBytes ?? 25 * 1024 * 1024,
    logger: createLogger({ level: 'info', destination: sink }),
    onDelivery: (outcome) => outcomes.push(outcome),
  });
  nock.enableNetConnect('127.0.0.1');
  const door = { webhooks, webhookPath: '/api/github/webhooks', setup: null, logger: silentLogger };
  const url = await new Promise<string>((resolve) => {
    server = serve(
      {
        fetch: t!.service.app.fetch,
        port: 0,
        hostname: '127.0.0.1',
        createServer: createServerWithFrontDoor(door),
      },
      (info: AddressInfo) => resolve(`http://127.0.0.1:${info.port}`),
    );
  });
  return { url, lines, outcomes };
}

async function deliver(url: string, body: string, options: { signature?: string; id?: string } = {}) {
  return fetch(`${url}/api/github/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'issue_comment',
      'x-github-delivery': options.id ?? crypto.randomUUID(),
      'x-hub-signature-256': options.signature ?? (await sign(WEBHOOK_SECRET, body)),
    },
    body,
  });
}

/** A POST over a plain socket whose body arrives in chunks (no Content-Length), as a stream would send it. */
function postChunked(
  url: string,
  path: string,
  chunks: number,
  chunk: Buffer,
  headers: Record<string, string>,
) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const request = http.request(`${url}${path}`, { method: 'POST', headers }, (response) => {
        let body = '';
        response.on('data', (data: Buffer) => (body += data.toString('utf8')));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      });
      // The server closes the connection after its early answer: a write after that fails, by design.
      request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
      let sent = 0;
      const pump = () => {
        while (sent < chunks) {
          sent += 1;
          if (!request.write(chunk)) return void request.once('drain', pump);
        }
        request.end();
      };
      pump();
    },
  );
}

describe('correctly signed but malformed deliveries', () => {
  const cases: [string, (payload: any) => unknown][] = [
    ['a null body', () => null],
    ['comment.body: null', (payload) => ((payload.comment.body = null), payload)],
    ['no repository', (payload) => (delete payload.repository, payload)],
  ];
  for (const [name, mutate] of cases) {
    it(`answers 400 with a sentence for ${name}, logged once`, async () => {
      const { url, lines, outcomes } = await listen();
      const id = crypto.randomUUID();
      const body = JSON.stringify(mutate(issueComment('/docs replace "a" with "b"')));
      const response = await deliver(url, body, { id });
      expect(response.status).toBe(400);
      const answer = (await response.json()) as { error: string; code: string };
      expect(answer.code).toBe('invalid_webhook');
      expect(answer.error).toMatch(/^The issue_comment delivery is malformed: /);
      expect(answer.error).not.toMatch(/TypeError|Cannot read properties/);
      const logged = lines.filter((line) => JSON.stringify(line).includes(id));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ event: 'issue_comment', id, status: 400, size: body.length });
      expect(outcomes).toEqual(['malformed']);
      expect(t!.github.comments).toHaveLength(0);
    });
  }
});

describe('deliveries that are refused', () => {
  it('refuses a wrong signature with 400 at once and logs one line without the payload', async () => {
    const { url, lines } = await listen();
    const marker = 'PAYLOAD-MARKER-'.repeat(1000);
    const id = crypto.randomUUID();
    const started = Date.now();
    const response = await deliver(url, JSON.stringify({ marker }), {
      signature: `sha256=${'0'.repeat(64)}`,
      id,
    });
    expect(response.status).toBe(400);
    expect(Date.now() - started).toBeLessThan(2000);
    const log = lines.map((line) => JSON.stringify(line)).join('\n');
    expect(log).not.toContain('PAYLOAD-MARKER');
    expect(lines.filter((line) => line.id === id)).toHaveLength(1);
    expect(lines.find((line) => line.id === id)).toMatchObject({
      event: 'issue_comment',
      reason: expect.any(String),
    });
  });

  it('stops reading a chunked delivery at the limit: 413, the connection closed, one log line', async () => {
    const { url, lines, outcomes } = await listen({ webhookMaxBytes: 64 * 1024 });
    const response = await postChunked(url, '/api/github/webhooks', 1024, Buffer.alloc(16 * 1024, 'a'), {
      'content-type': 'application/json',
      'x-github-event': 'issue_comment',
      'x-github-delivery': 'chunked-1',
      'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
    });
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe('close');
    expect(JSON.parse(response.body)).toMatchObject({ code: 'payload_too_large' });
    expect(lines.filter((line) => line.id === 'chunked-1')).toHaveLength(1);
    expect(outcomes).toEqual(['too_large']);
  });

  it('still takes a correct delivery', async () => {
    const { url, outcomes } = await listen();
    t!.github.permissions.set('maintainer', 'write');
    const response = await deliver(url, JSON.stringify(issueComment('/docs replace "a" with "b"')));
    expect(response.status).toBe(200);
    expect(outcomes).toEqual(['accepted']);
  });
});

describe('a 413 from the API on a kept-alive connection', () => {
  it('closes that connection, so the client’s next requests succeed (5 of 5)', async () => {
    const { url } = await listen();
    // fetch keeps connections alive and reuses them: a socket left with half a body on it fails
    // the request sent next on it.
    const oversized = Buffer.alloc(2 * 1024 * 1024, 'x');
    const outcomes: [number | string, number | string][] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const refused = await fetch(`${url}/v2/agent/docs/job`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: oversized,
      }).then(
        (response) => response.status,
        (error: Error) => error.message,
      );
      const next = await fetch(`${url}/healthz`).then(
        (response) => response.status,
        (error: Error) => error.message,
      );
      outcomes.push([refused, next]);
    }
    expect(outcomes).toEqual(Array.from({ length: 5 }, () => [413, 200]));
  });
});
