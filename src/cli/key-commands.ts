import type { Config } from '../config/config.js';
import { notFound } from '../core/errors.js';
import { hashKey } from '../core/keys.js';
import { openStore, VERIFIED_KEY_TTL_MS, type ApiKeyRow } from '../store/index.js';
import { UsageError } from './exit-codes.js';

/** `docwright key create`: the new key alone (it is stored hashed and never shown again), and its id. */
export async function createKey(
  config: Config,
  options: { project?: string; domain?: string },
): Promise<{ id: string; key: string }> {
  if (!options.project === !options.domain)
    throw new UsageError('key create takes exactly one of --project ID or --domain NAME');
  const store = await openStore(config);
  try {
    if (options.project) {
      if (!(await store.projects.get(options.project)))
        throw notFound(`Project ${options.project} not found`);
      const { key, row } = await store.keys.create({ kind: 'admin', projectId: options.project });
      return { id: row.id, key };
    }
    const domain = options.domain as string;
    const project = await store.projects.getByDomain(domain);
    if (!project)
      throw notFound(`No project answers for the domain ${domain} (set it with project add --domain)`);
    const { key, row } = await store.keys.create({ kind: 'assistant', projectId: project.id, domain });
    return { id: row.id, key };
  } finally {
    await store.close();
  }
}

/** A key as listed: what it is for and when it was used, never the key (only its hash is stored). */
export interface KeyListing {
  id: string;
  kind: ApiKeyRow['kind'];
  project: string | null;
  domain: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** `docwright key list`: unrevoked keys, oldest first; `--all` adds the revoked ones. */
export async function listKeys(
  config: Config,
  options: { project?: string; all?: boolean },
): Promise<KeyListing[]> {
  const store = await openStore(config);
  try {
    const rows = await store.keys.list({ projectId: options.project, revoked: options.all === true });
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      project: row.project_id,
      domain: row.domain,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      revokedAt: row.revoked_at,
    }));
  } finally {
    await store.close();
  }
}

/**
 * `docwright key revoke <id|key>`: by the id `key list` shows, or by the key itself when that is
 * what the person has at hand. Servers stop accepting it within the few seconds they trust a key.
 */
export async function revokeKey(
  config: Config,
  idOrKey: string,
): Promise<{ id: string; effectiveWithinSeconds: number }> {
  const store = await openStore(config);
  try {
    let id = idOrKey;
    if (idOrKey.startsWith('svc_')) {
      const hash = hashKey(idOrKey);
      const row = (await store.keys.list({ revoked: true })).find((key) => key.hash === hash);
      if (!row) throw notFound('No key matches the one given');
      id = row.id;
    }
    if (!(await store.keys.revoke(id))) {
      throw notFound(`No unrevoked key has the id ${id} (docwright key list shows them)`);
    }
    return { id, effectiveWithinSeconds: Math.ceil(VERIFIED_KEY_TTL_MS / 1000) };
  } finally {
    await store.close();
  }
}
