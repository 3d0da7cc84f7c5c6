import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { sign } from '@octokit/webhooks-methods';
import nock from 'nock';
import { SmeeClient } from 'smee-client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createServerWithFrontDoor,
  createWebhookMiddleware,
  type FrontDoorOptions,
} from '../src/bot/front-door.js';
import { prepareGitHubServer } from '../src/bot/github-server.js';
import { lazySetupHandler } from '../src/bot/probot-setup.js';
import { loadConfig } from '../src/config/config.js';
import { addProject } from '../src/cli/local-commands.js';
import { findJobMarker } from '../src/github/index.js';
import { createLogger, silentLogger } from '../src/core/logger.js';
import {
  issueComment,
  REPOSITORY,
  startBotHarness,
  WEBHOOK_SECRET,
  type BotHarness,
} from './fixtures/bot/harness.js';

const COMMAND = '/docs replace "an empty account" with "a brand-new account"';
let t: BotHarness | null = null;
let server: ServerType | null = null;

afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = null;
  await t?.close();
  t = null;
  const pending = nock.pendingMocks();
  nock.cleanAll();
  nock.enableNetConnect();
  expect(pending).toEqual([]);
});

/** `serve`'s server: Probot's middleware and the setup flow in front of the API, on a free port. */
async function listen(harness: BotHarness, extra: Partial<FrontDoorOptions> = {}): Promise<string> {
  const bot = harness.service.github!;
  const door: FrontDoorOptions = {
    webhooks: await createWebhookMiddleware(bot.probot!, bot.app, {
      path: harness.config.github.webhookPath,
      secret: WEBHOOK_SECRET,
      maxBytes: harness.config.github.webhookMaxBytes,
      logger: silentLogger,
    }),
    webhookPath: harness.config.github.webhookPath,
    setup: null,
    logger: silentLogger,
    ...extra,
  };
  nock.enableNetConnect('127.0.0.1');
  return new Promise((resolve) => {
    server = serve(
      {
        fetch: harness.service.app.fetch,
        port: 0,
        hostname: '127.0.0.1',
        createServer: createServerWithFrontDoor(door),
      },
      (info: AddressInfo) => resolve(`http://127.0.0.1:${info.port}`),
    );
  });
}

async function deliver(url: string, payload: unknown, options: { signature?: string; path?: string } = {}) {
  const body = JSON.stringify(payload);
  return fetch(`${url}${options.path ?? '/api/github/webhooks'}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'issue_comment',
      'x-github-delivery': crypto.randomUUID(),
      'x-hub-signature-256': options.signature ?? (await sign(WEBHOOK_SECRET, body)),
    },
    body,
  });
}

describe('the webhook path of serve', () => {
  it('takes a signed delivery through the webhook receiver to Probot, next to the API on the same port', async () => {
    t = await startBotHarness({ load: false });
    t.github.permissions.set('maintainer', 'write');
    const url = await listen(t);

    const response = await deliver(url, issueComment(COMMAND));
    expect(response.status).toBe(200);
    const status = t.github.comments.find((comment) => findJobMarker(comment.body))!;
    const job = await t.settle(findJobMarker(status.body)!);
    expect(job.status).toBe('completed');
    expect(t.github.pulls).toHaveLength(1);

    // A forged delivery is refused before any handler runs.
    const forged = await deliver(url, issueComment(COMMAND), { signature: `sha256=${'0'.repeat(64)}` });
    expect(forged.status).toBe(400);
    expect(t.github.comments.filter((comment) => findJobMarker(comment.body))).toHaveLength(1);

    // The API still answers on the same server.
    const api = await fetch(`${url}/v2/agent/${job.project_id}/job/${job.id}`);
    expect(api.status).toBe(401);
  });

  it('takes deliveries at / too, where the setup flow’s manifest points the app', async () => {
    t = await startBotHarness({ load: false });
    t.github.permissions.set('maintainer', 'write');
    const url = await listen(t);
    const response = await deliver(url, issueComment(COMMAND, { issue: 30 }), { path: '/' });
    expect(response.status).toBe(200);
    expect(t.github.comments.some((comment) => comment.issue === 30 && findJobMarker(comment.body))).toBe(
      true,
    );
  });

  it('serves Probot’s setup flow under /probot when the app is not registered', async () => {
    t = await startBotHarness({ load: false });
    process.env.NO_SMEE_SETUP = 'true';
    try {
      const setup = lazySetupHandler({
        host: '127.0.0.1',
        port: 0,
        publicUrl: 'https://docs-bot.example.com',
        maxBodyBytes: 64 * 1024,
        logger: silentLogger,
      });
      const url = await listen(t, { setup });
      const page = await fetch(`${url}/probot`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('docwright');
      expect(html).toContain('issue_comment');

      // The manifest's URLs come from the configured public address, never from the request.
      const forged = await new Promise<string>((resolve, reject) => {
        const request = http.get(
          `${url}/probot`,
          { headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } },
          (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
            response.on('end', () => resolve(body));
          },
        );
        request.on('error', reject);
      });
      expect(forged).not.toContain('evil.example');
      expect(forged).toContain('https://docs-bot.example.com/probot/setup');
      // Its one POST reads a bounded body.
      const oversized = await fetch(`${url}/probot/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: 'x'.repeat(128 * 1024),
      });
      expect(oversized.status).toBe(413);
      // Everything else is still the API.
      expect((await fetch(`${url}/v2/agent/x/job/y`)).status).toBe(401);
    } finally {
      delete process.env.NO_SMEE_SETUP;
    }
  });

  it('registers the app on the Enterprise Server of GHE_HOST, as Probot’s own setup flow does', async () => {
    t = await startBotHarness({ load: false });
    // Probot's setup flow reads these from the process environment itself, as `probot run` does.
    Object.assign(process.env, { NO_SMEE_SETUP: 'true', GHE_HOST: 'ghe.example.com', GHE_PROTOCOL: 'http' });
    try {
      const setup = lazySetupHandler({
        host: '127.0.0.1',
        port: 0,
        publicUrl: 'http://127.0.0.1:3000',
        maxBodyBytes: 1024 * 1024,
        logger: silentLogger,
      });
      const url = await listen(t, { setup });
      const html = await (await fetch(`${url}/probot`)).text();
      expect(html).toContain('http://ghe.example.com/settings/apps/new');
      expect(html).not.toContain('https://github.com/settings/apps/new');
    } finally {
      delete process.env.NO_SMEE_SETUP;
      delete process.env.GHE_HOST;
      delete process.env.GHE_PROTOCOL;
    }
  });

  it('makes a smee.io channel the new app’s webhook URL, and says in one log line where to register', async () => {
    t = await startBotHarness({ load: false });
    // smee.io answers a HEAD of /new with the address of a fresh channel; this stands in for it.
    const smee = http.createServer((request, response) => {
      expect([request.method, request.url]).toEqual(['HEAD', '/new']);
      response.writeHead(307, { location: 'https://smee.io/Xy12AbCdEfGh' }).end();
    });
    await new Promise<void>((resolve) => smee.listen(0, '127.0.0.1', resolve));
    const newChannelUrl = `http://127.0.0.1:${(smee.address() as AddressInfo).port}/new`;
    class LocalSmee extends SmeeClient {
      static override createChannel() {
        return SmeeClient.createChannel({ newChannelUrl });
      }
    }
    const written: Record<string, string> = {};
    const { lines, sink } = jsonLogLines();
    try {
      const setup = lazySetupHandler({
        host: '127.0.0.1',
        port: 0,
        publicUrl: 'https://docs-bot.example.com',
        maxBodyBytes: 64 * 1024,
        logger: createLogger({ level: 'info', destination: sink }),
        SmeeClient: LocalSmee,
        updateEnv(env) {
          // Probot's own writes `.env` and the process environment; the manifest reads the latter.
          Object.assign(written, env);
          Object.assign(process.env, env);
          return env;
        },
      });
      const url = await listen(t, { setup });
      const html = await (await fetch(`${url}/probot`)).text();
      expect(written).toEqual({ WEBHOOK_PROXY_URL: 'https://smee.io/Xy12AbCdEfGh' });
      expect(html).toContain('https://smee.io/Xy12AbCdEfGh');
      await new Promise((resolve) => setImmediate(resolve));
      const messages = lines.map((line) => line.msg);
      expect(messages).toContain(
        'register the GitHub App at https://docs-bot.example.com/probot, then restart',
      );
      expect(messages.join('\n')).not.toMatch(/Welcome to Probot|\.env/);
    } finally {
      delete process.env.WEBHOOK_PROXY_URL;
      await new Promise((resolve) => smee.close(resolve));
    }
  });
});

