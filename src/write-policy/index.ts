/**
 * Which paths a job may write (the docs root, never `.github/`, no escapes, root files only when
 * the repository's settings say so) and how a docs root is read. Imports nothing from the agents,
 * the engine or the forges, so each of them can ask it.
 */
export { InvalidDocsRootError, parseDocsRoot, type DocsRoot } from './docs-root.js';
export { normalizePath, unsafePathReason } from './repository-path.js';
export { WritePolicy, WriteRefusedError, type WritePolicyOptions } from './write-policy.js';
