import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sign } from '@octokit/webhooks-methods';
import nock from 'nock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOctokit } from '../src/github-api/octokit.js';
import { instrumentOctokit } from '../src/metrics/metrics.js';
import { Metrics } from '../src/metrics/metrics.js';
import { startServeProcess, type ServeProcess } from './helpers/serve-process.js';
import { startTestService } from './helpers/service.js';

const METRICS_TOKEN = 'metrics-token-for-the-test';
const WEBHOOK_SECRET = 'metrics-test-webhook-secret';

/** The value of one sample line of a Prometheus text exposition, e.g. `docwright_jobs{status="completed"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((each) => each.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics of docwright serve after real traffic', () => {
  let root: string;
  let serve: ServeProcess;

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-metrics-'));
    serve = await startServeProcess(
      path.join(root, 'data'),
      {
        ...process.env,
        DOCWRIGHT_METRICS_TOKEN: METRICS_TOKEN,
        // Token mode with a repository webhook's secret: webhooks are received, GitHub is never called.
        GITHUB_TOKEN: `ghp_${'m3'.repeat(18)}`,
        WEBHOOK_SECRET,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
      },
      path.join(root, 'serve.log'),
    );
  }, 60_000);

  afterAll(async () => {
    await serve?.stop();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('counts jobs, runs, answers and deliveries, behind its token', async () => {
    const key = (label: string) =>
      serve.banner
        .find((line) => line.startsWith(label))!
        .split(/\s+/)
        .at(-1)!;
    const admin = { authorization: `Bearer ${key('Admin key')}`, 'content-type': 'application/json' };
    const created = await fetch(`${serve.url}/v2/agent/demo/job`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ prompt: 'replace "Acme Cloud" with "Acme Metrics"' }),
    });
    const { id } = (await created.json()) as { id: string };
    for (let poll = 0; poll < 300; poll += 1) {
      const job = (await (
        await fetch(`${serve.url}/v2/agent/demo/job/${id}`, { headers: admin })
      ).json()) as {
        status: string;
      };
      if (job.status !== 'active') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const answer = await fetch(`${serve.url}/discovery/v2/assistant/demo/message`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key('Assistant key')}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        fp: 'anonymous',
        messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'How do I deploy?' }] }],
      }),
    });
    await answer.text();
    const ping = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
    const deliver = async (signature: string) =>
      (
        await fetch(`${serve.url}/api/github/webhooks`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-github-event': 'ping',
            'x-github-delivery': crypto.randomUUID(),
            'x-hub-signature-256': signature,
          },
          body: ping,
        })
      ).status;
    expect(await deliver(await sign(WEBHOOK_SECRET, ping))).toBe(200);
    expect(await deliver(`sha256=${'0'.repeat(64)}`)).toBe(400);

    expect((await fetch(`${serve.url}/metrics`)).status).toBe(401);
    const scraped = await fetch(`${serve.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await scraped.text();
    expect(sample(text, 'docwright_jobs{status="completed"}')).toBe(1);
    expect(sample(text, 'docwright_job_queue_depth')).toBe(0);
    expect(sample(text, 'docwright_job_run_duration_seconds_count{outcome="completed"}')).toBe(1);
    expect(sample(text, 'docwright_assistant_answers_total{version="v2",outcome="completed"}')).toBe(1);
    expect(sample(text, 'docwright_assistant_time_to_first_byte_seconds_count{version="v2"}')).toBe(1);
    expect(sample(text, 'docwright_webhook_deliveries_total{outcome="accepted"}')).toBe(1);
    expect(sample(text, 'docwright_webhook_deliveries_total{outcome="bad_signature"}')).toBe(1);
    expect(text).toContain('# TYPE docwright_github_requests_total counter');
    expect(sample(text, 'docwright_process_resident_memory_bytes')).toBeGreaterThan(0);
  }, 60_000);
});

describe('/metrics switched off', () => {
  it('is not served unless DOCWRIGHT_METRICS or DOCWRIGHT_METRICS_TOKEN is set', async () => {
    const t = await startTestService({ startWorker: false });
    try {
      expect(t.config.metrics).toBeNull();
      expect((await t.service.app.request('/metrics')).status).toBe(404);
    } finally {
      await t.cleanup();
    }
  });
});

describe('GitHub request instrumentation', () => {
  afterAll(() => {
    nock.cleanAll();
  });

  it('counts every attempt by status, and the rate-limit answers the client waited on', async () => {
    const metrics = new Metrics(() => Promise.resolve({ byStatus: {}, queued: 0 }));
    const octokit = createOctokit({
      auth: `ghp_${'n0'.repeat(18)}`,
      baseUrl: 'https://api.github.com',
      userAgent: 'docwright-test',
      log: { warn: () => {}, debug: () => {} },
      retryAfterBaseValue: 1,
      instrument: (client) => instrumentOctokit(client, metrics),
    });
    const api = nock('https://api.github.com')
      .get('/repos/octo-org/docs-site')
      .reply(
        429,
        { message: 'API rate limit exceeded' },
        { 'retry-after': '1', 'x-ratelimit-remaining': '0' },
      )
      .get('/repos/octo-org/docs-site')
      .reply(200, { full_name: 'octo-org/docs-site' });
    await octokit.rest.repos.get({ owner: 'octo-org', repo: 'docs-site' });
    expect(api.isDone()).toBe(true);
    const text = await metrics.registry.metrics();
    expect(sample(text, 'docwright_github_requests_total{method="GET",status="429"}')).toBe(1);
    expect(sample(text, 'docwright_github_requests_total{method="GET",status="200"}')).toBe(1);
    expect(sample(text, 'docwright_github_rate_limit_waits_total')).toBe(1);
  });
});
