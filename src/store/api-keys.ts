import type { Kysely, Selectable } from 'kysely';
import { newKeyId } from '../core/ids.js';
import { generateKey, hashKey, type KeyKind } from '../core/keys.js';
import type { ApiKeyTable, Database } from './schema.js';
import { VerifiedKeys } from './verified-keys.js';

export type ApiKeyRow = Selectable<ApiKeyTable>;

/** API keys, stored as SHA-256 hashes: the key itself is returned once, at creation. */
export class ApiKeyStore {
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
    };
    await this.db.insertInto('api_keys').values(row).execute();
    return { key, row };
  }

  /** The unrevoked key with this hash; one found is trusted for a few seconds (see VerifiedKeys). */
  async findByHash(hash: string): Promise<ApiKeyRow | undefined> {
    const known = this.verified.get(hash);
    if (known) return known;
    const row = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('hash', '=', hash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (row) this.verified.remember(hash, row);
    return row;
  }

  async list(kind?: KeyKind): Promise<ApiKeyRow[]> {
    let query = this.db.selectFrom('api_keys').selectAll().where('revoked_at', 'is', null);
    if (kind) query = query.where('kind', '=', kind);
    return query.orderBy('created_at').execute();
  }
}
