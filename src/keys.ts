import { hash, timingSafeEqual } from 'node:crypto';
import { newSecret } from './ids.js';

/** Admin keys start `svc_`, assistant keys `svc_dsc_`. */
export const ADMIN_PREFIX = 'svc_';
export const ASSISTANT_PREFIX = 'svc_dsc_';

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

/** Constant-time comparison of two hex hashes of equal length. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
