import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Assistant } from '../assistant/assistant.js';
import type { JobService } from '../engine/job-service.js';
import { DocwrightError, notFound } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { Store } from '../store/index.js';
import { agentRoutes, type RefreshGapsIssue } from './agent-routes.js';
import { assistantRoutes } from './assistant-routes.js';
import { errorResponse } from './errors.js';
import { llmsRoutes } from './llms-routes.js';
import { mcpRoutes } from './mcp-routes.js';
import { metricsRoute, type MetricsEndpoint } from './metrics-route.js';
import { openApiDocument } from './openapi.js';
import { webRoutes } from './web-routes.js';
import type { RateLimits } from './rate-limits.js';

export interface AppDependencies {
  store: Store;
  jobs: JobService;
  rateLimits: RateLimits;
  logger: Logger;
  assistant: Assistant;
  /** Take the client address for rate limits from X-Forwarded-For. */
  trustProxy: boolean;
  /** Largest request body accepted (default 1 MiB); 413 above it. */
  maxBodyBytes?: number;
  /** `/metrics`, when turned on. */
  metrics?: MetricsEndpoint | null;
  version?: string;
  /** `POST /v2/agent/{projectId}/gaps/issue`: the GitHub App's refresh; null without GitHub. */
  refreshGapsIssue?: RefreshGapsIssue | null;
}

/** Largest request body accepted when the configuration does not say (413 above it). */
const MAX_BODY_BYTES = 1024 * 1024;

/** The HTTP API as a Hono app: served by `docwright serve`, driven by tests with `app.request()`. */
export function createApp(deps: AppDependencies): Hono {
  const app = new Hono();
  app.onError((error, c) => errorResponse(error, c, deps.logger));

  const maxSize = deps.maxBodyBytes ?? MAX_BODY_BYTES;
  const limitBody = bodyLimit({
    maxSize,
    // The 413 may go out before the body was read (a declared Content-Length over the limit):
    // the rest of the body is still on its way, so the connection cannot carry another request.
    onError: () => {
      throw new DocwrightError('payload_too_large', `Request body is larger than ${maxSize} bytes`, {
        headers: { Connection: 'close' },
      });
    },
  });
  // No route reads the body of a GET or HEAD. A body of declared length is judged by its header,
  // as the middleware does too, but without asking the server adapter for the body first: that
  // makes it build a whole web Request (and its AbortController), where reading the text later
  // takes the bytes from the socket directly. A chunked body is counted as it arrives.
  const limitBodies: MiddlewareHandler = (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const declared = c.req.header('content-length');
    if (declared === undefined || c.req.header('transfer-encoding') !== undefined) return limitBody(c, next);
    return Number.parseInt(declared, 10) > maxSize ? limitBody(c, next) : next();
  };
  app.use('*', limitBodies);

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/openapi.json', (c) => c.json(openApiDocument(deps.version)));
  if (deps.metrics) app.route('/', metricsRoute(deps.metrics));
  app.route('/v2/agent/:projectId', agentRoutes(deps));
  app.route('/discovery', assistantRoutes({ ...deps, metrics: deps.metrics?.metrics ?? null }));
  app.route('/mcp', mcpRoutes({ ...deps, metrics: deps.metrics?.metrics ?? null }));
  app.route('/llms', llmsRoutes(deps));
  app.route('/', webRoutes());

  app.notFound((c) => notFoundOrWrongMethod(app, c, deps.logger));
  return app;
}

/** 405 (with Allow) when the path exists under another method, else 404. */
function notFoundOrWrongMethod(app: Hono, c: Context, logger: Logger): Response {
  const path = c.req.path;
  const allowed = new Set(
    app.routes
      .filter((route) => route.method !== 'ALL' && routePattern(route.path).test(path))
      .map((route) => route.method),
  );
  if (allowed.size > 0) {
    const allow = [...allowed].sort().join(', ');
    const error = new DocwrightError(
      'method_not_allowed',
      `Method ${c.req.method} is not allowed on ${path}; use ${allow}`,
      { headers: { Allow: allow } },
    );
    return errorResponse(error, c, logger);
  }
  return errorResponse(notFound(`No route for ${c.req.method} ${path}`), c, logger);
}

const patterns = new Map<string, RegExp>();
function routePattern(path: string): RegExp {
  let pattern = patterns.get(path);
  if (!pattern) {
    const source = path
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    pattern = new RegExp(`^${source}/?$`);
    patterns.set(path, pattern);
  }
  return pattern;
}
