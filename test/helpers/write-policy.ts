import { parseDocsRoot, WritePolicy, type WritePolicyOptions } from '../../src/write-policy/index.js';

/** A write policy for a docs root as typed (`''`, `docs/`), with optional symlinks and `writable:` globs. */
export function policyFor(docsRoot = '', options: Omit<WritePolicyOptions, 'docsRoot'> = {}): WritePolicy {
  return new WritePolicy({ ...options, docsRoot: parseDocsRoot(docsRoot) });
}
