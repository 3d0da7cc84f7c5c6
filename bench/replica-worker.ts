/**
 * One replica's job worker for the replica benchmark (bench/replicas.ts), in its own process: the
 * real store and Worker, with a forge that holds one page in memory and an agent that sleeps a
 * fixed time in place of a model, so the figure is the job queue's throughput, not git's or a
 * model's. The agent changes nothing, so a run ends without a commit.
 *   argv: <postgres://… | SQLite data dir> <concurrency> <agentDelayMs>
 * Prints READY once its worker runs; SIGTERM stops it (graceful shutdown) and exits.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Agent } from '../src/agent/types.js';
import { Worker } from '../src/engine/worker.js';
import { MemorySnapshot } from '../src/forge/memory-snapshot.js';
import type { Forge } from '../src/forge/types.js';
import { silentLogger } from '../src/core/logger.js';
import { openStore } from '../src/store/index.js';

const [location = '', concurrency = '4', delayMs = '100'] = process.argv.slice(2);

const BASE = '0'.repeat(40);
const forge: Forge = {
  resolveRef: (_repository, ref) => Promise.resolve(ref === 'main' ? BASE : null),
  readCommit: () => Promise.reject(new Error('the benchmark forge has no commits')),
  snapshot: () =>
    Promise.resolve(new MemorySnapshot(BASE, [['index.mdx', '---\ntitle: Home\n---\n\nHello.\n']])),
  commit: () => Promise.reject(new Error('the benchmark agent changes nothing')),
  ensurePullRequest: () => Promise.resolve(null),
  repositoryUrl: (repository) => `memory://${repository}`,
};

const agent: Agent = {
  model: 'builtin',
  async run(input) {
    await sleep(Number(delayMs), undefined, { signal: input.signal });
    return { reply: 'Nothing to change.' };
  },
};

const store = await openStore(
  location.startsWith('postgres') ? { dataDir: '', databaseUrl: location } : { dataDir: location },
);
const worker = new Worker({
  store,
  forge,
  agentFor: () => agent,
  logger: silentLogger,
  concurrency: Number(concurrency),
  leaseMs: 30_000,
  // Jobs come from another process, which cannot wake this one: look often.
  pollMs: 20,
});
worker.start();
process.stdout.write('READY\n');
process.once('SIGTERM', () => {
  void worker
    .stop()
    .then(() => store.close())
    .then(() => process.exit(0));
});
