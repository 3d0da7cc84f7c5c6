import { z } from 'zod';
import {
  JobListSchema,
  JobSchema,
  type BudgetBody,
  type Job,
  type JobList,
  type JobStatus,
} from '../protocol/agent-job.js';
import { ErrorBodySchema } from '../protocol/error.js';
import { GapsIssueSchema, GapsReportSchema, type GapsIssue, type GapsReport } from '../protocol/feedback.js';
import { retryDelayMs } from '../core/backoff.js';
import { DocwrightError } from '../core/errors.js';
import { ApiError, ApiTimeoutError, ApiUnreachableError, knownCode, type ApiAnswer } from './errors.js';

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
  /** Per attempt. */
  timeoutMs?: number;
  /** Attempts in all, for 429, 5xx and network errors. */
  maxAttempts?: number;
  /** Waits between attempts; injectable so tests do not sleep. */
  sleep?: (ms: number) => Promise<void>;
  userAgent?: string;
  /**
   * Whether a read that could not reach the server is tried again (default true: a server that is
   * restarting comes back). The CLI says at once that nothing answered instead.
   */
  retryUnreachable?: boolean;
  /** Told before each repeated attempt (after a 429, a 5xx or a network error), e.g. to log it. */
  onRetry?: (retry: { error: unknown; attempt: number; delayMs: number }) => void;
}

/** A typed client of the agent-job API, used by the CLI and the Action. */
export class DocwrightClient {
  private readonly fetch: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: ClientOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  createJob(projectId: string, prompt: string, options: { budget?: BudgetBody } = {}): Promise<Job> {
    const budget = options.budget && Object.keys(options.budget).length > 0 ? { budget: options.budget } : {};
    return this.request('POST', `/v2/agent/${enc(projectId)}/job`, JobSchema, { prompt, ...budget });
  }

  getJob(projectId: string, id: string): Promise<Job> {
    return this.request('GET', `/v2/agent/${enc(projectId)}/job/${enc(id)}`, JobSchema);
  }

  sendMessage(projectId: string, id: string, prompt: string): Promise<Job> {
    return this.request('POST', `/v2/agent/${enc(projectId)}/job/${enc(id)}/message`, JobSchema, { prompt });
  }

  archiveJob(projectId: string, id: string): Promise<Job> {
    return this.request('POST', `/v2/agent/${enc(projectId)}/job/${enc(id)}/archive`, JobSchema, {});
  }

  listJobs(
    projectId: string,
    options: { limit?: number; cursor?: string; status?: JobStatus } = {},
  ): Promise<JobList> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(options))
      if (value !== undefined) query.set(name, String(value));
    const suffix = query.size > 0 ? `?${query.toString()}` : '';
    return this.request('GET', `/v2/agent/${enc(projectId)}/jobs${suffix}`, JobListSchema);
  }

  /** The gaps report: readers' questions the docs served badly, grouped (`since`: `30d`, `12h`). */
  getGaps(projectId: string, since?: string): Promise<GapsReport> {
    const query = since ? `?since=${encodeURIComponent(since)}` : '';
    return this.request('GET', `/v2/agent/${enc(projectId)}/gaps${query}`, GapsReportSchema);
  }

  /** Starts a job that fills a gap of the report (read over the same `since`). */
  createGapJob(projectId: string, gapId: string, since?: string): Promise<Job> {
    const query = since ? `?since=${encodeURIComponent(since)}` : '';
    return this.request('POST', `/v2/agent/${enc(projectId)}/gaps/${enc(gapId)}/job${query}`, JobSchema, {});
  }

  /** Refreshes the project's "Docs gaps" issue on GitHub, as the server's weekly refresh does. */
  refreshGapsIssue(projectId: string): Promise<GapsIssue> {
    return this.request('POST', `/v2/agent/${enc(projectId)}/gaps/issue`, GapsIssueSchema, {});
  }

  private async request<T extends z.ZodType>(
    method: string,
    path: string,
    schema: T,
    body?: unknown,
  ): Promise<z.infer<T>> {
    const attempts = this.options.maxAttempts ?? 4;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return schema.parse(await this.attempt(method, path, body));
      } catch (error) {
        // Only an answer (or a failure to get one) says whether to try again; a body that is not a job
        // is a wrong server, not a passing fault.
        if (attempt >= attempts || !(DocwrightError.isInstance(error) && error.retryable)) throw error;
        if (error instanceof ApiUnreachableError && this.options.retryUnreachable === false) throw error;
        const delayMs = delayBeforeRetry(error, attempt);
        this.options.onRetry?.({ error, attempt, delayMs });
        await this.sleep(delayMs);
      }
    }
  }

  private async attempt(method: string, path: string, body: unknown): Promise<unknown> {
    const url = `${this.options.baseUrl.replace(/\/$/, '')}${path}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.apiKey}`,
      accept: 'application/json',
      'user-agent': this.options.userAgent ?? 'docwright-client',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await this.fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
        throw new ApiTimeoutError(
          `${method} ${path} timed out after ${this.options.timeoutMs ?? 30_000} ms`,
          method,
        );
      }
      // fetch reports every network failure as a TypeError whose cause says what happened.
      if (error instanceof TypeError)
        throw new ApiUnreachableError(this.options.baseUrl, networkReason(error), method, { cause: error });
      throw error;
    }
    const text = await response.text();
    if (!response.ok) throw errorOf(response, text, method);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ApiError(
        `The server answered ${method} ${path} with a body that is not JSON`,
        { status: response.status, code: 'internal_error', retryable: false },
        method,
      );
    }
  }
}

function errorOf(response: Response, text: string, method: string): ApiError {
  let message = `${response.status} ${response.statusText}`.trim();
  let code: ApiAnswer['code'];
  let retryable: boolean | undefined;
  try {
    // A newer server may send a code this client does not know: read it as no code, keep the rest.
    const body = ErrorBodySchema.extend({ code: z.string().optional() }).safeParse(JSON.parse(text));
    if (body.success) {
      message = body.data.error;
      code = knownCode(body.data.code);
      retryable = body.data.retryable;
    }
  } catch {
    // not JSON: keep the status line
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  const retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined;
  return new ApiError(message, { status: response.status, code, retryable, retryAfterSeconds }, method);
}

/** Retry-After when the server sent one (capped at a minute), else the back-off, with jitter. */
function delayBeforeRetry(error: unknown, attempt: number): number {
  if (error instanceof ApiError && error.retryAfterSeconds !== undefined) {
    return Math.min(error.retryAfterSeconds, 60) * 1000;
  }
  return retryDelayMs(attempt, { baseMs: 500, capMs: 30_000, jitter: true });
}

function networkReason(error: TypeError): string {
  const cause = error.cause;
  return cause instanceof Error && cause.message !== '' ? cause.message : error.message;
}

const enc = encodeURIComponent;