describe('the setup flow of serve', () => {
  it('says in the log that the flow is open until APP_ID is set, with the public address', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-setup-log-'));
    try {
      const config = loadConfig({ DOCWRIGHT_PUBLIC_URL: 'https://docs-bot.example.com' }, { dataDir });
      const { lines, sink } = jsonLogLines();
      const github = await prepareGitHubServer(
        config,
        null,
        createLogger({ level: 'info', destination: sink }),
      );
      expect(github.door.setup).not.toBeNull();
      // Said once the server is up, after the banner.
      await github.start();
      await new Promise((resolve) => setImmediate(resolve));
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: 40,
          url: 'https://docs-bot.example.com/probot',
          msg: expect.stringMatching(/setup flow is open .* until APP_ID is set/),
        }),
      );
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('token mode', () => {
  it('adds an owner/repo project by hand and opens pull requests with the token', async () => {
    t = await startBotHarness({ mode: 'token' });
    t.github.permissions.set('maintainer', 'write');
    const added = await addProject(t.config, process.env, {
      id: 'site',
      repository: REPOSITORY,
      ref: 'main',
    });
    expect(added).toMatchObject({ id: 'site', repository: REPOSITORY, ref: 'main' });
    await expect(
      addProject(t.config, process.env, { id: 'other', repository: 'octo-org/docs-site', ref: 'nope' }),
    ).rejects.toThrow('The branch "nope" does not exist in octo-org/docs-site');

    const payload = issueComment(COMMAND);
    delete payload.installation;
    await t.receive('issue_comment', payload);
    const status = t.github.comments.find((comment) => findJobMarker(comment.body))!;
    const job = await t.settle(findJobMarker(status.body)!);
    expect(job).toMatchObject({ status: 'completed', project_id: 'site' });
    expect(t.github.pulls).toHaveLength(1);
    expect(t.github.tokensIssued).toBe(0);
    expect(
      t.github.apiCalls().every((call) => call.authorization === `token ${t!.config.github.token}`),
    ).toBe(true);
  });
});

/** A log destination, and the JSON lines written to it, parsed. */
function jsonLogLines(): { lines: Array<Record<string, unknown> & { msg: string }>; sink: PassThrough } {
  const lines: Array<Record<string, unknown> & { msg: string }> = [];
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) =>
    lines.push(
      ...chunk
        .toString('utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown> & { msg: string }),
    ),
  );
  return { lines, sink };
}
