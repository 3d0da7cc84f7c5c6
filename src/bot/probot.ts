import { Probot, ProbotOctokit } from 'probot';
import type { GitHubConfig } from '../config/config.js';
import { withPolicy, type RequestPolicy } from '../github-api/octokit.js';
import type { Logger } from '../core/logger.js';

export type BotProbotOptions = Pick<RequestPolicy, 'retryAfterBaseValue' | 'throttle' | 'instrument'>;

/**
 * The Probot instance of `serve`: a GitHub App (APP_ID + private key), or token mode (a token,
 * no app), or null when GitHub is not configured. Its Octokit class carries the one request
 * policy (src/github-api/octokit.ts), which Probot applies to every installation client it makes; its
 * API root is the configured host's (GHE_HOST), as Probot's own `run` would set it. The webhook
 * secret is checked by Probot's middleware; the credentials are handed to Probot only, never logged.
 */
export function createBotProbot(
  github: GitHubConfig,
  logger: Logger,
  options: BotProbotOptions = {},
): Probot | null {
  const policy: RequestPolicy = {
    ...options,
    log: { warn: (message) => logger.warn(message), debug: (message) => logger.debug(message) },
  };
  const common = {
    log: logger.child({ name: 'probot' }),
    Octokit: withPolicy(ProbotOctokit, policy),
    baseUrl: github.hosts.apiUrl,
    // Only used when the middleware is mounted, which needs a secret (see cli/serve.ts).
    secret: github.webhookSecret,
    webhookPath: github.webhookPath,
    // REDIS_URL: Probot's own support; every replica then shares one GitHub request throttle.
    ...(github.redisUrl ? { redisConfig: github.redisUrl } : {}),
  };
  if (github.appId !== undefined && github.privateKey) {
    return new Probot({ ...common, appId: github.appId, privateKey: github.privateKey });
  }
  if (github.token) return new Probot({ ...common, githubToken: github.token });
  return null;
}
