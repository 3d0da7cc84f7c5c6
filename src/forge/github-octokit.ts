import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import { silentLogger, type Logger } from '../logger.js';
import { instrumentOctokit, type Metrics } from '../metrics.js';

/**
 * What the GitHub forge needs of an Octokit: the REST methods. `@octokit/rest`'s Octokit and
 * Probot's installation-authenticated `ProbotOctokit` both fit.
 */
export type GitHubClient = Pick<Octokit, 'rest'>;

/** An `@octokit/rest` Octokit with the retry (5xx) and throttling (rate limits) plugins. */
export const RetryingOctokit = Octokit.plugin(retry, throttling);
export type RetryingOctokit = InstanceType<typeof RetryingOctokit>;

export interface TokenOctokitOptions {
  /** Where rate-limit waits and Octokit's own messages go. */
  logger?: Logger;
  /** The REST API root; GitHub Enterprise Server: `https://HOST/api/v3`. */
  baseUrl?: string;
  /** Milliseconds per second of `Retry-After` and of the 5xx back-off (default 1000; tests shorten it). */
  retryAfterBaseValue?: number;
  userAgent?: string;
  /** Where the client counts its requests, when metrics are on. */
  metrics?: Metrics | null;
}

/** Retries after a primary rate limit (waiting for the reset) and after a secondary one. */
const PRIMARY_RATE_LIMIT_RETRIES = 2;
const SECONDARY_RATE_LIMIT_RETRIES = 1;

interface LimitedRequest {
  method: string;
  url: string;
}

/**
 * The Octokit of token mode: a personal access token (or any token) with retry and throttling on,
 * the way Probot configures its own. The token is only handed to Octokit's auth strategy; nothing
 * here logs it, and Octokit redacts it from errors.
 */
export function createTokenOctokit(token: string, options: TokenOctokitOptions = {}): RetryingOctokit {
  const logger = options.logger ?? silentLogger;
  const unit = options.retryAfterBaseValue ?? 1000;
  const octokit = new RetryingOctokit({
    auth: token,
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl.replace(/\/+$/, '') }),
    userAgent: options.userAgent ?? 'docwright',
    log: octokitLog(logger),
    retry: { retryAfterBaseValue: unit },
    throttle: {
      retryAfterBaseValue: unit,
      onRateLimit: (retryAfter: number, request: LimitedRequest, _octokit: unknown, retryCount: number) =>
        shouldRetry(logger, 'primary', PRIMARY_RATE_LIMIT_RETRIES, retryAfter, request, retryCount),
      onSecondaryRateLimit: (
        retryAfter: number,
        request: LimitedRequest,
        _octokit: unknown,
        retryCount: number,
      ) => shouldRetry(logger, 'secondary', SECONDARY_RATE_LIMIT_RETRIES, retryAfter, request, retryCount),
    },
  });
  if (options.metrics) instrumentOctokit(octokit, options.metrics);
  return octokit;
}

function shouldRetry(
  logger: Logger,
  kind: 'primary' | 'secondary',
  limit: number,
  retryAfter: number,
  request: LimitedRequest,
  retryCount: number,
): boolean {
  const retrying = retryCount < limit;
  logger.warn(
    { method: request.method, url: request.url, retryAfter, retryCount },
    retrying
      ? `GitHub ${kind} rate limit hit; retrying in ${retryAfter}s`
      : `GitHub ${kind} rate limit hit again; giving up`,
  );
  return retrying;
}

/**
 * Octokit's log, routed to pino. Its request log reports every response, handled 404s and 422s
 * included, so info and error go to debug: the forge decides what is worth a warning.
 */
function octokitLog(logger: Logger) {
  return {
    debug: (message: string) => logger.debug(message),
    info: (message: string) => logger.debug(message),
    warn: (message: string) => logger.warn(message),
    error: (message: string) => logger.debug(message),
  };
}
