import type { Kysely, Selectable } from 'kysely';
import { newKeyId } from '../core/ids.js';
import { generateKey, hashKey, type KeyKind } from '../core/keys.js';
import type { ApiKeyTable, Database } from './schema.js';
import { VerifiedKeys } from './verified-keys.js';

export type ApiKeyRow = Selectable<ApiKeyTable>;

/** API keys, stored as SHA-256 hashes: the key itself is returned once, at creation. */
export class ApiKeyStore {
  private readonly lastNoted = new Map<string, number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly verified = new VerifiedKeys<ApiKeyRow>(),
  ) {}

  /** Creates a key for a project (admin) or a domain (assistant); returns the only copy of the key. */
  async create(
    scope: { kind: 'admin'; projectId: string } | { kind: 'assistant'; projectId: string; domain: string },
    now = new Date(),
  ): Promise<{ key: string; row: ApiKeyRow }> {
    const key = generateKey(scope.kind);
    const row: ApiKeyRow = {
      id: newKeyId(),
      hash: hashKey(key),
      kind: scope.kind,
      project_id: scope.projectId,
      domain: scope.kind === 'assistant' ? scope.domain : null,
      created_at: now.toISOString(),
      revoked_at: null,
      last_used_at: null,
    };
    await this.db.insertInto('api_keys').values(row).execute();
    return { key, row };
  }

  /**
   * The unrevoked key with this hash; one found is trusted for a few seconds (see VerifiedKeys), so
   * a key revoked on any replica stops working everywhere within that time. Its use is noted.
   */
  async findByHash(hash: string, now = new Date()): Promise<ApiKeyRow | undefined> {
    let row = this.verified.get(hash);
    if (!row) {
      row = await this.db
        .selectFrom('api_keys')
        .selectAll()
        .where('hash', '=', hash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (row) this.verified.remember(hash, row);
    }
    if (row) this.noteUse(row.id, now);
    return row;
  }

  /** Keys, oldest first; revoked ones only when asked for. */
  async list(options: { kind?: KeyKind; projectId?: string; revoked?: boolean } = {}): Promise<ApiKeyRow[]> {
    let query = this.db.selectFrom('api_keys').selectAll();
    if (!options.revoked) query = query.where('revoked_at', 'is', null);
    if (options.kind) query = query.where('kind', '=', options.kind);
    if (options.projectId) query = query.where('project_id', '=', options.projectId);
    return query.orderBy('created_at').orderBy('id').execute();
  }

  /** Revokes a key by its id; false when no unrevoked key has it. */
  async revoke(id: string, now = new Date()): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: now.toISOString() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Writes when a key was last used, once a minute at most per key and process: every request is
   * authenticated, and a write per request would cost more than the answer. A failed write (the
   * disk full) is not the request's failure.
   */
  private noteUse(id: string, now: Date): void {
    const last = this.lastNoted.get(id);
    if (last !== undefined && now.getTime() - last < USE_NOTED_EVERY_MS) return;
    this.lastNoted.set(id, now.getTime());
    if (this.lastNoted.size > MAX_NOTED_KEYS) this.lastNoted.delete(this.lastNoted.keys().next().value!);
    this.db
      .updateTable('api_keys')
      .set({ last_used_at: now.toISOString() })
      .where('id', '=', id)
      .execute()
      .catch(() => this.lastNoted.delete(id));
  }
}

/** How far apart a key's uses are written. */
const USE_NOTED_EVERY_MS = 60_000;
/** Keys whose last write is remembered; the oldest are forgotten past this many. */
const MAX_NOTED_KEYS = 10_000;
