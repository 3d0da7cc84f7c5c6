import { randomFillSync } from 'node:crypto';

/**
 * Random bytes drawn in blocks from the system's CSPRNG, as `crypto.randomUUID` does: one call for
 * a small buffer cost more than the rest of making an id (several ids go with every answer). Each
 * byte is used once and zeroed once read, so a secret's bytes do not linger in the block.
 */
const POOL = Buffer.alloc(4096);
let next = POOL.length;

function randomByte(): number {
  if (next === POOL.length) {
    randomFillSync(POOL);
    next = 0;
  }
  const byte = POOL[next]!;
  POOL[next++] = 0;
  return byte;
}

const BASE32 = 'abcdefghijkmnpqrstuvwxyz23456789';
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random text from `alphabet`, without modulo bias (rejection sampling). */
export function randomString(length: number, alphabet: string): string {
  const limit = 256 - (256 % alphabet.length);
  let result = '';
  while (result.length < length) {
    const byte = randomByte();
    if (byte < limit) result += alphabet[byte % alphabet.length];
  }
  return result;
}

/** An unguessable, branch-name-safe id (lowercase, no look-alike characters): 100 bits. */
export const newJobId = (): string => randomString(20, BASE32);

/** Secret part of an API key: 40 characters of base62, about 238 bits. */
export const newSecret = (): string => randomString(40, BASE62);

/** Short public id of a key, shown in lists; reveals nothing of the secret. */
export const newKeyId = (): string => `key_${randomString(12, BASE32)}`;

/** An assistant conversation: unguessable, 120 bits. */
export const newThreadId = (): string => `thread_${randomString(24, BASE32)}`;
