import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { sign } from '@octokit/webhooks-methods';
import nock from 'nock';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_DOCS_DIR, seedRepository } from '../src/cli/demo.js';
import { findJobMarker } from '../src/github/index.js';
import { silentLogger } from '../src/core/logger.js';
import { createService } from '../src/service/service.js';
import { FakeGit } from './fixtures/bot/fake-git.js';
import { FakeGitHub } from './fixtures/bot/fake-github.js';
import {
  botConfig,
  INSTALLATION_ID,
  issueComment,
  REPOSITORY,
  testProbot,
  WEBHOOK_SECRET,
} from './fixtures/bot/harness.js';
import { startPostgres, type TestPostgres } from './helpers/postgres.js';
import { freePort } from './helpers/free-port.js';

const run = promisify(execFile);
const CLI = ['--import', 'tsx', 'src/cli.ts'];
const JOBS = 200;
/** Short leases so the killed replica's jobs are taken over in seconds (production: 30 s). */
const LEASE_SECONDS = 2;

interface Replica {
  child: ChildProcess;
  url: string;
  alive: boolean;
}

/**
 * Three `docwright serve` processes, each with its own data dir, on one PostgreSQL database and one
 * repository, as behind a load balancer. One is SIGKILLed while it runs jobs.
 */
describe('three replicas on one PostgreSQL database', () => {
  let postgres: TestPostgres;
  let root: string;
  let env: NodeJS.ProcessEnv;
  let repo: string;
  let key: string;
  const replicas: Replica[] = [];

  beforeAll(async () => {
    postgres = await startPostgres();
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-replicas-'));
    env = {
      ...process.env,
      DATABASE_URL: await postgres.createDatabase(),
      DOCWRIGHT_LEASE_SECONDS: String(LEASE_SECONDS),
      DOCWRIGHT_JOB_RATE_LIMIT: '100000',
      LOG_LEVEL: 'silent',
    };
    repo = path.join(root, 'repo');
    await seedRepository(repo, SAMPLE_DOCS_DIR, process.env);
    // The project and key go into PostgreSQL through the CLI, as an operator would add them.
    const cli = (...args: string[]) =>
      run(process.execPath, [...CLI, '--data-dir', path.join(root, 'cli'), ...args], { env });
    await cli('project', 'add', '--id', 'docs', '--repository', repo, '--ref', 'main');
    key = (await cli('key', 'create', '--project', 'docs')).stdout.trim();
    replicas.push(
      ...(await Promise.all([1, 2, 3].map((index) => serve(path.join(root, `replica-${index}`), env)))),
    );
  });

  afterAll(async () => {
    for (const replica of replicas) if (replica.alive) replica.child.kill('SIGKILL');
    await postgres?.stop();
    await fs.rm(root, { recursive: true, force: true });
  });

  /** A load balancer's view: requests go round-robin to the replicas that are alive. */
  let turn = 0;
  async function call(method: string, route: string, body?: unknown) {
    const alive = replicas.filter((replica) => replica.alive);
    const replica = alive[turn++ % alive.length]!;
    const response = await fetch(`${replica.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { id: string; status: string } };
  }

  async function createJobs(from: number, to: number): Promise<string[]> {
    const ids: string[] = [];
    for (let index = from; index < to; index += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, to - index) }, (_, offset) =>
          call('POST', '/v2/agent/docs/job', {
            prompt: `replace "Acme Cloud" with "Acme ${index + offset}"`,
          }),
        ),
      );
      for (const created of batch) {
        expect(created.status).toBe(201);
        ids.push(created.body.id);
      }
    }
    return ids;
  }

  it(`completes all ${JOBS} jobs once each although one replica is SIGKILLed in the middle`, async () => {
    const database = new pg.Client({ connectionString: env.DATABASE_URL });
    await database.connect();
    try {
      const ids = await createJobs(0, JOBS / 2);
      // Kill the first replica while it holds leases, i.e. in the middle of runs.
      const victim = replicas[0]!;
      const leasedBy = async () =>
        (
          await database.query<{ id: string }>(
            'select id from jobs where lease_owner like $1 and lease_expires_at > $2',
            [`%:${victim.child.pid}:%`, new Date().toISOString()],
          )
        ).rows.map((row) => row.id);
      let interrupted: string[] = [];
      while (interrupted.length === 0) interrupted = await leasedBy();
      victim.child.kill('SIGKILL');
      victim.alive = false;
      ids.push(...(await createJobs(JOBS / 2, JOBS)));

      // Correctness, not speed, is the claim here: a loaded machine gets all the time it needs.
      const deadline = Date.now() + 240_000;
      let statuses = new Map<string, number>();
      for (;;) {
        const { rows } = await database.query<{ status: string; count: number }>(
          'select status, count(*)::int as count from jobs group by status',
        );
        statuses = new Map(rows.map((row) => [row.status, row.count]));
        if ((statuses.get('completed') ?? 0) === JOBS || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(Object.fromEntries(statuses)).toEqual({ completed: JOBS }); // none lost, none failed

      // None twice: every job's branch got its edit in exactly one commit, interrupted ones included.
      const { stdout } = await run('git', [
        '-C',
        repo,
        'for-each-ref',
        '--format=%(refname:short)',
        'refs/heads/docwright/',
      ]);
      const branches = stdout.trim().split('\n').sort();
      expect(branches).toEqual(ids.map((id) => `docwright/job-${id}`).sort());
      const counts = await Promise.all(
        branches.map(async (branch) =>
          (await run('git', ['-C', repo, 'rev-list', '--count', `main..${branch}`])).stdout.trim(),
        ),
      );
      expect(counts.filter((count) => count !== '1')).toEqual([]);
      for (const id of interrupted) {
        const job = await call('GET', `/v2/agent/docs/job/${id}`);
        expect(job.body.status).toBe('completed');
      }

      // SIGTERM is the orderly way out: the replica stops claiming, closes its pool and exits 0.
      const leaving = replicas[1]!;
      const exited = new Promise((resolve) => leaving.child.once('exit', resolve));
      leaving.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      leaving.alive = false;
    } finally {
      await database.end();
    }
  }, 270_000);
});

/**
 * GitHub retries a delivery it thinks failed, and a load balancer may hand the retry to another
 * replica: the delivery id, claimed in the shared database, makes the command run once.
 */
describe('two replicas on one PostgreSQL database receive the same signed webhook', () => {
  let postgres: TestPostgres;
  const folders: string[] = [];
  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(async () => {
    nock.cleanAll();
    nock.enableNetConnect();
    await postgres?.stop();
    await Promise.all(folders.map((folder) => fs.rm(folder, { recursive: true, force: true })));
  });

  it('creates one job, one status comment and one pull request', async () => {
    const databaseUrl = await postgres.createDatabase();
    nock.disableNetConnect();
    const github = new FakeGitHub(REPOSITORY, FakeGit.readFolder(SAMPLE_DOCS_DIR));
    github.intercept();
    github.permissions.set('maintainer', 'write');
    const replicas = await Promise.all(
      [1, 2].map(async () => {
        const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-replica-'));
        folders.push(dataDir);
        const config = { ...botConfig(dataDir), databaseUrl };
        const probot = testProbot(config);
        const service = await createService(config, { logger: silentLogger, github: { probot } });
        await probot.load(service.github!.app);
        service.worker.start();
        return { service, probot };
      }),
    );
    try {
      // The app is installed: the `installation` event made the project before any command.
      await replicas[0]!.service.store.projects.upsertOnGitHub({
        host: 'github.com',
        repository: REPOSITORY,
        baseRef: 'main',
        installationId: INSTALLATION_ID,
      });
      const body = JSON.stringify(
        issueComment('/docs replace "an empty account" with "a brand-new account"'),
      );
      const delivery = {
        id: 'delivery-retried-on-another-replica',
        name: 'issue_comment' as const,
        payload: body,
        signature: await sign(WEBHOOK_SECRET, body),
      };
      await Promise.all(replicas.map(({ probot }) => probot.webhooks.verifyAndReceive(delivery)));

      const store = replicas[0]!.service.store;
      const jobs = await store.database.db.selectFrom('jobs').selectAll().execute();
      expect(jobs).toHaveLength(1);
      const statuses = github.comments.filter((comment) => findJobMarker(comment.body));
      expect(statuses.map((comment) => findJobMarker(comment.body))).toEqual([jobs[0]!.id]);
      const deadline = Date.now() + 15_000;
      while (github.pulls.length === 0 && Date.now() < deadline) await sleep(50);
      expect(github.pulls).toHaveLength(1);
      expect(github.reactions).toHaveLength(1);
    } finally {
      await Promise.all(replicas.map(({ service }) => service.close()));
    }
  });
});

/** Starts `docwright serve` and resolves once it listens (the first line of its banner). */
async function serve(dataDir: string, env: NodeJS.ProcessEnv): Promise<Replica> {
  const port = await freePort();
  const child = spawn(process.execPath, [...CLI, '--data-dir', dataDir, 'serve', '--port', String(port)], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('docwright is serving on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}`, alive: true };
}
