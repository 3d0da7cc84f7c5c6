import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgentResolver } from '../src/agent/registry.js';
import type { Agent, AgentRunInput } from '../src/agent/types.js';
import { LocalGitForge } from '../src/forge/local-git.js';
import type { CommitRequest } from '../src/forge/types.js';
import { startTestService, type TestService } from './helpers/service.js';

/**
 * The built-in agent behind a gate: each run waits until the test opens it, so the test can act
 * while a run is in progress. It also records how many runs of one job overlap.
 */
class GatedAgent implements Agent {
  readonly model = 'builtin';
  private readonly inner = createAgentResolver()('builtin');
  private gates: (() => void)[] = [];
  private waiters: (() => void)[] = [];
  running = 0;
  maxOverlap = 0;
  runs: string[][] = [];
  /** Runs that ended because their signal aborted, as a model request does. */
  aborted = 0;

  async run(input: AgentRunInput) {
    this.running += 1;
    this.maxOverlap = Math.max(this.maxOverlap, this.running);
    this.runs.push(input.instructions);
    for (const waiter of this.waiters.splice(0)) waiter();
    try {
      await new Promise<void>((resolve, reject) => {
        this.gates.push(resolve);
        input.signal.addEventListener('abort', () => {
          this.aborted += 1;
          reject(input.signal.reason instanceof Error ? input.signal.reason : new Error('aborted'));
        });
      });
    } catch (error) {
      this.running -= 1;
      throw error;
    }
    try {
      return await this.inner.run(input);
    } finally {
      this.running -= 1;
    }
  }

  /** Resolves once `count` runs have started. */
  started(count: number): Promise<void> {
    if (this.runs.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(() => void this.started(count).then(resolve)));
  }

  open(): void {
    for (const gate of this.gates.splice(0)) gate();
  }
}

