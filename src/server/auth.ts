import type { MiddlewareHandler } from 'hono';
import { forbidden, unauthorized } from '../core/errors.js';
import { hashesEqual, hashKey, keyKind, type KeyKind } from '../core/keys.js';
import type { ApiKeyRow, Store } from '../store/index.js';

export interface AuthVariables {
  apiKey: ApiKeyRow;
}

/** Reads `Authorization: Bearer <key>`; a clear 401 when it is missing or malformed. */
function bearerToken(header: string | undefined): string {
  if (!header) throw unauthorized('Missing Authorization header: send "Authorization: Bearer <key>"');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw unauthorized('Authorization header must be "Bearer <key>"');
  return match[1];
}

/**
 * The key an `Authorization: Bearer <key>` header carries, as stored, of either kind; 401 when the
 * header is missing or malformed or the key unknown (or revoked). The MCP server takes both kinds.
 */
export async function keyOfRequest(store: Store, header: string | undefined): Promise<ApiKeyRow> {
  const key = bearerToken(header);
  if (!keyKind(key)) throw unauthorized('Unknown API key');
  return storedKey(store, key);
}

/** The stored key, found by its hash and the hashes compared in constant time; 401 when unknown. */
async function storedKey(store: Store, key: string): Promise<ApiKeyRow> {
  const hash = hashKey(key);
  const row = await store.keys.findByHash(hash);
  if (!row || !hashesEqual(row.hash, hash)) throw unauthorized('Unknown API key');
  return row;
}

/**
 * The agent endpoints take an admin key (`svc_`) of the project in the path. Keys are
 * found by their SHA-256 hash and the hashes compared in constant time.
 */
export function requireKey(store: Store, kind: KeyKind): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    const key = bearerToken(c.req.header('authorization'));
    const claimed = keyKind(key);
    if (!claimed) throw unauthorized('Unknown API key');
    if (claimed !== kind) {
      throw forbidden(
        kind === 'admin'
          ? 'Assistant keys (svc_dsc_) cannot call the agent endpoints; use an admin key (svc_)'
          : 'Admin keys cannot call the assistant endpoints; use an assistant key (svc_dsc_)',
      );
    }
    const row = await storedKey(store, key);
    const projectId = c.req.param('projectId');
    if (kind === 'admin' && projectId !== undefined && row.project_id !== projectId) {
      throw forbidden(`This key does not belong to project ${projectId}`);
    }
    c.set('apiKey', row);
    await next();
  };
}
