/**
 * The MCP server under load, beside the assistant: `search_docs` called over Streamable HTTP by the
 * SDK's own client with 50 calls always in flight (50 connected clients, each calling again as soon
 * as it is answered), against a real `docwright serve`-equivalent process (bench/api-server.ts) on
 * the shared Mintlify corpus; then the assistant's streamed answer with 50 in flight on the same
 * corpus (bench/assistant-ttfb.ts's closed loop); then `llms-full.txt` of that corpus fetched whole:
 * its time, its size and the server's peak memory (VmHWM of /proc/<pid>/status) before and after.
 *
 *   npx tsx bench/mcp-search.ts          one line of JSON per measure (the corpus absent: says so)
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { QUESTIONS } from './api-load-client.js';
import { startServer } from './api-throughput.js';
import { cpuMs, measureClosedLoop, MINTLIFY_DOCS } from './assistant-ttfb.js';

const CONCURRENCY = 50;
const DURATION_MS = Number(process.env.BENCH_DURATION ?? 10) * 1000;

const percentile = (values: number[], fraction: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0) * 10) / 10
  );
};

/** Peak resident memory of a process so far, in MiB, from /proc/<pid>/status. */
async function peakMiB(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  return Math.round(kib / 1024);
}

async function main(): Promise<void> {
  if (!existsSync(MINTLIFY_DOCS)) {
    console.log(`No Mintlify corpus at ${MINTLIFY_DOCS}: nothing to measure.`);
    return;
  }
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-bench-mcp-'));
  const server = await startServer('docwright', 38104, dataDir, {
    ...process.env,
    BENCH_DOCS_DIR: MINTLIFY_DOCS,
  });
  const clients: Client[] = [];
  try {
    const pid = server.child.pid!;
    for (let index = 0; index < CONCURRENCY; index += 1) {
      const client = new Client({ name: 'docwright-bench', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp/bench`), {
          requestInit: { headers: { Authorization: `Bearer ${server.assistantKey}` } },
        }),
      );
      clients.push(client);
    }
    // The first search builds the site's index, as the first question of a day does.
    await clients[0]!.callTool({ name: 'search_docs', arguments: { query: QUESTIONS[0]! } });
    const latencies: number[] = [];
    let failures = 0;
    const cpuBefore = await cpuMs(pid);
    const started = performance.now();
    await Promise.all(
      clients.map(async (client, index) => {
        for (let call = index; performance.now() - started < DURATION_MS; call += CONCURRENCY) {
          const sent = performance.now();
          const result = await client.callTool({
            name: 'search_docs',
            arguments: { query: QUESTIONS[call % QUESTIONS.length]!, limit: 5 },
          });
          if (result.isError) failures += 1;
          latencies.push(performance.now() - sent);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(
      JSON.stringify({
        measure: 'search_docs over Streamable HTTP, 50 in flight, Mintlify corpus',
        calls: latencies.length,
        failures,
        perSecond: Math.round(latencies.length / seconds),
        p50: percentile(latencies, 0.5),
        p95: percentile(latencies, 0.95),
        p99: percentile(latencies, 0.99),
        serverCpuMsPerCall: Math.round((((await cpuMs(pid)) - cpuBefore) / latencies.length) * 100) / 100,
      }),
    );
    await Promise.all(clients.map((client) => client.close()));
    clients.length = 0;
    const peakBefore = await peakMiB(pid);
    const fetched = performance.now();
    const response = await fetch(`${server.url}/llms/bench/llms-full.txt`);
    const bytes = (await response.arrayBuffer()).byteLength;
    console.log(
      JSON.stringify({
        measure: 'llms-full.txt of the Mintlify corpus, fetched whole',
        status: response.status,
        bytes,
        ms: Math.round(performance.now() - fetched),
        serverPeakMiBBefore: peakBefore,
        serverPeakMiBAfter: await peakMiB(pid),
      }),
    );
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    await fs.rm(dataDir, { recursive: true, force: true });
  }
  const answers = await measureClosedLoop('mintlify');
  console.log(
    JSON.stringify({ measure: 'assistant answers (v2 stream), 50 in flight, Mintlify corpus', ...answers }),
  );
}

await main();
