/** The one back-off: a job's next run and the API client's next request wait by the same rule. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { retryDelayMs } from '../src/core/backoff.js';

describe('retryDelayMs', () => {
  it('doubles from the base for each attempt, up to the cap', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt))).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelayMs(20)).toBe(60_000);
    expect(retryDelayMs(3, { baseMs: 500, capMs: 1500 })).toBe(1500);
  });

  it('spreads a delay by a quarter either way with jitter', () => {
    for (let index = 0; index < 200; index += 1) {
      const delay = retryDelayMs(2, { baseMs: 500, jitter: true });
      expect(delay).toBeGreaterThanOrEqual(750);
      expect(delay).toBeLessThanOrEqual(1250);
    }
  });

  it('is the only back-off written in the sources', () => {
    const files = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.ts'),
    );
    const defining = files.filter((file) =>
      /function\s+retryDelayMs\b|\*\s*2\s*\*\*\s*\(/.test(readFileSync(path.join('src', file), 'utf8')),
    );
    expect(defining).toEqual([path.join('core', 'backoff.ts')]);
  });
});
