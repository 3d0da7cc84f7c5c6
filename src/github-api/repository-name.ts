import { badRequest } from '../core/errors.js';

/** The two halves of an `owner/repo` name, as the REST routes take them. */
export interface RepositoryName {
  owner: string;
  repo: string;
}

/** A full commit id (SHA-1, or SHA-256 for repositories that use it). */
export const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

// GitHub's own limits: owners are alphanumerics and single hyphens, repositories add `.` and `_`.
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const REPO = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * Parses `owner/repo`; the web address (`https://github.com/owner/repo`, with or without `.git`)
 * is accepted too, since that is what `source.repository` shows and what people paste.
 */
export function parseRepository(repository: string, webUrl: string): RepositoryName {
  let name = repository.trim();
  const prefix = `${webUrl.replace(/\/+$/, '')}/`;
  if (name.startsWith(prefix))
    name = name
      .slice(prefix.length)
      .replace(/\.git$/, '')
      .replace(/\/+$/, '');
  const [owner, repo, ...rest] = name.split('/');
  if (
    owner === undefined ||
    repo === undefined ||
    rest.length > 0 ||
    !OWNER.test(owner) ||
    !REPO.test(repo)
  ) {
    throw badRequest(`Not a GitHub repository name (expected owner/repo): ${repository}`);
  }
  if (repo === '.' || repo === '..') throw badRequest(`Not a GitHub repository name: ${repository}`);
  return { owner, repo };
}

/**
 * The rules of `git check-ref-format` for `refs/heads/<name>`, checked before anything is written
 * so an invalid name cannot leave orphan trees and commits behind a 422 from the refs API.
 */
export function isValidBranchName(name: string): boolean {
  if (name === '' || name === '@' || name.startsWith('-') || name.startsWith('/') || name.endsWith('/')) {
    return false;
  }
  if (name.endsWith('.') || name.includes('..') || name.includes('//') || name.includes('@{')) return false;
  // Space and the characters git reserves for revision syntax, then control characters.
  if (/[ ~^:?*[\\]/.test(name)) return false;
  if ([...name].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return false;
  return name.split('/').every((part) => !part.startsWith('.') && !part.endsWith('.lock'));
}
