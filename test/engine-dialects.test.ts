import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createAgentResolver } from '../src/agent/registry.js';
import type { Agent, AgentRunInput } from '../src/agent/types.js';
import { Worker } from '../src/engine/worker.js';
import { silentLogger } from '../src/core/logger.js';
import { createService, type Service } from '../src/service/service.js';
import { DIALECTS, testDatabases } from './helpers/postgres.js';
import { startTestService, type TestService } from './helpers/service.js';

const databases = testDatabases();
afterAll(() => databases.close());

/**
 * The built-in agent behind a gate the test opens; it honours the run's abort signal (a lost lease,
 * a shutdown) and counts runs per job, and how many runs of one job ever overlapped.
 */
class GatedAgent implements Agent {
  readonly model = 'builtin';
  private readonly inner = createAgentResolver()('builtin');
  private gates: (() => void)[] = [];
  private readonly started: (() => void)[] = [];
  readonly runsOf = new Map<string, number>();
  private readonly runningOf = new Map<string, number>();
  maxOverlap = 0;
  gated = true;

  async run(input: AgentRunInput) {
    this.runsOf.set(input.jobId, (this.runsOf.get(input.jobId) ?? 0) + 1);
    const running = (this.runningOf.get(input.jobId) ?? 0) + 1;
    this.runningOf.set(input.jobId, running);
    this.maxOverlap = Math.max(this.maxOverlap, running);
    for (const notify of this.started.splice(0)) notify();
    try {
      if (this.gated) {
        await new Promise<void>((resolve, reject) => {
          this.gates.push(resolve);
          input.signal.addEventListener('abort', () => reject(input.signal.reason as Error), { once: true });
        });
      }
      return await this.inner.run(input);
    } finally {
      this.runningOf.set(input.jobId, (this.runningOf.get(input.jobId) ?? 1) - 1);
    }
  }

  /** Resolves when the next run starts. */
  nextStart(): Promise<void> {
    return new Promise((resolve) => this.started.push(resolve));
  }

  open(): void {
    this.gated = false;
    for (const gate of this.gates.splice(0)) gate();
  }
}

