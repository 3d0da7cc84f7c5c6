import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  RateLimiterSQLite,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { DocwrightError } from '../core/errors.js';
import { RATE_LIMIT_TABLE, type OpenDatabase } from '../store/database.js';
import type { SqliteWriteBatch } from '../store/write-batch.js';

/** rate-limiter-flexible's own upsert for SQLite (RateLimiterSQLite), so both write the same counts. */
const SQLITE_UPSERT = `INSERT INTO ${RATE_LIMIT_TABLE} (key, points, expire)
  VALUES (?, ?, ?)
  ON CONFLICT(key) DO UPDATE SET
    points = CASE WHEN expire IS NULL OR expire > ? THEN points + excluded.points ELSE excluded.points END,
    expire = CASE WHEN expire IS NULL OR expire > ? THEN expire ELSE excluded.expire END
  RETURNING points, expire`;

/** One use given back, in the window still running; never below nothing. */
const REFUND = `UPDATE ${RATE_LIMIT_TABLE} SET points = points - 1
  WHERE key = ? AND points > 0 AND (expire IS NULL OR expire > ?)`;
const POSTGRES_REFUND = REFUND.replace('key = ?', 'key = $1').replace('expire > ?', 'expire > $2');

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
  async consume(name: string, key: string): Promise<RateLimitHeaders> {
    const [headers] = await this.consumeAll([{ name, key }]);
    return headers as RateLimitHeaders;
  }

  /**
   * Counts one use of every limit, or of none: all are checked first and a request any of them
   * refuses takes nothing from the others (a client blocked by its address must not drain its
   * site's quota). Two requests racing past the check are settled by the counting itself: the one
   * that finds a limit spent gives back every use it took, the refused one included, since
   * rate-limiter-flexible counts a refused use too.
   */
  async consumeAll(uses: readonly { name: string; key: string }[]): Promise<RateLimitHeaders[]> {
    const entries = uses.map((use) => ({ ...use, ...this.entry(use.name) }));
    if (this.database.dialect === 'sqlite') {
      const counted = await this.countInOneTransaction(this.database.writes, entries);
      if (counted) return counted;
    }
    for (const use of entries) {
      const current = await use.limiter.get(use.key);
      if (current && current.consumedPoints >= use.rule.points) throw refusal(use.name, use.rule, current);
    }
    const taken: typeof entries = [];
    const results: RateLimitHeaders[] = [];
    for (const use of entries) {
      taken.push(use);
      try {
        results.push(headersOf(use.rule, await use.limiter.consume(use.key)));
      } catch (rejection) {
        await Promise.all(taken.map((each) => each.limiter.reward(each.key, 1)));
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        throw refusal(use.name, use.rule, rejection);
      }
    }
    return results;
  }

  /**
   * SQLite: every count in one transaction (no checks before), shared with other requests' writes
   * of the same moment (the group commit), in the rows and the upsert rate-limiter-flexible itself
   * writes, so its reads and other processes' counts see the same numbers. A limit found spent
   * undoes the request's counts: nothing is counted. Undefined when the database cannot answer
   * (busy past its timeout, a disk error): the caller then counts through the limiter, whose
   * in-memory insurance takes over.
   */
  private async countInOneTransaction(
    writes: SqliteWriteBatch,
    entries: readonly { name: string; key: string; limiter: RateLimiterAbstract; rule: RateLimitRule }[],
  ): Promise<RateLimitHeaders[] | undefined> {
    const count = writes.run((prepare) => {
      const upsert = prepare(SQLITE_UPSERT);
      const now = Date.now();
      return entries.map((use) => {
        const row = upsert.get(
          use.limiter.getKey(use.key),
          1,
          now + use.rule.durationSeconds * 1000,
          now,
          now,
        ) as { points: number; expire: number };
        const result = new RateLimiterRes(
          Math.max(use.rule.points - row.points, 0),
          Math.max(row.expire - now, 0),
          row.points,
          row.points === 1,
        );
        if (row.points > use.rule.points) throw refusal(use.name, use.rule, result);
        return headersOf(use.rule, result);
      });
    });
    try {
      return await count;
    } catch (error) {
      // A spent limit is the answer; anything else (a full disk, a busy database) is the storage's.
      if (DocwrightError.isInstance(error) && error.code === 'rate_limited') throw error;
      return undefined;
    }
  }

  /**
   * Gives back one use of `name` for `key` (a request refused after it was counted), in the row it
   * was counted in (on SQLite through the same write batch), never below nothing: the limiter's own
   * reward adds negative points, so a refund that raced past its count would raise the quota.
   */
  async refund(name: string, key: string): Promise<void> {
    const { limiter } = this.entry(name);
    try {
      if (this.database.dialect === 'sqlite')
        await this.database.writes.run((prepare) => prepare(REFUND).run(limiter.getKey(key), Date.now()));
      else await this.database.pool.query(POSTGRES_REFUND, [limiter.getKey(key), Date.now()]);
      return;
    } catch {
      // The database cannot answer: the count went through the limiter's insurance, and so does this.
    }
    await limiter.reward(key, 1);
  }

  /** Uses of `name` counted for `key` in the current window. */
  async used(name: string, key: string): Promise<number> {
    return (await this.entry(name).limiter.get(key))?.consumedPoints ?? 0;
  }

  private entry(name: string): { limiter: RateLimiterAbstract; rule: RateLimitRule } {
    const entry = this.limiters.get(name);
    if (!entry)
      throw new DocwrightError('internal_error', `Unknown rate limit ${name}`, { retryable: false });
    return entry;
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
    // openSqliteDatabase made the table too.
    return new RateLimiterSQLite({
      ...shared,
      tableCreated: true,
      storeClient: this.database.statements,
      storeType: 'better-sqlite3',
    });
  }
}

function refusal(name: string, rule: RateLimitRule, result: RateLimiterRes): DocwrightError {
  const retryAfter = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
  return new DocwrightError(
    'rate_limited',
    `Rate limit exceeded: at most ${rule.points} ${describe(name)} per ${period(rule.durationSeconds)}; retry in ${retryAfter} s`,
    { headers: { ...headersOf(rule, result), 'Retry-After': String(retryAfter) } },
  );
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