describe('job state machine', () => {
  let t: TestService | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('queues a message sent during a run behind it: runs never overlap, and the job ends completed', async () => {
    const agent = new GatedAgent();
    t = await startTestService({ overrides: { agentFor: () => agent } });
    const { body: job } = await t.request('POST', '/v2/agent/docs/job', {
      body: { prompt: 'replace "Acme Cloud" with "Acme One"' },
    });
    await agent.started(1);
    const message = await t.request('POST', `/v2/agent/docs/job/${job.id}/message`, {
      body: { prompt: 'replace "Acme One" with "Acme Two"' },
    });
    expect(message.body.status).toBe('active');
    await new Promise((resolve) => setTimeout(resolve, 200)); // a second worker is free: it must not start a run
    expect(agent.runs).toHaveLength(1);
    agent.open();
    await agent.started(2);
    agent.open();
    const done = await t.waitForJob(job.id);
    expect(done.status).toBe('completed');
    expect(agent.maxOverlap).toBe(1);
    expect(agent.runs).toEqual([
      ['replace "Acme Cloud" with "Acme One"'],
      ['replace "Acme One" with "Acme Two"'],
    ]);
    expect(t.git('show', `docwright/job-${job.id}:quickstart.mdx`)).toContain('Acme Two');
    expect(t.git('rev-list', '--count', `main..docwright/job-${job.id}`)).toBe('2');
  });

  it('completes with no commit and a reply when the agent changes nothing', async () => {
    t = await startTestService();
    const { body: job } = await t.request('POST', '/v2/agent/docs/job', {
      body: { prompt: 'make the docs sparkle' },
    });
    const done = await t.waitForJob(job.id);
    // A job that did nothing says so: `changed` is false, and the reply says why.
    expect(done).toMatchObject({ status: 'completed', prLink: null, changed: false });
    expect(done.reply).toMatch(/replace/i); // lists what it understands
    expect(done.messages?.[1]).toMatchObject({ role: 'agent', changed: false, content: done.reply });
    expect(() => t!.git('rev-parse', '--verify', `docwright/job-${job.id}`)).toThrow();

    const { body: followUp } = await t.request('POST', `/v2/agent/docs/job/${job.id}/message`, {
      body: { prompt: 'replace "Acme Cloud" with "Acme Platform"' },
    });
    expect(followUp).not.toHaveProperty('changed'); // only the job view with its messages says
    const changed = await t.waitForJob(job.id);
    expect(changed).toMatchObject({ status: 'completed', changed: true });
    expect(changed.messages?.map((message) => message.changed)).toEqual([undefined, false, undefined, true]);
  });

  it('fails with the reason in words when the run cannot succeed, and a message reopens the job', async () => {
    t = await startTestService();
    await t.service.store.projects.create({ id: 'gone', repository: t.repo, baseRef: 'no-such-branch' });
    const key = (await t.service.store.keys.create({ kind: 'admin', projectId: 'gone' })).key;
    const { body: job } = await t.request('POST', '/v2/agent/gone/job', {
      key,
      body: { prompt: 'replace "a" with "b"' },
    });
    let failed;
    for (;;) {
      failed = (await t.request('GET', `/v2/agent/gone/job/${job.id}`, { key })).body;
      if (failed.status !== 'active') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('The base branch "no-such-branch" does not exist in the repository');
    const reopened = await t.request('POST', `/v2/agent/gone/job/${job.id}/message`, {
      key,
      body: { prompt: 'try again' },
    });
    expect(reopened.body).toMatchObject({ status: 'active', error: null });
  });

  it('retries a transient forge error and then completes', async () => {
    let failures = 1;
    class FlakyForge extends LocalGitForge {
      override async commit(request: CommitRequest) {
        if (failures-- > 0) throw new Error('index.lock exists');
        return super.commit(request);
      }
    }
    t = await startTestService({ overrides: { forge: new FlakyForge({ environment: process.env }) } });
    const { body: job } = await t.request('POST', '/v2/agent/docs/job', {
      body: { prompt: 'replace "Acme Cloud" with "Acme X"' },
    });
    const done = await t.waitForJob(job.id);
    expect(done.status).toBe('completed');
    expect(t.git('rev-list', '--count', `main..docwright/job-${job.id}`)).toBe('1');
  });

  it('gives up after repeated transient errors with the last reason', async () => {
    class BrokenForge extends LocalGitForge {
      override commit(): never {
        throw new Error('disk full');
      }
    }
    t = await startTestService({
      overrides: { forge: new BrokenForge({ environment: process.env }) },
    });
    const { body: job } = await t.request('POST', '/v2/agent/docs/job', {
      body: { prompt: 'replace "Acme Cloud" with "Acme X"' },
    });
    const done = await t.waitForJob(job.id);
    expect(done).toMatchObject({ status: 'failed', error: 'disk full' });
  });

  it('archiving a running job stops its run: the agent is aborted, nothing is committed, the job says so', async () => {
    const agent = new GatedAgent();
    t = await startTestService({ overrides: { agentFor: () => agent } });
    const { body: job } = await t.request('POST', '/v2/agent/docs/job', {
      body: { prompt: 'replace "Acme Cloud" with "Acme Y"' },
    });
    await agent.started(1);
    expect((await t.request('POST', `/v2/agent/docs/job/${job.id}/archive`)).body.status).toBe('archived');
    // The gate stays shut: only the abort can end the agent's run.
    await vi.waitFor(async () => {
      const { body } = await t!.request('GET', `/v2/agent/docs/job/${job.id}`);
      expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'agent']);
    });
    const { body } = await t.request('GET', `/v2/agent/docs/job/${job.id}`);
    expect(body).toMatchObject({
      status: 'archived',
      changed: false,
      reply: expect.stringMatching(/^Stopped: the job was archived/),
    });
    expect(agent.aborted).toBe(1);
    expect(() => t!.git('rev-parse', '--verify', `docwright/job-${job.id}`)).toThrow();
    agent.open();
  });
});
