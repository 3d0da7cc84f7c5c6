/**
 * The hourly job quota under a burst, as a client that floods the API meets it: refused requests
 * (a job that does not exist, an archived job, a disabled project) never spend it, however many
 * arrive at once, on either store.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { RateLimits } from '../src/server/rate-limits.js';
import { openStore } from '../src/store/index.js';
import { DIALECTS, testDatabases } from './helpers/postgres.js';
import { startTestService } from './helpers/service.js';

const databases = testDatabases();
afterAll(() => databases.close());

describe.each(DIALECTS)('the job quota under a burst (%s)', (dialect) => {
  it('spends nothing on 150 refused follow-ups sent at once, and all of it on valid ones', async () => {
    const location = await databases.create(dialect);
    const t = await startTestService({
      config: { jobRateLimit: 100, databaseUrl: location.databaseUrl },
      startWorker: false,
    });
    try {
      const open = await t.request('POST', '/v2/agent/docs/job', { body: { prompt: 'x' } });
      const archived = await t.request('POST', '/v2/agent/docs/job', { body: { prompt: 'y' } });
      await t.request('POST', `/v2/agent/docs/job/${archived.body.id}/archive`);
      const refused = await Promise.all(
        Array.from({ length: 150 }, (_, index) =>
          t.request(
            'POST',
            index % 5 === 0
              ? `/v2/agent/docs/job/${archived.body.id}/message`
              : `/v2/agent/docs/job/nope-${index}/message`,
            { body: { prompt: 'x' } },
          ),
        ),
      );
      const statuses = refused.map((response) => response.status);
      expect(statuses.filter((status) => status === 429)).toEqual([]);
      expect(new Set(statuses)).toEqual(new Set([404, 409]));
      // The follow-ups' quota is whole: a burst of 102 valid follow-ups takes exactly its 100 uses.
      const valid = await Promise.all(
        Array.from({ length: 102 }, () =>
          t.request('POST', `/v2/agent/docs/job/${open.body.id}/message`, { body: { prompt: 'again' } }),
        ),
      );
      const counts = new Map<number, number>();
      for (const response of valid) counts.set(response.status, (counts.get(response.status) ?? 0) + 1);
      expect(Object.fromEntries(counts)).toEqual({ 200: 100, 429: 2 });
    } finally {
      await t.cleanup();
    }
  }, 120_000);

  it('gives a counted use back on the path it was counted by, under a burst too', async () => {
    const store = await openStore(await databases.create(dialect));
    try {
      const limits = new RateLimits(store.database, {
        'job-message': { points: 100, durationSeconds: 3600 },
      });
      await Promise.all(Array.from({ length: 60 }, () => limits.consume('job-message', 'docs')));
      await Promise.all(Array.from({ length: 60 }, () => limits.refund('job-message', 'docs')));
      expect(await limits.used('job-message', 'docs')).toBe(0);
      // Never below nothing: a stray refund does not raise the quota.
      await limits.refund('job-message', 'docs');
      const counted = await Promise.allSettled(
        Array.from({ length: 101 }, () => limits.consume('job-message', 'docs')),
      );
      expect(counted.filter((result) => result.status === 'fulfilled')).toHaveLength(100);
    } finally {
      await store.close();
    }
  });
});
