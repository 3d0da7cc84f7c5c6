/**
 * Memory of one `docwright serve` process (the real CLI, worker on) whose project's docs are the
 * shared Mintlify corpus: idle first, then under mixed load (assistant answers, job gets, job
 * creates; 50 in flight from bench/api-load-client.ts in a process of its own). Every 10 s: RSS
 * (VmRSS of /proc/<pid>/status) and the V8 heap (prom-client's gauges on /metrics).
 *
 *   npm run bench:memory        (BENCH_MEMORY_LOAD_SECONDS, default 600; BENCH_MEMORY_IDLE_SECONDS, default 60)
 *
 * Writes bench/memory-load.json (the samples) and bench/memory-load.svg (the chart) and prints a
 * Markdown section. Skipped with a message when the corpus is absent.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { seedRepository } from '../src/cli/demo.js';
import { loadFromProcess, type LoadReport } from './api-load-client.js';
import { memoryChartSvg, minuteFloors, slopePerMinute, type MemorySample } from './memory-chart.js';

const CORPUS = path.resolve('../shared/corpora/mintlify-docs');
const PORT = 38130;
const INTERVAL_MS = 10_000;
const IDLE_SECONDS = Number(process.env.BENCH_MEMORY_IDLE_SECONDS ?? 60);
const LOAD_SECONDS = Number(process.env.BENCH_MEMORY_LOAD_SECONDS ?? 600);
const MIX = { answer: 8, get: 3, create: 1 };
const run = promisify(execFile);

const LIMITS = {
  DOCWRIGHT_JOB_RATE_LIMIT: '100000000',
  DOCWRIGHT_ASSISTANT_KEY_MONTHLY_LIMIT: '100000000',
  DOCWRIGHT_ASSISTANT_ORG_HOURLY_LIMIT: '100000000',
  DOCWRIGHT_ASSISTANT_IP_DAILY_LIMIT: '100000000',
};

async function cli(dataDir: string, args: string[]): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', 'src/cli.ts', '--data-dir', dataDir, ...args],
    { env: { ...process.env, ...LIMITS, LOG_LEVEL: 'warn' } },
  );
  return stdout.trim();
}

async function rssMegabytes(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  return kilobytes / 1024;
}

async function heapMegabytes(base: string): Promise<{ used: number; total: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]) / 2 ** 20;
  return {
    used: gauge('docwright_nodejs_heap_size_used_bytes'),
    total: gauge('docwright_nodejs_heap_size_total_bytes'),
  };
}

async function waitHealthy(base: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const ok = await fetch(`${base}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('docwright serve did not become healthy in 120 s');
}

async function call(
  base: string,
  key: string,
  pathName: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}${pathName}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${pathName}: ${response.status} ${text.slice(0, 200)}`);
  return pathName.endsWith('/message') ? {} : (JSON.parse(text) as Record<string, unknown>);
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

export async function runMemoryLoadBenchmark(): Promise<string> {
  if (!existsSync(CORPUS)) return `## serve memory under load\n\nSkipped: the corpus ${CORPUS} is absent.`;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-memory-'));
  const repo = path.join(dataDir, 'repo');
  await seedRepository(repo, CORPUS, process.env);
  await cli(dataDir, [
    'project',
    'add',
    '--id',
    'bench',
    '--repository',
    repo,
    '--ref',
    'main',
    '--domain',
    'bench',
  ]);
  const adminKey = await cli(dataDir, ['key', 'create', '--project', 'bench']);
  const assistantKey = await cli(dataDir, ['key', 'create', '--domain', 'bench']);
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli.ts', '--data-dir', dataDir, 'serve', '--port', String(PORT)],
    { stdio: 'ignore', env: { ...process.env, ...LIMITS, DOCWRIGHT_METRICS: '1', LOG_LEVEL: 'warn' } },
  );
  const base = `http://127.0.0.1:${PORT}`;
  const samples: MemorySample[] = [];
  let phase: MemorySample['phase'] = 'idle';
  const started = performance.now();
  const sample = async () => {
    const [rss, heap] = await Promise.all([rssMegabytes(server.pid!), heapMegabytes(base)]);
    samples.push({
      seconds: (performance.now() - started) / 1000,
      phase,
      rss,
      heapUsed: heap.used,
      heapTotal: heap.total,
    });
  };
  try {
    await waitHealthy(base);
    const job = await call(base, adminKey, '/v2/agent/bench/job', {
      prompt: 'replace "Acme Cloud" with "Acme Platform"',
    });
    // The first answer builds the corpus's index: idle is measured with it built, as a running site is.
    await call(base, assistantKey, '/discovery/v2/assistant/bench/message', {
      fp: 'bench',
      messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: 'How do I add a custom domain?' }] }],
    });
    const timer = setInterval(() => void sample().catch(() => undefined), INTERVAL_MS);
    await sample();
    let report: LoadReport;
    try {
      await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
      phase = 'load';
      report = await loadFromProcess({
        url: base,
        concurrency: 50,
        durationMs: LOAD_SECONDS * 1000,
        mix: MIX,
        adminKey,
        assistantKey,
        projectId: 'bench',
        jobId: String(job.id),
        domain: 'bench',
      });
      await sample();
    } finally {
      clearInterval(timer);
    }
    await fs.writeFile(
      new URL('./memory-load.json', import.meta.url),
      `${JSON.stringify({ samples, report }, null, 2)}\n`,
    );
    await fs.writeFile(new URL('./memory-load.svg', import.meta.url), memoryChartSvg(samples));
    return summary(samples, report);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

function summary(samples: MemorySample[], report: LoadReport): string {
  const idle = samples.filter((each) => each.phase === 'idle');
  const load = samples.filter((each) => each.phase === 'load');
  const loadEnd = load.at(-1)?.seconds ?? 0;
  const lastFive = load.filter((each) => each.seconds >= loadEnd - 300);
  const floors = minuteFloors(load).filter((each) => each.seconds >= loadEnd - 300);
  const fmt = (value: number) => value.toFixed(1);
  const kinds = (['answer', 'get', 'create'] as const)
    .map((kind) => {
      const each = report[kind];
      return each
        ? `${kind} ${each.perSecond}/s (TTFB p95 ${each.ttfb.p95} ms, ${each.failures} failed)`
        : '';
    })
    .filter(Boolean)
    .join(', ');
  return [
    '## serve memory under load (Mintlify corpus)',
    '',
    `One \`docwright serve\` process (worker on, SQLite, metrics on), its project's docs the Mintlify corpus; ${IDLE_SECONDS} s idle with the index built, then ${LOAD_SECONDS} s of mixed load (50 in flight, answers : gets : creates = ${MIX.answer} : ${MIX.get} : ${MIX.create}), sampled every ${INTERVAL_MS / 1000} s. Load reached: ${kinds}. Chart: bench/memory-load.svg; samples: bench/memory-load.json.`,
    '',
    '| measure | RSS MB | heap used MB | heap total MB |',
    '| --- | ---: | ---: | ---: |',
    `| idle (mean of ${idle.length} samples) | ${fmt(mean(idle.map((each) => each.rss)))} | ${fmt(mean(idle.map((each) => each.heapUsed)))} | ${fmt(mean(idle.map((each) => each.heapTotal)))} |`,
    `| under load (mean of ${load.length}) | ${fmt(mean(load.map((each) => each.rss)))} | ${fmt(mean(load.map((each) => each.heapUsed)))} | ${fmt(mean(load.map((each) => each.heapTotal)))} |`,
    `| under load, highest | ${fmt(Math.max(...load.map((each) => each.rss)))} | ${fmt(Math.max(...load.map((each) => each.heapUsed)))} | ${fmt(Math.max(...load.map((each) => each.heapTotal)))} |`,
    `| growth over the last 5 minutes (least-squares slope, MB/min) | ${slopePerMinute(lastFive, 'rss').toFixed(2)} | ${slopePerMinute(lastFive, 'heapUsed').toFixed(2)} | ${slopePerMinute(lastFive, 'heapTotal').toFixed(2)} |`,
    `| growth of the lowest sample of each minute, last 5 minutes (MB/min) | ${slopePerMinute(floors, 'rss').toFixed(2)} | ${slopePerMinute(floors, 'heapUsed').toFixed(2)} | ${slopePerMinute(floors, 'heapTotal').toFixed(2)} |`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${await runMemoryLoadBenchmark()}\n`);
}
