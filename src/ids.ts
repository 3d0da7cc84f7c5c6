import { randomBytes } from 'node:crypto';

const BASE32 = 'abcdefghijkmnpqrstuvwxyz23456789';
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random text from `alphabet`, without modulo bias (rejection sampling). */
export function randomString(length: number, alphabet: string): string {
  const limit = 256 - (256 % alphabet.length);
  let result = '';
  while (result.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) result += alphabet[byte % alphabet.length];
      if (result.length === length) break;
    }
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
