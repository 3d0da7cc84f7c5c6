import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  RateLimiterSQLite,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { DocwrightError } from '../errors.js';
import { RATE_LIMIT_TABLE, type OpenDatabase } from '../store/database.js';

export interface RateLimitRule {
  points: number;
  durationSeconds: number;
}

/** The headers of draft-ietf-httpapi-ratelimit-headers, sent on every limited response. */
export type RateLimitHeaders = Record<'RateLimit-Limit' | 'RateLimit-Remaining' | 'RateLimit-Reset', string>;

/**
 * Named limits kept in the store's database, so every process on it counts together (every replica
 * on PostgreSQL), with an in-memory limiter as insurance when the database cannot answer
 * (rate-limiter-flexible's design).
 */
export class RateLimits {
  private readonly limiters = new Map<string, { limiter: RateLimiterAbstract; rule: RateLimitRule }>();

  constructor(
    private readonly database: OpenDatabase,
    rules: Record<string, RateLimitRule>,
  ) {
    for (const [name, rule] of Object.entries(rules))
      this.limiters.set(name, { limiter: this.create(name, rule), rule });
  }

  /** Counts one use of `name` for `key`; throws a 429 DocwrightError (with Retry-After) when over. */
  /** Gives back one use of `name` for `key` (a request refused after it was counted). */
  async refund(name: string, key: string): Promise<void> {
    await this.limiters.get(name)?.limiter.reward(key, 1);
  }

  async consume(name: string, key: string): Promise<RateLimitHeaders> {
    const entry = this.limiters.get(name);
    if (!entry) throw new Error(`Unknown rate limit ${name}`);
    try {
      const result = await entry.limiter.consume(key);
      return headersOf(entry.rule, result);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new DocwrightError(
        'rate_limited',
        `Rate limit exceeded: at most ${entry.rule.points} ${describe(name)} per ${period(entry.rule.durationSeconds)}; retry in ${retryAfter} s`,
        { headers: { ...headersOf(entry.rule, rejection), 'Retry-After': String(retryAfter) } },
      );
    }
  }

  private create(name: string, rule: RateLimitRule): RateLimiterAbstract {
    const common = { keyPrefix: name, points: rule.points, duration: rule.durationSeconds };
    const insuranceLimiter = new RateLimiterMemory(common);
    const shared = { ...common, tableName: RATE_LIMIT_TABLE, clearExpiredByTimeout: true, insuranceLimiter };
    if (this.database.dialect === 'postgres') {
      // openPostgresDatabase made the table under a lock: no limiter races to create it.
      return new RateLimiterPostgres({
        ...shared,
        storeClient: this.database.pool,
        storeType: 'pool',
        tableCreated: true,
      });
    }
    return new RateLimiterSQLite({
      ...shared,
      storeClient: this.database.sqlite,
      storeType: 'better-sqlite3',
    });
  }
}

function headersOf(rule: RateLimitRule, result: RateLimiterRes): RateLimitHeaders {
  return {
    'RateLimit-Limit': String(rule.points),
    'RateLimit-Remaining': String(Math.max(0, result.remainingPoints)),
    'RateLimit-Reset': String(Math.ceil(result.msBeforeNext / 1000)),
  };
}

function describe(name: string): string {
  return name
    .replaceAll('-', ' ')
    .replace(/^job create$/, 'job creations')
    .replace(/^job message$/, 'job messages');
}

function period(seconds: number): string {
  if (seconds === 3600) return 'hour per project';
  if (seconds === 86_400) return 'day';
  return `${seconds} s`;
}
