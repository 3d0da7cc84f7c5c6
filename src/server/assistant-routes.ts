import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import type { z } from 'zod';
import type { Assistant } from '../assistant/assistant.js';
import { dataStream } from '../assistant/streams/data-stream.js';
import type { AnswerStreamInput } from '../assistant/streams/types.js';
import { uiMessageStream } from '../assistant/streams/ui-message-stream.js';
import { redactSecrets } from '../core/redact.js';
import { forbidden, notFound } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { Metrics } from '../metrics/metrics.js';
import { AssistantRequestV1Schema, AssistantRequestV2Schema, conversationOf } from '../protocol/assistant.js';
import type { ApiKeyRow, ProjectRow, Store } from '../store/index.js';
import { sendAnswer } from './answer-response.js';
import { limitFeedbackBody, rateAnswer } from './feedback-route.js';
import { requireKey, type AuthVariables } from './auth.js';
import type { RateLimitHeaders, RateLimits } from './rate-limits.js';
import { readJson } from './request-body.js';

export interface AssistantRouteDependencies {
  store: Store;
  assistant: Assistant;
  rateLimits: RateLimits;
  logger: Logger;
  trustProxy: boolean;
  metrics?: Metrics | null;
}

/** RFC 9745: the date v1 was deprecated, as a structured-field date. */
const V1_DEPRECATED_AT = `@${Date.UTC(2026, 0, 1) / 1000}`;

/** The assistant endpoints (v2 and the deprecated v1), mounted at /discovery, for AI SDK chat clients. */
export function assistantRoutes(deps: AssistantRouteDependencies) {
  const app = new Hono<{ Variables: AuthVariables & { project: ProjectRow | undefined } }>();
  const path = '/:version{v[12]}/assistant/:domain/message';
  const feedbackPath = '/v2/assistant/:domain/feedback';
  // Feedback comes from the same readers' browsers as the questions: same origins, keys and limits.
  for (const route of [path, feedbackPath]) guard(route);
  app.use(feedbackPath, limitFeedbackBody);
  app.post(feedbackPath, async (c) => {
    const project = siteOf(c.get('project'), c.get('apiKey'), c.req.param('domain'));
    return rateAnswer(c, project, deps.store, () => consumeLimits(deps, c, project, c.get('apiKey').id));
  });

  function guard(route: string) {
    // The domain's project is read once per request: CORS needs its origins, the handler the rest.
    app.use(route, async (c, next) => {
      c.set('project', await deps.store.projects.getByDomain(c.req.param('domain') ?? ''));
      await next();
    });
    app.use(
      route,
      cors({
        origin: (origin, c) => allowedOrigin(c.get('project') as ProjectRow | undefined, origin),
        allowMethods: ['POST', 'OPTIONS'],
        allowHeaders: ['Authorization', 'Content-Type'],
        exposeHeaders: [
          'X-Thread-Id',
          'Retry-After',
          'RateLimit-Limit',
          'RateLimit-Remaining',
          'RateLimit-Reset',
        ],
        maxAge: 600,
      }),
    );
    app.use(route, requireKey(deps.store, 'assistant'));
  }

  app.post(path, async (c) => {
    const started = performance.now();
    const version = c.req.param('version') as 'v1' | 'v2';
    const domain = c.req.param('domain');
    const project = siteOf(c.get('project'), c.get('apiKey'), domain);
    const schema: z.ZodType<
      z.infer<typeof AssistantRequestV2Schema> | z.infer<typeof AssistantRequestV1Schema>
    > = version === 'v1' ? AssistantRequestV1Schema : AssistantRequestV2Schema;
    const request = await readJson(c, schema);
    // Counted once the request is known to be valid: a malformed body costs no quota.
    const limits = await consumeLimits(deps, c, project, c.get('apiKey').id);
    const prepared = await deps.assistant.respond(
      project,
      domain,
      { ...request, conversation: conversationOf(request.messages), questionId: request.messages.at(-1)?.id },
      c.req.raw.signal,
    );
    const logger = deps.logger.child({ domain, thread: prepared.threadId });
    const metrics = deps.metrics;
    const input: AnswerStreamInput = {
      ...prepared,
      answer: metrics
        ? {
            ...prepared.answer,
            text: timedFirstDelta(prepared.answer.text, started, (seconds) =>
              metrics.assistantFirstByte.observe({ version }, seconds),
            ),
          }
        : prepared.answer,
      headers: { 'X-Thread-Id': prepared.threadId, ...limits },
      onComplete: async (text) => {
        await prepared.complete(text);
        metrics?.assistantAnswers.inc({ version, outcome: 'completed' });
      },
      onError: (error) => {
        metrics?.assistantAnswers.inc({ version, outcome: 'failed' });
        logger.error({ err: loggableError(error) }, 'assistant answer failed mid-stream');
      },
    };
    if (version === 'v2') return sendAnswer(c, uiMessageStream(input));
    input.headers = {
      ...input.headers,
      Deprecation: V1_DEPRECATED_AT,
      Link: `</discovery/v2/assistant/${encodeURIComponent(domain)}/message>; rel="successor-version"`,
    };
    return sendAnswer(c, dataStream(input));
  });
  return app;
}

/** The project of the path's domain, when the key is that domain's and the site is on. */
function siteOf(project: ProjectRow | undefined, key: ApiKeyRow, domain: string): ProjectRow {
  if (key.domain !== domain) throw forbidden(`This assistant key does not belong to the domain ${domain}`);
  if (!project) throw notFound(`No documentation site answers for the domain ${domain}`);
  if (project.disabled_at) throw forbidden(`The documentation site ${domain} is disabled`);
  return project;
}

export function allowedOrigin(project: ProjectRow | undefined, origin: string): string | null {
  const allowed =
    project?.allowed_origins
      ?.split(',')
      .map((entry) => entry.trim())
      .filter(Boolean) ?? [];
  if (allowed.length === 0) return '*';
  return allowed.includes(origin) ? origin : null;
}

/** The contract's assistant limits: per key per month, per organization (project) per hour, per client address per day. */
export async function consumeLimits(
  deps: AssistantRouteDependencies,
  c: Context,
  project: ProjectRow,
  keyId: string,
): Promise<RateLimitHeaders> {
  const results = await deps.rateLimits.consumeAll([
    { name: 'assistant-key', key: keyId },
    { name: 'assistant-org', key: project.id },
    { name: 'assistant-ip', key: clientAddress(c, deps.trustProxy) },
  ]);
  // The headers of the limit closest to running out are the ones worth telling the client.
  return results.reduce((tightest, next) =>
    Number(next['RateLimit-Remaining']) < Number(tightest['RateLimit-Remaining']) ? next : tightest,
  );
}

function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown'; // no socket: a request made in process (tests, app.request)
  }
}

/**
 * What of a provider error goes to the log: its name, status and message with secrets redacted.
 * The rest (response bodies, the prompt sent) may echo keys or hold the reader's question.
 */
function loggableError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: redactSecrets(String(error)) };
  const status = (error as { statusCode?: unknown }).statusCode;
  return {
    name: error.name,
    message: redactSecrets(error.message),
    ...(typeof status === 'number' ? { status } : {}),
  };
}

/** The answer's text, unchanged, reporting how long after `started` its first delta came. */
async function* timedFirstDelta(
  text: AsyncIterable<string>,
  started: number,
  observe: (seconds: number) => void,
): AsyncIterable<string> {
  let first = true;
  for await (const delta of text) {
    if (first) observe((performance.now() - started) / 1000);
    first = false;
    yield delta;
  }
}
