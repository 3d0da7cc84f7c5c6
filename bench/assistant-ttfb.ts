/**
 * Time to first byte of the streamed assistant answer (v2, offline extractive answerer) with 50
 * requests in flight at once, against a real `docwright serve`-equivalent process on the sample docs.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServer } from './api-throughput.js';

const CONCURRENCY = 50;
const ROUNDS = Number(process.env.BENCH_TTFB_ROUNDS ?? 20);
const QUESTIONS = [
  'How do I add a custom domain?',
  'How do I set an environment variable?',
  'How do I deploy an app?',
  'What does error 429 mean?',
  'How do I authenticate with the API?',
];

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

export async function runAssistantTtfbBenchmark(): Promise<string> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-bench-'));
  const server = await startServer('docwright', 38103, dataDir);
  try {
    const url = `${server.url}/discovery/v2/assistant/bench/message`;
    await timeOne(url, server.assistantKey, QUESTIONS[0]!); // builds the docs index once
    const samples: { ttfb: number; total: number }[] = [];
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round += 1) {
      const batch = Array.from({ length: CONCURRENCY }, (_, index) =>
        timeOne(url, server.assistantKey, QUESTIONS[index % QUESTIONS.length]!),
      );
      samples.push(...(await Promise.all(batch)));
    }
    const seconds = (performance.now() - started) / 1000;
    const ttfb = samples.map((sample) => sample.ttfb);
    const total = samples.map((sample) => sample.total);
    const ms = (value: number) => value.toFixed(1);
    return [
      '## Assistant: time to first byte under load',
      '',
      `${CONCURRENCY} requests in flight at once, ${ROUNDS} rounds (${samples.length} answers), v2 endpoint, offline extractive answerer, sample docs; server in its own process, requests from \`fetch\` in this one.`,
      '',
      '| measure | p50 ms | p95 ms | p99 ms |',
      '| --- | ---: | ---: | ---: |',
      `| time to first byte | ${ms(percentile(ttfb, 0.5))} | ${ms(percentile(ttfb, 0.95))} | ${ms(percentile(ttfb, 0.99))} |`,
      `| whole streamed answer | ${ms(percentile(total, 0.5))} | ${ms(percentile(total, 0.95))} | ${ms(percentile(total, 0.99))} |`,
      '',
      `Throughput: ${(samples.length / seconds).toFixed(0)} answers/s.`,
    ].join('\n');
  } finally {
    server.child.kill('SIGTERM');
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
