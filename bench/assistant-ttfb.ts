/**
 * Time to first byte of the streamed assistant answer (v2, offline extractive answerer) with 50
 * requests in flight, against a real `docwright serve`-equivalent process (bench/api-server.ts), on
 * the sample docs and on the shared Mintlify corpus (skipped when absent).
 *
 * The load is a closed loop from a process of its own (bench/api-load-client.ts): 50 requests always
 * in flight over `node:http` keep-alive connections. The earlier method, kept for comparison, sent
 * rounds of 50 `fetch` calls from this process, each round waiting for its slowest answer.
 *
 *   npx tsx bench/assistant-ttfb.ts [sample|mintlify|rounds]...   one line of JSON per measure
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { QUESTIONS, loadFromProcess, type KindReport } from './api-load-client.js';
import { startServer } from './api-throughput.js';

const CONCURRENCY = 50;
const DURATION_MS = Number(process.env.BENCH_DURATION ?? 10) * 1000;
const ROUNDS = Number(process.env.BENCH_TTFB_ROUNDS ?? 20);
export const MINTLIFY_DOCS = path.resolve('../shared/corpora/mintlify-docs');

export type Corpus = 'sample' | 'mintlify';

/** CPU time (user + system) the process `pid` has used so far, in ms, from /proc/<pid>/stat. */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime, fields 14 and 15 of stat(5), counted from the third field here; 100 ticks a second.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function withServer<T>(
  corpus: Corpus,
  run: (url: string, key: string, pid: number) => Promise<T>,
): Promise<T> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-bench-'));
  const env = corpus === 'mintlify' ? { ...process.env, BENCH_DOCS_DIR: MINTLIFY_DOCS } : process.env;
  const server = await startServer('docwright', 38103, dataDir, env);
  try {
    const url = `${server.url}/discovery/v2/assistant/bench/message`;
    await timeOne(url, server.assistantKey, QUESTIONS[0]!); // builds the docs index once
    return await run(server.url, server.assistantKey, server.child.pid!);
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

/** The closed loop: 50 in flight for the duration, from bench/api-load-client.ts. */
export function measureClosedLoop(corpus: Corpus): Promise<KindReport & { serverCpuMsPerAnswer: number }> {
  return withServer(corpus, async (url, assistantKey, pid) => {
    const cpuBefore = await cpuMs(pid);
    const report = await loadFromProcess({
      url,
      concurrency: CONCURRENCY,
      durationMs: DURATION_MS,
      mix: { answer: 1 },
      assistantKey,
    });
    if (!report.answer || report.answer.failures > 0)
      throw new Error(`assistant load failed: ${JSON.stringify(report.answer)}`);
    const serverCpuMsPerAnswer = ((await cpuMs(pid)) - cpuBefore) / report.answer.count;
    return { ...report.answer, serverCpuMsPerAnswer: Math.round(serverCpuMsPerAnswer * 100) / 100 };
  });
}

async function timeOne(url: string, key: string, question: string): Promise<{ ttfb: number; total: number }> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      fp: 'bench',
      messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: question }] }],
    }),
  });
  const reader = response.body!.getReader();
  let ttfb = 0;
  for (;;) {
    const { done } = await reader.read();
    if (!ttfb) ttfb = performance.now() - started;
    if (done) break;
  }
  if (response.status !== 200) throw new Error(`assistant answered ${response.status}`);
  return { ttfb, total: performance.now() - started };
}

const percentile = (values: number[], fraction: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
};

/** The earlier method: rounds of 50 `fetch` calls from this process, each waiting for its slowest. */
export function measureRounds(corpus: Corpus): Promise<KindReport> {
  return withServer(corpus, async (base, key) => {
    const url = `${base}/discovery/v2/assistant/bench/message`;
    const samples: { ttfb: number; total: number }[] = [];
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round += 1) {
      const batch = Array.from({ length: CONCURRENCY }, (_, index) =>
        timeOne(url, key, QUESTIONS[index % QUESTIONS.length]!),
      );
      samples.push(...(await Promise.all(batch)));
    }
    const seconds = (performance.now() - started) / 1000;
    const summary = (values: number[]) => ({
      p50: Math.round(percentile(values, 0.5) * 10) / 10,
      p95: Math.round(percentile(values, 0.95) * 10) / 10,
      p99: Math.round(percentile(values, 0.99) * 10) / 10,
    });
    return {
      count: samples.length,
      failures: 0,
      perSecond: Math.round(samples.length / seconds),
      ttfb: summary(samples.map((sample) => sample.ttfb)),
      total: summary(samples.map((sample) => sample.total)),
    };
  });
}

const row = (name: string, report: KindReport) =>
  `| ${name} | ${report.ttfb.p50} | ${report.ttfb.p95} | ${report.ttfb.p99} | ${report.total.p50} / ${report.total.p95} | ${report.perSecond} | ${report.count} |`;

export async function runAssistantTtfbBenchmark(): Promise<string> {
  const rows = [row('sample docs, closed loop', await measureClosedLoop('sample'))];
  rows.push(row('sample docs, earlier method (rounds of `fetch`)', await measureRounds('sample')));
  if (existsSync(MINTLIFY_DOCS))
    rows.push(row('mintlify corpus, closed loop', await measureClosedLoop('mintlify')));
  else rows.push(`| mintlify corpus: skipped, ${MINTLIFY_DOCS} is absent | | | | | | |`);
  return [
    '## Assistant: time to first byte under load',
    '',
    `${CONCURRENCY} requests in flight, v2 endpoint, offline extractive answerer, one server process (bench/api-server.ts: SQLite, auth and rate limits counted on every answer). Closed loop: the load generator (bench/api-load-client.ts, \`node:http\` with keep-alive) runs in a process of its own and keeps ${CONCURRENCY} answers in flight for ${DURATION_MS / 1000} s; time to first byte is the first chunk of the body. The earlier method (rounds of ${CONCURRENCY} \`fetch\` calls from the benchmark's process, ${ROUNDS} rounds, each waiting for its slowest answer) is kept beside it.`,
    '',
    '| load | TTFB p50 ms | p95 ms | p99 ms | whole answer p50 / p95 ms | answers/s | answers |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const what of process.argv.slice(2)) {
    const report =
      what === 'rounds' ? await measureRounds('sample') : await measureClosedLoop(what as Corpus);
    process.stdout.write(`${JSON.stringify({ what, load: os.loadavg()[0]!.toFixed(1), ...report })}\n`);
  }
}
