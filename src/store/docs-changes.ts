import { sql } from 'kysely';
import pg from 'pg';
import { retryDelayMs } from '../core/backoff.js';
import { DocwrightError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { OpenDatabase, OpenPostgresDatabase } from './database.js';

/** The PostgreSQL channel replicas announce docs changes on; the payload is the project id. */
const DOCS_CHANGED_CHANNEL = 'docwright_docs_changed';

type DocsChangeListener = (projectId: string) => void;

/**
 * "A project's docs may have changed" (a run finished, a push landed), told to every replica so each
 * rebuilds its own search index (the FTS5 index stays local to a replica). On SQLite there
 * is one process and the news stays in it; on PostgreSQL it goes out with NOTIFY and comes in
 * through LISTEN. A notice lost to a dropped connection is covered twice: after a reconnect every
 * project counts as changed, and indexes look at the base branch again on their own schedule anyway.
 */
export interface DocsChanges {
  /** Tells this process at once and, on PostgreSQL, every replica. Never throws: it logs. */
  publish(projectId: string): Promise<void>;
  /** Calls `listener` for every change announced by any replica; returns the unsubscribe. */
  subscribe(listener: DocsChangeListener): () => void;
  close(): Promise<void>;
}

/** The docs-change channel of the store's dialect; on PostgreSQL it is listening when this resolves. */
export async function openDocsChanges(database: OpenDatabase, logger: Logger): Promise<DocsChanges> {
  if (database.dialect === 'sqlite') return new LocalDocsChanges();
  const changes = new PostgresDocsChanges(database, logger);
  await changes.connect();
  return changes;
}

class LocalDocsChanges implements DocsChanges {
  private readonly listeners = new Set<DocsChangeListener>();

  publish(projectId: string): Promise<void> {
    this.emit(projectId);
    return Promise.resolve();
  }

  subscribe(listener: DocsChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): Promise<void> {
    this.listeners.clear();
    return Promise.resolve();
  }

  protected emit(projectId: string): void {
    for (const listener of this.listeners) listener(projectId);
  }
}

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 30_000;

class PostgresDocsChanges extends LocalDocsChanges {
  private client: pg.Client | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private closed = false;

  constructor(
    private readonly database: OpenPostgresDatabase,
    private readonly logger: Logger,
  ) {
    super();
  }

  override async publish(projectId: string): Promise<void> {
    this.emit(projectId); // here at once, not after a round trip through the server
    try {
      await sql`select pg_notify(${DOCS_CHANGED_CHANNEL}, ${projectId})`.execute(this.database.db);
    } catch (error) {
      this.logger.warn(
        { err: error, project: projectId },
        'announcing a docs change to other replicas failed',
      );
    }
  }

  override async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
    await super.close();
  }

  /** Opens the LISTEN connection (outside the pool: it must stay open); on failure, retries later. */
  async connect(): Promise<void> {
    // keepAlive: a connection cut without a FIN (a failover) is noticed and replaced.
    const client = new pg.Client({ connectionString: this.database.connectionString, keepAlive: true });
    client.on('notification', (message) => {
      if (message.channel === DOCS_CHANGED_CHANNEL && message.payload) this.emit(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new DocwrightError('unavailable', 'connection ended')));
    try {
      await client.connect();
      await client.query(`listen ${DOCS_CHANGED_CHANNEL}`);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.closed) {
      await client.end();
      return;
    }
    const reconnected = this.failures > 0;
    this.client = client;
    this.failures = 0;
    if (reconnected) await this.everyProjectChanged();
  }

  private lost(client: pg.Client, error: unknown): void {
    if (this.closed || (this.client !== null && this.client !== client)) return;
    if (this.client === null && this.reconnectTimer) return; // this failure is already being retried
    this.client = null;
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    this.failures += 1;
    const delay = retryDelayMs(this.failures, { baseMs: RECONNECT_MIN_MS, capMs: RECONNECT_MAX_MS });
    this.logger.warn({ err: error, retryInMs: delay }, 'listening for docs changes stopped; reconnecting');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }

  /** Notices sent while this replica was not listening are lost: treat every project as changed. */
  private async everyProjectChanged(): Promise<void> {
    try {
      const projects = await this.database.db.selectFrom('projects').select('id').execute();
      for (const { id } of projects) this.emit(id);
    } catch (error) {
      this.logger.warn({ err: error }, 'listing projects after a reconnect failed');
    }
  }
}
