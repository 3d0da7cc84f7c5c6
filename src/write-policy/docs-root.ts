import { DocwrightError } from '../core/errors.js';
import { unsafePathReason } from './repository-path.js';

declare const docsRootBrand: unique symbol;

/**
 * The folder of a project's docs, relative to the repository: `''` for the repository root, else
 * e.g. `docs` or `site/docs` (no slashes around it). Only {@link parseDocsRoot} makes one, so a
 * value of this type has been normalised and checked.
 */
export type DocsRoot = string & { readonly [docsRootBrand]: true };

/** The repository root as a docs root. */
const REPOSITORY_ROOT = '' as DocsRoot;

/** A docs root that cannot be one: outside the repository, in `.github/`, and so on. */
export class InvalidDocsRootError extends DocwrightError {
  override readonly name = 'InvalidDocsRootError';
  constructor(message: string) {
    super('invalid_request', message, { retryable: false });
  }
}

/**
 * Reads a docs root as people type it: `docs`, `./docs/`, `/docs` and `docs/` are `docs`; `.`,
 * `./`, `/` and empty are the repository root. Throws InvalidDocsRootError (with the reason) for a
 * folder outside the repository or one that is never written (`.github`, dot-folders).
 */
export function parseDocsRoot(typed: string): DocsRoot {
  const trimmed = typed
    .trim()
    .replace(/^(?:\.\/|\/)+/, '')
    .replace(/\/+$/, '');
  if (trimmed === '' || trimmed === '.') return REPOSITORY_ROOT;
  const reason = unsafePathReason(trimmed);
  if (reason !== undefined)
    throw new InvalidDocsRootError(`The docs root "${typed}" cannot be used: ${reason}`);
  const segments = trimmed.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.some((segment) => segment.startsWith('.'))) {
    throw new InvalidDocsRootError(
      `The docs root "${typed}" cannot be used: dot-folders hold tooling, not docs`,
    );
  }
  return segments.join('/') as DocsRoot;
}
