import { DocwrightError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';

/** What can be wrong with the storage itself, as opposed to a request: it cannot be reached, or it is full. */
export type StorageFault = 'unreachable' | 'full';

/** Seconds a client is asked to wait: a database restart or failover takes seconds. */
const UNREACHABLE_RETRY_AFTER = '5';
/** A full disk waits for a person to free space: ask for a minute. */
const FULL_RETRY_AFTER = '60';

/** PostgreSQL's SQLSTATEs for a server that is going away, starting or out of connections. */
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300', '58030']);
/** The network's ways of saying the database is not there (any socket, either dialect's driver). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres reports a lost or unusable connection in words only. */
const PG_CONNECTION_LOST =
  /connection terminated|timeout exceeded when trying to connect|connection error and is not queryable|not queryable|terminating connection|connection ended unexpectedly/i;

/**
 * The storage fault an error stands for, or null for any other error: a database that cannot be
 * reached (refused, reset, shut down, restarting, a lost connection; SQLite busy past its timeout)
 * or storage that is full (SQLite's SQLITE_FULL, PostgreSQL's disk_full, the filesystem's ENOSPC).
 * Causes are followed, since drivers and Kysely wrap what the socket said.
 */
function storageFault(error: unknown): StorageFault | null {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === '53100') return 'full';
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code) || PG_UNAVAILABLE.has(code) || code.startsWith('08')) return 'unreachable';
      if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_IOERR') || code === 'SQLITE_CANTOPEN')
        return 'unreachable';
    }
    if (typeof message === 'string' && PG_CONNECTION_LOST.test(message)) return 'unreachable';
    if (typeof message === 'string' && /no space left on device/i.test(message)) return 'full';
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * The error a caller sees for a storage fault: `unavailable` (503) or `storage_full` (507), both
 * retryable and with Retry-After, in a sentence that names the condition without its details.
 */
function storageError(fault: StorageFault, cause: unknown): DocwrightError {
  return fault === 'full'
    ? new DocwrightError('storage_full', 'docwright cannot store anything now: its storage is full', {
        retryable: true,
        headers: { 'Retry-After': FULL_RETRY_AFTER },
        cause,
      })
    : new DocwrightError(
        'unavailable',
        'docwright cannot reach its database now; try again in a few seconds',
        {
          retryable: true,
          headers: { 'Retry-After': UNREACHABLE_RETRY_AFTER },
          cause,
        },
      );
}

/** `error` as the storage error it stands for, or unchanged when it stands for none. */
export function namedStorageError(error: unknown): unknown {
  if (DocwrightError.isInstance(error)) return error;
  const fault = storageFault(error);
  return fault === null ? error : storageError(fault, error);
}

/**
 * Whether the storage works, told by every query: a fault is logged once when it starts (not once
 * per request, which during an outage would flood the log) and once when it ends, and each failed
 * operation is counted through `onFault` (the metrics).
 */
export class StorageHealth {
  private current: StorageFault | null = null;
  private since = 0;

  constructor(
    private readonly logger: Logger | undefined,
    private readonly onFault?: (fault: StorageFault) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** The fault in progress, if any. */
  get fault(): StorageFault | null {
    return this.current;
  }

  /** An operation failed: named when it stands for a storage fault, returned as the caller should see it. */
  failed(error: unknown): unknown {
    if (DocwrightError.isInstance(error)) return error;
    const fault = storageFault(error);
    if (fault === null) return error;
    this.onFault?.(fault);
    if (this.current !== fault) {
      this.current = fault;
      this.since = this.now();
      this.logger?.error(
        { fault, reason: error instanceof Error ? error.message : String(error) },
        fault === 'full'
          ? 'storage is full: writes are refused (507) until space is freed'
          : 'the database cannot be reached: requests are refused (503) until it answers again',
      );
    }
    return storageError(fault, error);
  }

  /**
   * An operation worked: an outage in progress is over. A read says nothing of a full disk (reads
   * go on while writes cannot), so only a write ends that.
   */
  succeeded(operation: 'read' | 'write'): void {
    if (this.current === null || (this.current === 'full' && operation === 'read')) return;
    this.logger?.warn(
      { fault: this.current, seconds: Math.round((this.now() - this.since) / 1000) },
      'storage works again',
    );
    this.current = null;
  }
}
