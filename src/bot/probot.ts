import { Probot, ProbotOctokit } from 'probot';
import type { GitHubConfig } from '../config.js';
import type { Logger } from '../logger.js';
import { instrumentOctokit, type Metrics } from '../metrics.js';

export interface BotProbotOptions {
  /** Milliseconds per second of back-off and `Retry-After` (default 1000; tests shorten it). */
  retryAfterBaseValue?: number;
  /** The REST API root (default https://api.github.com). */
  baseUrl?: string;
  /** More throttling options, e.g. tests replace the one-write-a-second pacing groups. */
  throttle?: Record<string, unknown>;
  /** Where every installation Octokit counts its requests, when metrics are on. */
  metrics?: Metrics | null;
}

/** Retries of one request after a rate limit: GitHub asks to wait, and then it usually works. */
const RATE_LIMIT_RETRIES = 2;

interface LimitedRequest {
  method: string;
  url: string;
}

/**
 * Probot's Octokit with our retry policy. Probot's own throttle options only log a secondary rate
 * limit; the issue asks for it to be retried (after GitHub's Retry-After), like 5xx answers are by
 * the retry plugin. Applied again by Probot to every installation Octokit it creates.
 */
export function botOctokit(
  logger: Logger,
  retryAfterBaseValue = 1000,
  throttle: Record<string, unknown> = {},
  metrics: Metrics | null = null,
): typeof ProbotOctokit {
  const retryOnce =
    (kind: string) => (retryAfter: number, request: LimitedRequest, _o: unknown, count: number) => {
      const retrying = count < RATE_LIMIT_RETRIES;
      logger.warn(
        { method: request.method, url: request.url, retryAfter, retryCount: count },
        retrying
          ? `GitHub ${kind} rate limit hit; retrying`
          : `GitHub ${kind} rate limit hit again; giving up`,
      );
      return retrying;
    };
  const withPolicy: typeof ProbotOctokit = ProbotOctokit.defaults((options: Record<string, unknown>) => ({
    ...options,
    retry: { ...(options.retry as object | undefined), retryAfterBaseValue },
    throttle: {
      ...(options.throttle as object | undefined),
      retryAfterBaseValue,
      onRateLimit: retryOnce('primary'),
      onSecondaryRateLimit: retryOnce('secondary'),
      ...throttle,
    },
  }));
  return metrics ? withPolicy.plugin((octokit) => instrumentOctokit(octokit, metrics)) : withPolicy;
}

/**
 * The Probot instance of `serve`: a GitHub App (APP_ID + private key), or token mode (a token,
 * no app), or null when GitHub is not configured. The webhook secret is checked by Probot's
 * middleware; the credentials are handed to Probot only, never logged.
 */
export function createBotProbot(
  github: GitHubConfig,
  logger: Logger,
  options: BotProbotOptions = {},
): Probot | null {
  const common = {
    log: logger.child({ name: 'probot' }),
    Octokit: botOctokit(logger, options.retryAfterBaseValue, options.throttle, options.metrics),
    // Only used when the middleware is mounted, which needs a secret (see cli/serve.ts).
    secret: github.webhookSecret,
    webhookPath: github.webhookPath,
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    // REDIS_URL: Probot's own support; every replica then shares one GitHub request throttle (issue 7).
    ...(github.redisUrl ? { redisConfig: github.redisUrl } : {}),
  };
  if (github.appId !== undefined && github.privateKey) {
    return new Probot({ ...common, appId: github.appId, privateKey: github.privateKey });
  }
  if (github.token) return new Probot({ ...common, githubToken: github.token });
  return null;
}
