import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RateLimits } from '../src/server/rate-limits.js';
import { openStore, type Store } from '../src/store/index.js';
import { DIALECTS, testDatabases, type TestLocation } from './helpers/postgres.js';
import { startTestService, type TestService } from './helpers/service.js';

const RULES = {
  'assistant-key': { points: 1000, durationSeconds: 30 * 86_400 },
  'assistant-org': { points: 1000, durationSeconds: 3600 },
  'assistant-ip': { points: 5, durationSeconds: 86_400 },
};
const uses = (ip: string) => [
  { name: 'assistant-key', key: 'key-1' },
  { name: 'assistant-org', key: 'docs' },
  { name: 'assistant-ip', key: ip },
];

const databases = testDatabases();
afterAll(() => databases.close());

describe.each(DIALECTS)('assistant limits on %s', (dialect) => {
  let location: TestLocation;
  let store: Store;
  beforeEach(async () => {
    location = await databases.create(dialect);
    store = await openStore(location);
  });
  afterEach(() => store.close());

  it('a request refused by any limit consumes nothing from the others', async () => {
    const limits = new RateLimits(store.database, RULES);
    const outcomes = [];
    for (let request = 0; request < 25; request += 1) {
      outcomes.push(
        await limits.consumeAll(uses('203.0.113.7')).then(
          () => 'served',
          () => 'refused',
        ),
      );
    }
    expect(outcomes.filter((outcome) => outcome === 'served')).toHaveLength(5);
    expect(await limits.used('assistant-key', 'key-1')).toBe(5);
    expect(await limits.used('assistant-org', 'docs')).toBe(5);
    expect(await limits.used('assistant-ip', '203.0.113.7')).toBe(5);
    // Another address still gets the site's quota, counted from 5.
    await limits.consumeAll(uses('198.51.100.1'));
    expect(await limits.used('assistant-org', 'docs')).toBe(6);
  });

  it('counts exactly the allowed uses when requests race past the check (two processes)', async () => {
    const other = await openStore(location);
    try {
      const limits = [new RateLimits(store.database, RULES), new RateLimits(other.database, RULES)];
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          limits[index % 2]!.consumeAll(uses('203.0.113.9')).then(
            () => 'served',
            () => 'refused',
          ),
        ),
      );
      const served = outcomes.filter((outcome) => outcome === 'served').length;
      expect(served).toBeLessThanOrEqual(5);
      expect(await limits[0]!.used('assistant-key', 'key-1')).toBe(served);
      expect(await limits[0]!.used('assistant-ip', '203.0.113.9')).toBe(served);
    } finally {
      await other.close();
    }
  });
});

describe('the assistant endpoint with a per-address limit of 5', () => {
  let t: TestService;
  beforeEach(async () => {
    t = await startTestService({
      startWorker: false,
      config: { trustProxy: true, assistantLimits: { keyPerMonth: 1000, projectPerHour: 1000, ipPerDay: 5 } },
    });
  });
  afterEach(() => t.cleanup());

  it('serves 5 of 25 requests from one address, and the key and the site counted 5', async () => {
    const statuses: number[] = [];
    for (let request = 0; request < 25; request += 1) {
      const response = await t.service.app.request('/discovery/v2/assistant/docs/message', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${t.assistantKey}`,
          'content-type': 'application/json',
          'x-forwarded-for': '203.0.113.50',
        },
        body: JSON.stringify({
          fp: 'anonymous',
          messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'How do I start?' }] }],
        }),
      });
      await response.text();
      statuses.push(response.status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    const [key] = await t.service.store.keys.list({ kind: 'assistant' });
    const counters = new RateLimits(t.service.store.database, RULES);
    expect(await counters.used('assistant-key', key!.id)).toBe(5);
    expect(await counters.used('assistant-org', 'docs')).toBe(5);
  });
});
