import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config/config.js';
import { SAMPLE_DOCS_DIR, seedRepository } from '../../src/cli/demo.js';
import type { Job } from '../../src/protocol/agent-job.js';
import { silentLogger } from '../../src/core/logger.js';
import { createService, type ServiceOverrides } from '../../src/service/service.js';

export type TestService = Awaited<ReturnType<typeof startTestService>>;

/**
 * A real embedded service (SQLite file, local git forge, built-in agent) in a temp folder, with a
 * project `docs` on a git repository seeded from the sample docs, a second project `other`, and keys.
 */
export async function startTestService(
  options: { config?: Partial<Config>; overrides?: ServiceOverrides; startWorker?: boolean } = {},
) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-test-'));
  const config: Config = {
    ...loadConfig({}, { dataDir }),
    leaseMs: 2000,
    workers: 2,
    logLevel: 'silent',
    ...options.config,
  };
  // A retry comes a millisecond after a transient failure, not a second doubled: no test sleeps for one.
  const service = await createService(config, {
    logger: silentLogger,
    ...options.overrides,
    worker: { backoffBaseMs: 1, ...options.overrides?.worker },
  });
  const repo = path.join(dataDir, 'repo');
  await seedRepository(repo, SAMPLE_DOCS_DIR, process.env);
  const otherRepo = path.join(dataDir, 'other-repo');
  await seedRepository(otherRepo, SAMPLE_DOCS_DIR, process.env);
  await service.store.projects.create({ id: 'docs', repository: repo, baseRef: 'main', domain: 'docs' });
  await service.store.projects.create({
    id: 'other',
    repository: otherRepo,
    baseRef: 'main',
    domain: 'other',
  });
  const adminKey = (await service.store.keys.create({ kind: 'admin', projectId: 'docs' })).key;
  const otherKey = (await service.store.keys.create({ kind: 'admin', projectId: 'other' })).key;
  const assistantKey = (
    await service.store.keys.create({ kind: 'assistant', projectId: 'docs', domain: 'docs' })
  ).key;
  if (options.startWorker !== false) service.worker.start();

  async function request(
    method: string,
    route: string,
    init: { body?: unknown; key?: string | null; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    const key = init.key === undefined ? adminKey : init.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: string | undefined;
    if (init.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    }
    const response = await service.app.request(route, { method, headers, body });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : null,
    };
  }

  /** Polls the job through the API until its status is one of `statuses`. */
  async function waitForJob(
    id: string,
    statuses: Job['status'][] = ['completed', 'failed', 'archived'],
    timeoutMs = 15_000,
  ): Promise<Job> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { body } = await request('GET', `/v2/agent/docs/job/${id}`);
      if (statuses.includes(body.status)) return body as Job;
      if (Date.now() > deadline) throw new Error(`job ${id} still ${body.status} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();

  return {
    service,
    config,
    dataDir,
    repo,
    adminKey,
    otherKey,
    assistantKey,
    request,
    waitForJob,
    git,
    async cleanup() {
      await service.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
