import { isBot } from './bots.js';
import type { TrustAuthor } from './find-thread-job.js';
import { getPermissionLevel, hasPermission, type PermissionLevel } from '../github-api/permission.js';
import type { GitHubApi } from '../github-api/types.js';

/**
 * Trusts markers written by bots (the Action's and the app's comments, the pull requests a job
 * opened) and by people who may trigger work themselves, so forging a marker gains nothing. Each
 * person's permission is looked up once.
 */
export function trustBotsAndPermitted(
  octokit: GitHubApi,
  repository: { owner: string; repo: string },
  minimum: PermissionLevel,
): TrustAuthor {
  const verdicts = new Map<string, Promise<boolean>>();
  return (author) => {
    if (isBot(author)) return true;
    let verdict = verdicts.get(author.login);
    if (!verdict) {
      verdict = getPermissionLevel(octokit, repository, author.login).then((level) =>
        hasPermission(level, minimum),
      );
      verdicts.set(author.login, verdict);
    }
    return verdict;
  };
}