/** The engine on SQLite and on PostgreSQL: the same scenarios, the dialect is the only difference. */
describe.each(DIALECTS)('engine on %s', (dialect) => {
  let t: TestService | undefined;
  const extra: Service[] = [];
  afterEach(async () => {
    await Promise.all(extra.splice(0).map((service) => service.close()));
    await t?.cleanup();
    t = undefined;
  });

  const start = async (options: Parameters<typeof startTestService>[0] = {}) => {
    const { databaseUrl } = await databases.create(dialect);
    t = await startTestService({ ...options, config: { databaseUrl, ...options.config } });
    return t;
  };
  /** Another replica: its own service (store, worker, indexes) on the same database and repository. */
  const replica = async (agent?: Agent) => {
    const service = await createService(t!.config, {
      logger: silentLogger,
      ...(agent ? { agentFor: () => agent } : {}),
    });
    extra.push(service);
    return service;
  };
  const createJob = async (prompt: string) =>
    (await t!.request('POST', '/v2/agent/docs/job', { body: { prompt } })).body as { id: string };
  const commitsOn = (id: string) => Number(t!.git('rev-list', '--count', `main..docwright/job-${id}`));

  it('queues a message sent during a run behind it: runs never overlap, and the job ends completed', async () => {
    const agent = new GatedAgent();
    await start({ overrides: { agentFor: () => agent } });
    const running = agent.nextStart();
    const job = await createJob('replace "Acme Cloud" with "Acme One"');
    await running;
    const message = await t!.request('POST', `/v2/agent/docs/job/${job.id}/message`, {
      body: { prompt: 'replace "Acme One" with "Acme Two"' },
    });
    expect(message.body.status).toBe('active');
    agent.open();
    expect(await t!.waitForJob(job.id)).toMatchObject({ status: 'completed' });
    expect(agent.maxOverlap).toBe(1);
    expect(agent.runsOf.get(job.id)).toBe(2);
    expect(t!.git('show', `docwright/job-${job.id}:quickstart.mdx`)).toContain('Acme Two');
    expect(commitsOn(job.id)).toBe(2);
  });

  it('fails with the reason in words, and a message reopens the job', async () => {
    await start();
    await t!.service.store.projects.create({ id: 'gone', repository: t!.repo, baseRef: 'no-such-branch' });
    const key = (await t!.service.store.keys.create({ kind: 'admin', projectId: 'gone' })).key;
    const { body: job } = await t!.request('POST', '/v2/agent/gone/job', {
      key,
      body: { prompt: 'replace "a" with "b"' },
    });
    let failed;
    do {
      await new Promise((resolve) => setTimeout(resolve, 25));
      failed = (await t!.request('GET', `/v2/agent/gone/job/${job.id}`, { key })).body;
    } while (failed.status === 'active');
    expect(failed).toMatchObject({
      status: 'failed',
      error: 'The base branch "no-such-branch" does not exist in the repository',
    });
    const reopened = await t!.request('POST', `/v2/agent/gone/job/${job.id}/message`, {
      key,
      body: { prompt: 'try again' },
    });
    expect(reopened.body).toMatchObject({ status: 'active', error: null });
  });

  it("adds up a job's usage over a retried attempt and a follow-up, and keeps each run's beside its reply", async () => {
    let attempts = 0;
    // An agent that spends 2 model calls an attempt and meets an outage on its first attempt.
    const spending: Agent = {
      model: 'builtin',
      run(input) {
        attempts += 1;
        input.usage!.recordModelCall({ inputTokens: 100, outputTokens: 10 }, 1);
        input.usage!.recordModelCall({ inputTokens: 100, outputTokens: 10 }, 0);
        if (attempts === 1) return Promise.reject(new Error('the provider is overloaded'));
        return Promise.resolve({ reply: `run ${attempts}: nothing to change` });
      },
    };
    await start({ overrides: { agentFor: () => spending } });
    const job = await createJob('do nothing');
    const first = await t!.waitForJob(job.id);
    expect(first.status).toBe('completed');
    // Both attempts of the first run: the failed one counts too.
    expect(first.usage).toMatchObject({ inputTokens: 400, outputTokens: 40, modelCalls: 4, toolCalls: 2 });
    expect(first.messages!.at(-1)!.usage).toMatchObject({ modelCalls: 4 });

    await t!.request('POST', `/v2/agent/docs/job/${job.id}/message`, { body: { prompt: 'again' } });
    let second = await t!.waitForJob(job.id);
    while (second.messages!.length < 4) second = await t!.waitForJob(job.id);
    expect(second.usage).toMatchObject({ modelCalls: 6, inputTokens: 600 });
    expect(second.messages!.at(-1)!.usage).toMatchObject({ modelCalls: 2 });
  });

  it("takes over a dead worker's job once its lease lapses, and commits the edit once", async () => {
    await start({ startWorker: false, config: { leaseMs: 500 } });
    const job = await createJob(
      'append a section "Support" to quickstart with "Write to support@example.com."',
    );
    // A worker on another replica claims the job and dies: no heartbeat, no result.
    expect((await t!.service.store.jobs.claim('dead-replica', 500))?.job.id).toBe(job.id);
    const started = Date.now();
    t!.service.worker.start();
    const done = await t!.waitForJob(job.id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(done.status).toBe('completed');
    expect(commitsOn(job.id)).toBe(1);
    expect(t!.git('show', `docwright/job-${job.id}:quickstart.mdx`).match(/## Support/g)).toHaveLength(1);
  });

  it('at shutdown gives the running job back at once, uncounted, for another replica to finish', async () => {
    const agent = new GatedAgent();
    await start({ startWorker: false, config: { leaseMs: 60_000 } });
    const stopping = new Worker({
      store: t!.service.store,
      forge: t!.service.forge,
      agentFor: () => agent,
      logger: silentLogger,
      concurrency: 1,
      leaseMs: 60_000,
      pollMs: 20,
      shutdownGraceMs: 100,
    });
    const running = agent.nextStart();
    stopping.start();
    const job = await createJob('replace "Acme Cloud" with "Acme Z"');
    await running;
    await stopping.stop(); // the run does not finish within the grace period: interrupted, released
    const released = await t!.service.store.jobs.get('docs', job.id);
    expect(released).toMatchObject({ status: 'active', lease_owner: null, attempts: 0 });

    // The lease is a minute long: only the release lets the other replica start at once.
    const other = await replica();
    other.worker.start();
    expect(await t!.waitForJob(job.id, undefined, 10_000)).toMatchObject({ status: 'completed' });
    expect(commitsOn(job.id)).toBe(1);
  });

  it('spreads jobs over replicas on one database: each runs once, no run overlaps another of its job', async () => {
    const agent = new GatedAgent();
    agent.open();
    await start({ overrides: { agentFor: () => agent }, config: { workers: 2 } });
    const others = [await replica(agent), await replica(agent)];
    for (const other of others) other.worker.start();
    const jobs = await Promise.all(
      Array.from({ length: 24 }, (_, index) => createJob(`replace "Acme Cloud" with "Acme ${index}"`)),
    );
    for (const job of jobs) expect(await t!.waitForJob(job.id)).toMatchObject({ status: 'completed' });
    expect(jobs.every((job) => agent.runsOf.get(job.id) === 1)).toBe(true);
    expect(jobs.every((job) => commitsOn(job.id) === 1)).toBe(true);
    expect(agent.maxOverlap).toBe(1);
    // 24 jobs on three replicas: what is asserted is once each and never overlapping, not how fast.
  }, 120_000);

  it.runIf(dialect === 'postgres')(
    'a docs change announced on one replica rebuilds the assistant index of every other replica',
    async () => {
      await start();
      const other = await replica();
      const ask = async (service: Service) => {
        const response = await service.app.request('/discovery/v2/assistant/docs/message', {
          method: 'POST',
          headers: { authorization: `Bearer ${t!.assistantKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            fp: 'x',
            messages: [{ role: 'user', parts: [{ type: 'text', text: 'webhook signatures' }] }],
          }),
        });
        return response.text();
      };
      expect(await ask(other)).not.toContain('/webhooks');
      await fs.writeFile(
        path.join(t!.repo, 'webhooks.mdx'),
        '---\ntitle: Webhooks\n---\n\n## Signatures\n\nEvery webhook carries an HMAC signature header.\n',
      );
      execFileSync('git', ['-C', t!.repo, 'add', '.']);
      execFileSync('git', [
        '-C',
        t!.repo,
        '-c',
        'user.name=t',
        '-c',
        'user.email=t@t',
        'commit',
        '-qm',
        'merge',
      ]);
      const heard = new Promise((resolve) => other.docsChanges.subscribe(resolve));
      await t!.service.docsChanges.publish('docs'); // e.g. a push webhook received by this replica
      expect(await heard).toBe('docs');
      expect(await ask(other)).toContain('/webhooks#signatures'); // well within the 10 s recheck
    },
  );
});
