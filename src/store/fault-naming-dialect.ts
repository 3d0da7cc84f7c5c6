import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  Kysely,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import type { StorageHealth } from './storage-faults.js';

/**
 * A Kysely dialect whose every query, connection and transaction reports to the storage's health:
 * an error that stands for a fault (the database gone, the disk full) reaches the caller named
 * (503 or 507, retryable) instead of as a driver's message, and a success ends an outage. One
 * place for every query of the store, on either dialect.
 */
export function faultNaming(dialect: Dialect, health: StorageHealth): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db: Kysely<unknown>) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => new FaultNamingDriver(dialect.createDriver(), health),
  };
}

class FaultNamingConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly health: StorageHealth,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return reported(this.health, operationOf(query), () => this.inner.executeQuery<R>(query));
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    try {
      for await (const chunk of this.inner.streamQuery<R>(query, chunkSize)) yield chunk;
      this.health.succeeded(operationOf(query));
    } catch (error) {
      throw this.health.failed(error);
    }
  }
}

class FaultNamingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly health: StorageHealth,
  ) {}

  init(): Promise<void> {
    return reported(this.health, 'read', () => this.inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new FaultNamingConnection(
      await reported(this.health, 'read', () => this.inner.acquireConnection()),
      this.health,
    );
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return reported(this.health, 'read', () => this.inner.beginTransaction(unwrap(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return reported(this.health, 'write', () => this.inner.commitTransaction(unwrap(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return reported(this.health, 'read', () => this.inner.rollbackTransaction(unwrap(connection)));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(unwrap(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

function unwrap(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof FaultNamingConnection ? connection.inner : connection;
}

/** A select reads; anything else (an insert, an update, raw SQL) may write. */
function operationOf(query: CompiledQuery): 'read' | 'write' {
  return query.query.kind === 'SelectQueryNode' ? 'read' : 'write';
}

async function reported<T>(
  health: StorageHealth,
  kind: 'read' | 'write',
  operation: () => Promise<T>,
): Promise<T> {
  try {
    const result = await operation();
    health.succeeded(kind);
    return result;
  } catch (error) {
    throw health.failed(error);
  }
}
