import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import type { GitHubApi } from '../github/index.js';
import type { Log } from './context.js';

const ActionOctokit = Octokit.plugin(retry, throttling);

/** How often a request GitHub rate-limited is repeated before the error goes up. */
const RATE_LIMIT_RETRIES = 2;

/**
 * The Action's GitHub client (DESIGN: `@octokit/rest` with retry and throttling). It uses Node's
 * own fetch, which honours proxy variables on Node 24 with `NODE_USE_ENV_PROXY=1`, and which nock
 * intercepts in tests; `@actions/github`'s client brings its own undici fetch, which nock cannot see.
 */
export function createOctokit(options: { token: string; baseUrl: string; log: Log }): GitHubApi {
  const { log } = options;
  const onLimit =
    (kind: string) =>
    (retryAfter: number, request: { method: string; url: string }, _octokit: unknown, retryCount: number) => {
      log.warning(`GitHub ${kind} for ${request.method} ${request.url}; retrying after ${retryAfter} s.`);
      return retryCount < RATE_LIMIT_RETRIES;
    };
  return new ActionOctokit({
    auth: options.token,
    baseUrl: options.baseUrl,
    userAgent: 'docwright-action',
    throttle: { onRateLimit: onLimit('rate limit'), onSecondaryRateLimit: onLimit('secondary rate limit') },
    log: {
      debug: () => {},
      info: () => {},
      warn: (message: string) => log.warning(message),
      error: () => {},
    },
  });
}
