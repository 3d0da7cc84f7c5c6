/**
 * One of the two servers the API benchmark compares, in its own process:
 *   docwright <port> <dataDir>  the real API (SQLite, or PostgreSQL at BENCH_DATABASE_URL; rate limits, auth),
 *                               worker off, one project `bench`
 *   bare <port>                 node:http answering every request with the same job JSON
 * Prints `READY <adminKey> <jobId> <assistantKey>` when listening (the assistant answers for domain `bench`,
 * from the sample docs or the folder at BENCH_DOCS_DIR). Rate limits are set out of the load's reach:
 * they are still counted on every request, as in production.
 */
import { serve } from '@hono/node-server';
import http from 'node:http';
import { loadConfig } from '../src/config/config.js';
import { SAMPLE_DOCS_DIR, seedRepository } from '../src/cli/demo.js';
import { silentLogger } from '../src/core/logger.js';
import { createService } from '../src/service/service.js';

const [mode, portText, dataDir] = process.argv.slice(2);
const port = Number(portText);

if (mode === 'bare') {
  const job = {
    id: 'k3n5p7q9r2s4t6u8v2wx',
    status: 'active',
    source: { repository: 'file:///tmp/repo', ref: 'docwright/job-k3n5p7q9r2s4t6u8v2wx' },
    model: 'builtin',
    prLink: null,
    createdAt: new Date().toISOString(),
    archivedAt: null,
  };
  http
    .createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(request.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(job));
      });
    })
    .listen(port, () => process.stdout.write(`READY none ${job.id}\n`));
} else {
  const config = {
    ...loadConfig({ DATABASE_URL: process.env.BENCH_DATABASE_URL }, { dataDir, port }),
    jobRateLimit: 100_000_000,
    assistantLimits: { keyPerMonth: 100_000_000, projectPerHour: 100_000_000, ipPerDay: 100_000_000 },
    logLevel: 'silent' as const,
  };
  const service = await createService(config, { logger: silentLogger });
  const repo = `${dataDir}/repo`;
  await seedRepository(repo, process.env.BENCH_DOCS_DIR || SAMPLE_DOCS_DIR, process.env);
  await service.store.projects.create({ id: 'bench', repository: repo, baseRef: 'main', domain: 'bench' });
  const key = (await service.store.keys.create({ kind: 'admin', projectId: 'bench' })).key;
  const assistantKey = (
    await service.store.keys.create({ kind: 'assistant', projectId: 'bench', domain: 'bench' })
  ).key;
  const job = await service.jobs.create('bench', 'replace "Acme Cloud" with "Acme Platform"');
  serve({ fetch: service.app.fetch, port }, () =>
    process.stdout.write(`READY ${key} ${job.id} ${assistantKey}\n`),
  );
}
// An orderly exit on SIGTERM, so `node --cpu-prof` writes its profile.
process.on('SIGTERM', () => process.exit(0));
