import { hash } from 'node:crypto';
import { newSecret } from './ids.js';

/** Admin keys start `svc_`, assistant keys `svc_dsc_`. */
const ADMIN_PREFIX = 'svc_';
const ASSISTANT_PREFIX = 'svc_dsc_';

export type KeyKind = 'admin' | 'assistant';

export function generateKey(kind: KeyKind): string {
  return (kind === 'assistant' ? ASSISTANT_PREFIX : ADMIN_PREFIX) + newSecret();
}

/** The kind a key claims by its prefix, or null when it is not a docwright key at all. */
export function keyKind(key: string): KeyKind | null {
  if (!/^svc_[A-Za-z0-9_]{32,200}$/.test(key)) return null;
  return key.startsWith(ASSISTANT_PREFIX) ? 'assistant' : 'admin';
}

export function hashKey(key: string): string {
  // Every request hashes its key; the one-shot digest skips building a Hash object for it.
  return hash('sha256', key, 'hex');
}

/**
 * Constant-time comparison of two hashes: every character is compared, whatever differs first.
 * Every authenticated request makes one, and decoding both to Buffers for `timingSafeEqual` was
 * most of the key check's own time.
 */
export function hashesEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}
