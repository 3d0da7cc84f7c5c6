import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';

/** Where the policy reports waits and Octokit its own messages: pino or the Action's log. */
interface OctokitLog {
  warn(message: string): void;
  debug(message: string): void;
}

/**
 * How every GitHub request of docwright retries, whoever makes it (the app, the forge, the
 * Action): 5xx answers are retried with back-off by the retry plugin; a primary or secondary rate
 * limit is waited out (GitHub's `Retry-After` or reset time) and retried up to twice; writes are
 * paced the way GitHub asks (one a second, comments further apart) by the throttling plugin.
 */
export interface RequestPolicy {
  log: OctokitLog;
  /** Milliseconds per second of `Retry-After` and of the 5xx back-off (default 1000; tests shorten it). */
  retryAfterBaseValue?: number;
  /** Throttling options that replace the defaults, e.g. tests make the pacing groups instant. */
  throttle?: Record<string, unknown>;
  /**
   * Told of every client made with the policy, e.g. to count its requests. A callback, not the
   * metrics module itself, so the Action's bundle carries no metrics code.
   */
  instrument?: (octokit: InstrumentableOctokit) => void;
}

/** What an instrument may use of a client: Octokit's request hooks. */
interface InstrumentableOctokit {
  hook: { before(name: 'request', hook: (options: { method: string; request?: object }) => void): void };
}

export interface OctokitOptions extends RequestPolicy {
  /** A token: a personal access token, an installation token, the workflow's GITHUB_TOKEN. */
  auth: string;
  /** The REST API root (`GitHubHosts.apiUrl`). */
  baseUrl: string;
  userAgent: string;
}

/**
 * Statuses with which GitHub refuses a request for a reason that waiting does not change (bad
 * input, credentials, permissions, a missing or gone resource, a validation failure). The retry
 * plugin repeats nothing with these, and the request-error classifier reads the same list, so
 * what Octokit repeats and what a job retries later can never disagree.
 */
export const DO_NOT_RETRY: readonly number[] = Object.freeze([400, 401, 403, 404, 410, 422, 451]);

/** Retries of one request after a rate limit: GitHub asks to wait, and then it usually works. */
const RATE_LIMIT_RETRIES = 2;

/** `@octokit/rest` with the two plugins the policy configures. */
export const PolicyOctokit = Octokit.plugin(retry, throttling);
export type PolicyOctokit = InstanceType<typeof PolicyOctokit>;

interface LimitedRequest {
  method: string;
  url: string;
}

/** The `retry` and `throttle` options of the policy, for any Octokit that has both plugins. */
export function policyOptions(policy: RequestPolicy) {
  const unit = policy.retryAfterBaseValue ?? 1000;
  const onLimit =
    (kind: 'primary' | 'secondary') =>
    (retryAfter: number, request: LimitedRequest, _octokit: unknown, retryCount: number) => {
      const retrying = retryCount < RATE_LIMIT_RETRIES;
      policy.log.warn(
        retrying
          ? `GitHub ${kind} rate limit on ${request.method} ${request.url}; retrying after ${retryAfter} s`
          : `GitHub ${kind} rate limit on ${request.method} ${request.url} again; giving up`,
      );
      return retrying;
    };
  const doNotRetry: number[] = [...DO_NOT_RETRY];
  return {
    retry: { retryAfterBaseValue: unit, doNotRetry },
    throttle: {
      retryAfterBaseValue: unit,
      onRateLimit: onLimit('primary'),
      onSecondaryRateLimit: onLimit('secondary'),
      ...policy.throttle,
    },
  };
}

/**
 * An Octokit class with the policy as its defaults. Probot builds its installation clients from a
 * class (`ProbotOctokit` already carries both plugins), so the app gets the same policy this way.
 */
export function withPolicy<T extends { defaults(options: unknown): unknown }>(
  Base: T,
  policy: RequestPolicy,
): T {
  const { retry: retryOptions, throttle } = policyOptions(policy);
  const withDefaults = Base.defaults((options: Record<string, unknown>) => ({
    ...options,
    retry: { ...(options.retry as object | undefined), ...retryOptions },
    throttle: { ...(options.throttle as object | undefined), ...throttle },
  })) as T & { plugin(plugin: (octokit: InstrumentableOctokit) => void): T };
  const { instrument } = policy;
  return instrument ? withDefaults.plugin((octokit) => instrument(octokit)) : withDefaults;
}

/**
 * The one GitHub client factory: a token, an API root and the policy. It uses Node's own fetch,
 * which nock intercepts in tests and which honours proxy variables on Node 24 with
 * `NODE_USE_ENV_PROXY=1`. The token is only handed to Octokit's auth; Octokit redacts it from errors.
 */
export function createOctokit(options: OctokitOptions): PolicyOctokit {
  const { log } = options;
  const octokit = new PolicyOctokit({
    auth: options.auth,
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    userAgent: options.userAgent,
    ...policyOptions(options),
    // Octokit's request log reports every answer, handled 404s and 422s included: only warnings
    // stay warnings; callers decide what else is worth saying.
    log: {
      debug: (message: string) => log.debug(message),
      info: (message: string) => log.debug(message),
      warn: (message: string) => log.warn(message),
      error: (message: string) => log.debug(message),
    },
  });
  options.instrument?.(octokit);
  return octokit;
}
