/**
 * Several replicas: how fast the job queue drains with one and with three worker
 * processes on one database, and what PostgreSQL costs the API beside SQLite.
 *
 * Queue: each replica is bench/replica-worker.ts, the real store and Worker with an agent that
 * sleeps a fixed time in place of a model and a forge in memory (no git), so claims, heartbeats and
 * results are the only work. All jobs are inserted at once; the clock starts when they commit.
 * API: bench/api-throughput.ts's autocannon runs against bench/api-server.ts, on each store.
 *
 * PostgreSQL is a throwaway cluster on this machine (test/helpers/postgres.ts: Debian's binaries,
 * fsync off), or the server at DOCWRIGHT_TEST_DATABASE_URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStore, type Store } from '../src/store/index.js';
import { startPostgres, type TestPostgres } from '../test/helpers/postgres.js';
import { load, startServer } from './api-throughput.js';

/** Jobs per run with the agent's fixed delay; five times as many with none, so a run lasts long enough to time. */
const JOBS = Number(process.env.BENCH_REPLICA_JOBS ?? 400);
const jobsFor = (delayMs: number) => (delayMs > 0 ? JOBS : JOBS * 5);
const CONCURRENCY = 4;
const AGENT_DELAY_MS = 100;
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 20;

type StoreKind = 'SQLite' | 'PostgreSQL';

interface QueueResult {
  store: StoreKind;
  replicas: number;
  delayMs: number;
  claimedPerSecond: number;
  completedPerSecond: number;
}

export async function runReplicaBenchmark(): Promise<string> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-bench-replicas-'));
  const postgres = await startPostgres();
  try {
    const queue: QueueResult[] = [];
    for (const store of ['SQLite', 'PostgreSQL'] as const) {
      for (const delayMs of [AGENT_DELAY_MS, 0]) {
        for (const replicas of [1, 3]) {
          const location =
            store === 'PostgreSQL'
              ? await postgres.createDatabase()
              : await fs.mkdtemp(path.join(root, 'q-'));
          process.stderr.write(`bench: queue, ${store}, ${replicas} replica(s), agent ${delayMs} ms\n`);
          queue.push({ store, replicas, delayMs, ...(await drainQueue(location, replicas, delayMs)) });
        }
      }
    }
    const api = await apiThroughput(root, postgres);
    return [queueSection(queue), api].join('\n\n');
  } finally {
    await postgres.stop();
    await fs.rm(root, { recursive: true, force: true });
  }
}

/** Starts the replicas, inserts the jobs in one transaction and times until all are claimed and done. */
async function drainQueue(location: string, replicas: number, delayMs: number) {
  const store = await openStore(
    location.startsWith('postgres') ? { dataDir: '', databaseUrl: location } : { dataDir: location },
  );
  const workers: ChildProcess[] = [];
  try {
    await store.projects.create({ id: 'bench', repository: '/bench', baseRef: 'main' });
    for (let index = 0; index < replicas; index += 1) workers.push(await startWorker(location, delayMs));
    const jobs = jobsFor(delayMs);
    const started = await insertJobs(store, jobs);
    let claimedAt = 0;
    for (;;) {
      const { claimed, completed } = await progress(store);
      if (!claimedAt && claimed === jobs) claimedAt = performance.now();
      if (completed === jobs) break;
      await sleep(10);
    }
    const seconds = (at: number) => (at - started) / 1000;
    return {
      claimedPerSecond: jobs / seconds(claimedAt),
      completedPerSecond: jobs / seconds(performance.now()),
    };
  } finally {
    await Promise.all(workers.map(stopWorker));
    await store.close();
  }
}

/** Inserts `count` jobs and their first messages in one transaction (500 rows a statement). */
async function insertJobs(store: Store, count: number): Promise<number> {
  const now = new Date().toISOString();
  const ids = Array.from({ length: count }, (_, index) => `bench${String(index).padStart(6, '0')}`);
  await store.database.db.transaction().execute(async (trx) => {
    for (let start = 0; start < ids.length; start += 500) {
      const chunk = ids.slice(start, start + 500);
      await trx
        .insertInto('jobs')
        .values(
          chunk.map((id) => ({
            id,
            project_id: 'bench',
            status: 'active' as const,
            model: 'builtin',
            repository_url: 'memory:///bench',
            branch: `docwright/job-${id}`,
            pr_link: null,
            error: null,
            created_at: now,
            updated_at: now,
            archived_at: null,
            lease_owner: null,
            lease_expires_at: null,
          })),
        )
        .execute();
      await trx
        .insertInto('job_messages')
        .values(
          chunk.map((id) => ({
            job_id: id,
            role: 'user' as const,
            content: 'edit',
            created_at: now,
            state: 'pending' as const,
          })),
        )
        .execute();
    }
  });
  return performance.now();
}

