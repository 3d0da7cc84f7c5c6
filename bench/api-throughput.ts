/**
 * Job create and job get throughput and latency of the docwright API (SQLite, auth, rate limits,
 * validation) beside a bare node:http server returning the same JSON, measured with autocannon in
 * one run. The ratio is the figure: how much of the bare server's speed the real API keeps.
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 20;

export interface Server {
  child: ChildProcess;
  key: string;
  jobId: string;
  assistantKey: string;
  url: string;
}

/** `env` reaches the server: BENCH_DATABASE_URL puts the docwright server's store on PostgreSQL. */
export async function startServer(
  mode: 'docwright' | 'bare',
  port: number,
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Server> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/api-server.ts', mode, String(port), dataDir],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env,
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (text) => text.startsWith('READY') && resolve(text));
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
  const [, key, jobId, assistantKey] = line.split(' ') as [string, string, string, string];
  return { child, key, jobId, assistantKey, url: `http://127.0.0.1:${port}` };
}

/** One autocannon run; throws when any request failed. */
export async function load(options: autocannon.Options) {
  const result = await autocannon({ duration: DURATION_SECONDS, connections: CONNECTIONS, ...options });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${options.title}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
  };
}

export async function runApiBenchmark(): Promise<string> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-bench-'));
  const rows: string[] = [];
  try {
    const servers = {
      docwright: await startServer('docwright', 38101, dataDir),
      bare: await startServer('bare', 38102, dataDir),
    };
    const results: Record<string, Record<string, Awaited<ReturnType<typeof load>>>> = {};
    for (const [name, server] of Object.entries(servers)) {
      const headers = { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' };
      results[name] = {
        create: await load({
          title: `${name} create`,
          url: `${server.url}/v2/agent/bench/job`,
          method: 'POST',
          headers,
          body: JSON.stringify({ prompt: 'replace "Acme Cloud" with "Acme Platform"' }),
        }),
        get: await load({
          title: `${name} get`,
          url: `${server.url}/v2/agent/bench/job/${server.jobId}`,
          headers,
        }),
      };
      server.child.kill('SIGTERM');
    }
    for (const operation of ['create', 'get'] as const) {
      const ours = results.docwright![operation]!;
      const bare = results.bare![operation]!;
      rows.push(
        `| job ${operation} | ${ours.rps.toFixed(0)} | ${ours.p50} / ${ours.p99} | ${bare.rps.toFixed(0)} | ${bare.p50} / ${bare.p99} | ${((ours.rps / bare.rps) * 100).toFixed(1)}% |`,
      );
    }
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
  return [
    '## Agent-job API throughput',
    '',
    `autocannon, ${CONNECTIONS} connections, ${DURATION_SECONDS} s per run, server and load generator in separate processes on the same machine. docwright: SQLite (WAL) on local disk, bearer auth (SHA-256 lookup), zod validation, rate limits in SQLite; worker off so only the API is measured. bare: \`node:http\` answering every request with the same job JSON.`,
    '',
    "The bare server does no work at all, so the ratio is the cost of everything the API does per request: a create is a SQLite transaction (job and first message) plus a rate-limit row update and the key lookup; a get is three indexed reads (key, job, messages). Against the spec's limit of 100 creations per project per hour, one process has room for thousands of projects.",
    '',
    '| operation | docwright req/s | docwright p50 / p99 ms | bare req/s | bare p50 / p99 ms | docwright / bare |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}
