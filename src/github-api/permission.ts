import { hasStatus } from './request-error.js';
import type { GitHubApi } from './types.js';

/** Repository roles from least to most access; the order is what `hasPermission` compares. */
export const PERMISSION_LEVELS = ['none', 'read', 'triage', 'write', 'maintain', 'admin'] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

/** Whether `value` names a level (`write`, not `Write` or `push`). */
export function isPermissionLevel(value: string): value is PermissionLevel {
  return (PERMISSION_LEVELS as readonly string[]).includes(value);
}

/** Whether someone with `actual` access meets `minimum` (write by default, configurable). */
export function hasPermission(actual: PermissionLevel, minimum: PermissionLevel): boolean {
  return PERMISSION_LEVELS.indexOf(actual) >= PERMISSION_LEVELS.indexOf(minimum);
}

/**
 * A user's access to a repository. `role_name` distinguishes triage and maintain, which the legacy
 * `permission` field folds into read and write; a custom role's name is not a level, so its base
 * `permission` is used instead. Someone GitHub does not know (404) has none.
 */
export async function getPermissionLevel(
  octokit: GitHubApi,
  repository: { owner: string; repo: string },
  username: string,
): Promise<PermissionLevel> {
  try {
    const { owner, repo } = repository;
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username });
    if (isPermissionLevel(data.role_name)) return data.role_name;
    return isPermissionLevel(data.permission) ? data.permission : 'none';
  } catch (error) {
    if (hasStatus(error, 404)) return 'none';
    throw error;
  }
}
