/**
 * The API and assistant figures side by side, measured in one window: job get and job create
 * against a bare `node:http` server (SQLite and PostgreSQL), the assistant's closed loop on the
 * sample docs and the Mintlify corpus, and the earlier rounds-of-`fetch` method once beside it. The
 * memory figures are those of the last `npm run bench:memory` (bench/memory-load.json): ten minutes
 * do not fit in one window with the rest.
 *
 *   npx tsx bench/issue-table.ts     (npm run bench -- issue-table)
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startPostgres } from '../test/helpers/postgres.js';
import { MINTLIFY_DOCS, measureClosedLoop, measureRounds } from './assistant-ttfb.js';
import { minuteFloors, slopePerMinute, type MemorySample } from './memory-chart.js';
import { apiThroughput } from './replicas.js';

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');

async function memoryFigures(): Promise<string> {
  const file = new URL('./memory-load.json', import.meta.url);
  if (!existsSync(file)) return 'not measured (run `npm run bench:memory`)';
  const { samples } = JSON.parse(await fs.readFile(file, 'utf8')) as { samples: MemorySample[] };
  const idle = samples.filter((each) => each.phase === 'idle');
  const busy = samples.filter((each) => each.phase === 'load');
  const end = busy.at(-1)?.seconds ?? 0;
  const floors = minuteFloors(busy).filter((each) => each.seconds >= end - 300);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const mb = (values: number[]) => mean(values).toFixed(0);
  return `idle RSS ${mb(idle.map((each) => each.rss))} MB, heap ${mb(idle.map((each) => each.heapUsed))} MB; under load RSS ${mb(busy.map((each) => each.rss))} MB, heap ${mb(busy.map((each) => each.heapUsed))} MB; lowest sample of each whole minute over the last 5 minutes: RSS ${slopePerMinute(floors, 'rss').toFixed(2)} MB/min, heap ${slopePerMinute(floors, 'heapUsed').toFixed(2)} MB/min`;
}

export async function runIssueTable(): Promise<string> {
  const started = new Date();
  const loadBefore = load();
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-bench-table-'));
  const postgres = await startPostgres();
  let api: string;
  try {
    api = await apiThroughput(root, postgres);
  } finally {
    await postgres.stop();
    await fs.rm(root, { recursive: true, force: true });
  }
  const sample = await measureClosedLoop('sample');
  const rounds = await measureRounds('sample');
  const mintlify = existsSync(MINTLIFY_DOCS) ? await measureClosedLoop('mintlify') : undefined;
  const assistant = (name: string, report: typeof rounds, cpu?: number) =>
    `| ${name} | ${report.ttfb.p50} / ${report.ttfb.p95} / ${report.ttfb.p99} | ${report.total.p50} / ${report.total.p95} | ${report.perSecond} | ${cpu ?? '–'} |`;
  return [
    "## The issue's figures, one window",
    '',
    `Measured ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.version}; load average (1 / 5 / 15 min) ${loadBefore} at the start, ${load()} at the end, the machine shared with other engineers' work. SQLite runs in WAL with \`synchronous = NORMAL\`: a created job is in the WAL file when its 201 leaves and survives \`kill -9\` of the process, not a power cut before the next checkpoint.`,
    '',
    api.replace(/^## .*\n\n/, ''),
    '',
    'Assistant v2, 50 in flight, offline extractive answerer, one server process (SQLite, auth and three rate limits counted per answer). Closed loop: bench/api-load-client.ts in a process of its own keeps 50 answers in flight over `node:http` keep-alive for 10 s; earlier method: rounds of 50 `fetch` calls from the benchmark process, each round waiting for its slowest.',
    '',
    '| load | TTFB p50 / p95 / p99 ms | whole answer p50 / p95 ms | answers/s | server CPU ms per answer |',
    '| --- | ---: | ---: | ---: | ---: |',
    assistant('sample docs, closed loop', sample, sample.serverCpuMsPerAnswer),
    assistant('sample docs, earlier method (rounds of `fetch`)', rounds),
    mintlify
      ? assistant('Mintlify corpus, closed loop', mintlify, mintlify.serverCpuMsPerAnswer)
      : `| Mintlify corpus: skipped, ${MINTLIFY_DOCS} is absent | | | | |`,
    '',
    `Memory of one \`serve\` process, Mintlify corpus (last 10-minute run, bench/memory-load.svg): ${await memoryFigures()}.`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(`${await runIssueTable()}\n`);
