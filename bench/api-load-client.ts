/**
 * A closed-loop load generator in a process of its own: `concurrency` requests always in flight
 * (each worker sends its next request as soon as its last one ended), over `node:http` with a
 * keep-alive Agent, which costs the shared cores far less than `fetch`. Time to first byte is the
 * first chunk of the response body, total the end of it.
 *
 *   node --import tsx bench/api-load-client.ts '<LoadPlan as JSON>'
 *
 * Prints one line of JSON (LoadReport) when the duration is over and every request has ended.
 */
import http from 'node:http';

export type LoadKind = 'answer' | 'get' | 'create';

export interface LoadPlan {
  url: string;
  concurrency: number;
  durationMs: number;
  /** Relative weights of the kinds of request; a worker picks each next request by them. */
  mix: Partial<Record<LoadKind, number>>;
  adminKey?: string;
  assistantKey?: string;
  projectId?: string;
  jobId?: string;
  domain?: string;
}

export interface KindReport {
  count: number;
  failures: number;
  perSecond: number;
  ttfb: { p50: number; p95: number; p99: number };
  total: { p50: number; p95: number; p99: number };
  firstFailure?: string;
}

export type LoadReport = Partial<Record<LoadKind, KindReport>> & { seconds: number };

export const QUESTIONS = [
  'How do I add a custom domain?',
  'How do I set an environment variable?',
  'How do I deploy an app?',
  'What does error 429 mean?',
  'How do I authenticate with the API?',
];

interface Request {
  method: string;
  path: string;
  key: string;
  body?: string;
  status: number;
}

function requestOf(plan: LoadPlan, kind: LoadKind, sequence: number): Request {
  if (kind === 'answer') {
    const text = QUESTIONS[sequence % QUESTIONS.length]!;
    return {
      method: 'POST',
      path: `/discovery/v2/assistant/${plan.domain ?? 'bench'}/message`,
      key: plan.assistantKey!,
      body: JSON.stringify({
        fp: 'bench',
        messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text }] }],
      }),
      status: 200,
    };
  }
  if (kind === 'create') {
    return {
      method: 'POST',
      path: `/v2/agent/${plan.projectId ?? 'bench'}/job`,
      key: plan.adminKey!,
      body: JSON.stringify({ prompt: 'replace "Acme Cloud" with "Acme Platform"' }),
      status: 201,
    };
  }
  return {
    method: 'GET',
    path: `/v2/agent/${plan.projectId ?? 'bench'}/job/${plan.jobId}`,
    key: plan.adminKey!,
    status: 200,
  };
}

function send(
  agent: http.Agent,
  base: URL,
  request: Request,
): Promise<{ ttfb: number; total: number; failure?: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${request.key}` };
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(request.body);
    }
    const outgoing = http.request(
      { agent, host: base.hostname, port: base.port, method: request.method, path: request.path, headers },
      (response) => {
        let ttfb = 0;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => {
          if (!ttfb) ttfb = performance.now() - started;
          if (response.statusCode !== request.status) chunks.push(chunk);
        });
        response.on('end', () => {
          const total = performance.now() - started;
          const failure =
            response.statusCode === request.status
              ? undefined
              : `${response.statusCode} ${Buffer.concat(chunks).toString('utf8').slice(0, 200)}`;
          resolve({ ttfb: ttfb || total, total, failure });
        });
      },
    );
    outgoing.on('error', (error) => resolve({ ttfb: 0, total: 0, failure: error.message }));
    outgoing.end(request.body);
  });
}

const percentile = (sorted: Float64Array, fraction: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;

class Samples {
  ttfb: number[] = [];
  total: number[] = [];
  failures = 0;
  firstFailure?: string;

  report(seconds: number): KindReport {
    const summary = (values: number[]) => {
      const sorted = Float64Array.from(values).sort();
      const round = (value: number) => Math.round(value * 10) / 10;
      return {
        p50: round(percentile(sorted, 0.5)),
        p95: round(percentile(sorted, 0.95)),
        p99: round(percentile(sorted, 0.99)),
      };
    };
    return {
      count: this.total.length,
      failures: this.failures,
      perSecond: Math.round(this.total.length / seconds),
      ttfb: summary(this.ttfb),
      total: summary(this.total),
      ...(this.firstFailure ? { firstFailure: this.firstFailure } : {}),
    };
  }
}

export async function runLoad(plan: LoadPlan): Promise<LoadReport> {
  const base = new URL(plan.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: plan.concurrency });
  const kinds = Object.entries(plan.mix).filter(([, weight]) => weight && weight > 0) as [LoadKind, number][];
  const weightSum = kinds.reduce((sum, [, weight]) => sum + weight, 0);
  const samples = new Map(kinds.map(([kind]) => [kind, new Samples()]));
  let sequence = 0;
  const pick = (): LoadKind => {
    let point = Math.random() * weightSum;
    for (const [kind, weight] of kinds) if ((point -= weight) < 0) return kind;
    return kinds[0]![0];
  };
  const started = performance.now();
  const deadline = started + plan.durationMs;
  const worker = async () => {
    while (performance.now() < deadline) {
      const kind = pick();
      const result = await send(agent, base, requestOf(plan, kind, (sequence += 1)));
      const into = samples.get(kind)!;
      if (result.failure) {
        into.failures += 1;
        into.firstFailure ??= result.failure;
        continue;
      }
      into.ttfb.push(result.ttfb);
      into.total.push(result.total);
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const report: LoadReport = { seconds: Math.round(seconds * 10) / 10 };
  for (const [kind, into] of samples) report[kind] = into.report(seconds);
  return report;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const plan = JSON.parse(process.argv[2] ?? '{}') as LoadPlan;
  process.stdout.write(`${JSON.stringify(await runLoad(plan))}\n`);
}

/** Runs `plan` in a child process (so the load generator does not share this one's event loop). */
export async function loadFromProcess(plan: LoadPlan): Promise<LoadReport> {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'bench/api-load-client.ts', JSON.stringify(plan)],
    { maxBuffer: 2 ** 20 },
  );
  return JSON.parse(stdout) as LoadReport;
}
