/**
 * The GitHub Action's cold start and bundle size. Cold start: from spawning `node dist/index.js`
 * (a `workflow_dispatch` run with a prompt: with a server and `wait: false`, or with no server, when
 * its first request is GitHub's GraphQL read of the settings and the default branch) to the moment
 * its first request reaches a local server, beside `node -e "fetch(...)"` doing nothing but that
 * request, so the difference is what loading the bundle costs. Bundle: bytes of dist/index.js, raw
 * and gzipped. Budgets: under 300 ms to the first request, under 4 MiB of bundle.
 * Run alone with `tsx bench/action-cold-start.ts`; `npm run package` first.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os, { cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(ROOT, 'dist/index.js');
const RUNS = Number(process.env.BENCH_ACTION_RUNS ?? 20);

const JOB = {
  id: 'benchjob',
  status: 'active',
  source: { repository: 'https://github.com/o/r', ref: 'docwright/job-benchjob' },
  model: 'builtin',
  prLink: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  archivedAt: null,
};

/** A stand-in API that answers every request with a job and reports when the first one arrives. */
async function startApi() {
  let onRequest: (() => void) | null = null;
  const server = http.createServer((request, response) => {
    onRequest?.();
    onRequest = null;
    request.resume();
    response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(JOB));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    nextRequest: () => new Promise<void>((resolve) => (onRequest = resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Milliseconds from spawning `args` to its first request, then waits for the process to exit. */
async function timeToFirstRequest(
  api: Awaited<ReturnType<typeof startApi>>,
  args: string[],
  env: NodeJS.ProcessEnv,
  /** The exit codes that count as a normal end (the runner's run fails after its first answer, which is not GitHub's). */
  exitCodes: (number | null)[] = [0],
) {
  const arrived = api.nextRequest();
  const started = performance.now();
  const child = spawn(process.execPath, args, { env, stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await arrived;
  const elapsed = performance.now() - started;
  const code = await exited;
  if (!exitCodes.includes(code)) throw new Error(`${args.join(' ')} exited with ${code}`);
  return elapsed;
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

export async function runActionBenchmark(): Promise<string> {
  const bundle = await fs.readFile(DIST);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-action-bench-'));
  const api = await startApi();
  try {
    await fs.writeFile(path.join(dir, 'event.json'), JSON.stringify({ inputs: {} }));
    await fs.writeFile(path.join(dir, 'output'), '');
    const env = {
      PATH: process.env.PATH,
      GITHUB_EVENT_NAME: 'workflow_dispatch',
      GITHUB_EVENT_PATH: path.join(dir, 'event.json'),
      GITHUB_OUTPUT: path.join(dir, 'output'),
      'INPUT_API-KEY': 'svc_bench',
      'INPUT_PROJECT-ID': 'bench',
      'INPUT_BASE-URL': api.url,
      INPUT_PROMPT: 'replace "Acme Cloud" with "Acme Platform"',
      INPUT_WAIT: 'false',
    };
    // No server: GitHub's API (the same stand-in) is asked first, for the settings and the default branch.
    const runnerEnv = {
      PATH: process.env.PATH,
      GITHUB_EVENT_NAME: 'workflow_dispatch',
      GITHUB_EVENT_PATH: path.join(dir, 'event.json'),
      GITHUB_OUTPUT: path.join(dir, 'output'),
      GITHUB_REPOSITORY: 'octo-org/docs-site',
      GITHUB_API_URL: api.url,
      'INPUT_GITHUB-TOKEN': 'ghs_bench',
      INPUT_PROMPT: 'replace "Acme Cloud" with "Acme Platform"',
    };
    const fetchOnly = ['-e', `fetch(${JSON.stringify(`${api.url}/`)}).then((r) => r.text())`];
    const action: number[] = [];
    const runner: number[] = [];
    const bare: number[] = [];
    await timeToFirstRequest(api, [DIST], env); // warm the file cache
    for (let run = 0; run < RUNS; run += 1) {
      action.push(await timeToFirstRequest(api, [DIST], env));
      runner.push(await timeToFirstRequest(api, [DIST], runnerEnv, [1]));
      bare.push(await timeToFirstRequest(api, fetchOnly, env));
    }
    const row = (name: string, values: number[]) =>
      `| ${name} | ${percentile(values, 0.5).toFixed(0)} | ${percentile(values, 0.9).toFixed(0)} | ${Math.min(...values).toFixed(0)} |`;
    return [
      '## GitHub Action: cold start and bundle size',
      '',
      `Measured on ${new Date().toISOString().slice(0, 10)} (${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}). Time from spawning the process to its first request arriving at a local server, ${RUNS} runs each. \`dist/index.js\` with a server: a \`workflow_dispatch\` run with a prompt and \`wait: false\` (reads the inputs and the event, then creates the job). In the runner: the same run with no \`base-url\`, whose first request is GitHub's GraphQL read of the settings file and the default branch. \`node -e fetch\`: Node starting and sending one request, the floor under any Action. Budget: 300 ms.`,
      '',
      '| process | p50 ms | p90 ms | min ms |',
      '| --- | ---: | ---: | ---: |',
      row('`node dist/index.js`, server', action),
      row('`node dist/index.js`, in the runner', runner),
      row('`node -e fetch(...)`', bare),
      '',
      `Bundle: \`dist/index.js\`, the file the runner starts, is ${(bundle.length / 1024).toFixed(0)} KiB (${(gzipSync(bundle).length / 1024).toFixed(0)} KiB gzipped); with the chunks it loads when it needs them (the runner's engine, agents, model SDKs and docs checks; the settings parser) and pino's worker files, \`dist/\` holds ${((bundle.length + (await restOfDist())) / 1024).toFixed(0)} KiB of JavaScript (budget 4096 KiB), built by \`npm run package\` (ncc, then esbuild's minifier), with no native module.`,
    ].join('\n');
  } finally {
    await api.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Bytes of the JavaScript of dist/ besides index.js. */
async function restOfDist(): Promise<number> {
  const files = (await fs.readdir(path.dirname(DIST))).filter(
    (file) => file !== 'index.js' && file.endsWith('.js'),
  );
  const sizes = await Promise.all(
    files.map(async (file) => (await fs.stat(path.join(path.dirname(DIST), file))).size),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  process.stdout.write(`${await runActionBenchmark()}\n`);