/** Claimed: done, or leased now (a run's lease is released when it finishes). */
async function progress(store: Store): Promise<{ claimed: number; completed: number }> {
  const count = async (status: 'completed' | 'leased') => {
    const query = store.database.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('count'));
    const filtered =
      status === 'completed'
        ? query.where('status', '=', 'completed')
        : query.where('status', '!=', 'completed').where('lease_owner', 'is not', null);
    return Number((await filtered.executeTakeFirstOrThrow()).count);
  };
  const completed = await count('completed');
  return { claimed: completed + (await count('leased')), completed };
}

async function startWorker(location: string, delayMs: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/replica-worker.ts', location, String(CONCURRENCY), String(delayMs)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => line === 'READY' && resolve());
    child.once('exit', (code) => reject(new Error(`replica worker exited with ${code}`)));
  });
  return child;
}

function stopWorker(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function queueSection(results: QueueResult[]): string {
  const rows = results.map((result) => {
    const ideal =
      result.delayMs > 0 ? ((result.replicas * CONCURRENCY * 1000) / result.delayMs).toFixed(0) : '–';
    return `| ${result.store} | ${result.replicas} | ${result.delayMs} ms | ${result.claimedPerSecond.toFixed(0)} | ${result.completedPerSecond.toFixed(0)} | ${ideal} |`;
  });
  return [
    '## Job queue with one and three replicas',
    '',
    `${JOBS} jobs (${jobsFor(0)} with a 0 ms agent) inserted at once, drained by 1 or 3 worker processes (${CONCURRENCY} runs at a time each) on one database. Each run is the real worker and store: claim (SQLite: compare-and-set UPDATE; PostgreSQL: \`FOR UPDATE SKIP LOCKED\`), heartbeat, result; the agent sleeps a fixed time in place of a model and the forge is in memory, so git is not measured. "claimed/s": jobs over the time until the last was first claimed; "completed/s": until the last was done; "ideal": replicas × runs at a time ÷ agent time. With a 0 ms agent the figures are the queue's own ceiling on this machine; the replicas, the database and this process share its cores, so that ceiling cannot grow with replicas here, while with a real agent's time the three replicas come close to three times one.`,
    '',
    '| store | replicas | agent time | claimed/s | completed/s | ideal completed/s |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}

/** Job create and get against the API on each store, beside the bare node:http server. */
export async function apiThroughput(root: string, postgres: TestPostgres): Promise<string> {
  const stores: [StoreKind, NodeJS.ProcessEnv][] = [
    ['SQLite', { ...process.env, BENCH_DATABASE_URL: '' }],
    ['PostgreSQL', { ...process.env, BENCH_DATABASE_URL: await postgres.createDatabase() }],
  ];
  const results = new Map<string, Awaited<ReturnType<typeof load>>>();
  const servers = [
    ...stores.map(([name, env], index) => ({ name, env, mode: 'docwright' as const, port: 38111 + index })),
    { name: 'bare', env: process.env, mode: 'bare' as const, port: 38119 },
  ];
  for (const { name, env, mode, port } of servers) {
    process.stderr.write(`bench: API on ${name}\n`);
    const server = await startServer(mode, port, await fs.mkdtemp(path.join(root, 'api-')), env);
    try {
      const headers = { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' };
      results.set(
        `${name} create`,
        await load({
          title: `${name} create`,
          url: `${server.url}/v2/agent/bench/job`,
          method: 'POST',
          headers,
          body: JSON.stringify({ prompt: 'replace "Acme Cloud" with "Acme Platform"' }),
        }),
      );
      results.set(
        `${name} get`,
        await load({
          title: `${name} get`,
          url: `${server.url}/v2/agent/bench/job/${server.jobId}`,
          headers,
        }),
      );
    } finally {
      server.child.kill('SIGTERM');
    }
  }
  const rows: string[] = [];
  for (const operation of ['create', 'get'] as const) {
    const bare = results.get(`bare ${operation}`)!;
    for (const [name] of stores) {
      const ours = results.get(`${name} ${operation}`)!;
      rows.push(
        `| job ${operation} | ${name} | ${ours.rps.toFixed(0)} | ${ours.p50} / ${ours.p99} | ${bare.rps.toFixed(0)} | ${((ours.rps / bare.rps) * 100).toFixed(1)}% |`,
      );
    }
  }
  return [
    '## Agent-job API throughput: PostgreSQL beside SQLite',
    '',
    `autocannon, ${CONNECTIONS} connections, ${DURATION_SECONDS} s per run, one docwright process (worker off) per store, load generator and database on the same machine. PostgreSQL: a pool of 10 connections over loopback TCP to a local cluster; the rate limits live in the same database (\`rate-limiter-flexible\`'s Postgres store). bare: \`node:http\` answering every request with the same job JSON.`,
    '',
    '| operation | store | docwright req/s | p50 / p99 ms | bare req/s | docwright / bare |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}

// `tsx bench/replicas.ts` prints the sections alone (bench/run.ts includes them in RESULTS.md).
if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(`${await runReplicaBenchmark()}\n`);
