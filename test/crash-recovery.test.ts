import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';

/** Starts the crashing worker and resolves when it prints `line`. */
function startChild(dataDir: string, stopAt: string, line: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/fixtures/crashing-worker.ts', dataDir, stopAt],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const reached = new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (text) => text === line && resolve());
    child.once('exit', (code, signal) =>
      reject(new Error(`worker exited (${code ?? signal}) before ${line}`)),
    );
  });
  return { child, reached };
}

describe('a worker killed with SIGKILL in the middle of a run', () => {
  let t: TestService | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it.each([
    ['after the agent edited, before the commit', 'after-agent', 'EDITED'],
    ['after the commit, before the job was completed', 'after-commit', 'COMMITTED'],
  ])(
    'loses nothing when killed %s: the job completes and its branch gets the edit once',
    async (_when, stopAt, line) => {
      // The test's own worker stays off until the child has been killed.
      t = await startTestService({ startWorker: false, config: { leaseMs: 1000 } });
      const { body: job } = await t.request('POST', '/v2/agent/docs/job', {
        body: { prompt: 'append a section "Support" to quickstart with "Write to support@example.com."' },
      });
      const { child, reached } = startChild(t.dataDir, stopAt, line);
      await reached;
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));

      const stranded = await t.request('GET', `/v2/agent/docs/job/${job.id}`);
      expect(stranded.body.status).toBe('active');

      t.service.worker.start(); // the restarted process: takes the job over once the dead lease expires
      const done = await t.waitForJob(job.id);
      expect(done.status).toBe('completed');
      expect(done.messages?.at(-1)?.content).toMatch(/Support/);
      const branch = `docwright/job-${job.id}`;
      expect(t.git('rev-list', '--count', `main..${branch}`)).toBe('1');
      const page = t.git('show', `${branch}:quickstart.mdx`);
      expect(page.match(/## Support/g)).toHaveLength(1);
    },
  );
});
