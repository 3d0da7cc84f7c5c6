import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import { z } from 'zod';
import { DocwrightError, forbidden, unauthorized } from '../core/errors.js';
import type { ApiKeyRow, ProjectRow } from '../store/index.js';
import { countedUse } from './agent-routes.js';
import { allowedOrigin, consumeLimits, type AssistantRouteDependencies } from './assistant-routes.js';
import { keyOfRequest } from './auth.js';
import { createMcpServer, type McpServerDependencies } from './mcp-server.js';
import type { RateLimitHeaders } from './rate-limits.js';
import { readJson } from './request-body.js';

export type McpRouteDependencies = AssistantRouteDependencies & McpServerDependencies;

/** A JSON-RPC message, or a batch of them: only what deciding what to count needs. */
const McpBodySchema = z.union([
  z.looseObject({ method: z.string().optional() }),
  z.array(z.looseObject({ method: z.string().optional() })),
]);

/**
 * The MCP server of each assistant domain, over Streamable HTTP at `/mcp/<domain>` (mounted at
 * /mcp): stateless, one server per request, JSON responses. It takes the domain's assistant key,
 * with the assistant's origins and limits, or an admin key of the domain's project, which adds
 * the job tools.
 */
export function mcpRoutes(deps: McpRouteDependencies) {
  const app = new Hono<{ Variables: { project: ProjectRow | undefined } }>();
  app.use('/:domain', async (c, next) => {
    c.set('project', await deps.store.projects.getByDomain(c.req.param('domain')));
    await next();
  });
  app.use(
    '/:domain',
    cors({
      origin: (origin, c) => allowedOrigin(c.get('project') as ProjectRow | undefined, origin),
      allowMethods: ['POST', 'OPTIONS'],
      allowHeaders: ['Authorization', 'Content-Type', 'Accept', 'Mcp-Protocol-Version'],
      exposeHeaders: [
        'WWW-Authenticate',
        'Retry-After',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
      ],
      maxAge: 600,
    }),
  );

  app.post('/:domain', async (c) => {
    const domain = c.req.param('domain');
    const project = c.get('project');
    const key = await keyOfRequest(deps.store, c.req.header('authorization'));
    // A page of another site could otherwise drive the server through a reader's browser.
    const origin = c.req.header('origin');
    if (origin !== undefined && allowedOrigin(project, origin) === null)
      throw forbidden(`The origin ${origin} may not call the documentation site ${domain}`);
    const site = siteFor(project, key, domain);
    const body = await readJson(c, McpBodySchema);
    const messages = Array.isArray(body) ? body : [body];
    // Tool calls are what a reader's agent does with the docs: they count as the assistant's
    // questions do. The handshake and listing cost nothing.
    const calls = messages.filter((message) => message.method === 'tools/call').length;
    let limits: RateLimitHeaders | undefined;
    for (let call = 0; call < calls; call += 1) limits = await consumeLimits(deps, c, site, key.id);
    const server = createMcpServer(
      site,
      {
        keyId: key.id,
        admin: key.kind === 'admin',
        counted: async (limit, work, admit) =>
          (await countedUse(deps.rateLimits, limit, site.id, work, admit)).value,
      },
      deps,
    );
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(c.req.raw, { parsedBody: body });
      return withHeaders(response, limits);
    } finally {
      // A JSON response is complete when it is returned: nothing of this request's server is left.
      await server.close();
    }
  });

  // Stateless: no stream to open and no session to end.
  app.on(['GET', 'DELETE'], '/:domain', (c: Context) => {
    throw new DocwrightError(
      'method_not_allowed',
      `Method ${c.req.method} is not allowed on ${c.req.path}; this MCP server is stateless, use POST`,
      { headers: { Allow: 'POST' } },
    );
  });
  return app;
}

/**
 * The project a key may reach the MCP server of `domain` on: the domain's assistant key, or an
 * admin key of its project. Any other key is not this server's: 401, as for no key.
 */
function siteFor(project: ProjectRow | undefined, key: ApiKeyRow, domain: string): ProjectRow {
  const belongs =
    project !== undefined &&
    (key.kind === 'assistant' ? key.domain === domain : key.project_id === project.id);
  if (!belongs) throw unauthorized(`This key does not open the documentation site ${domain}`);
  if (project.disabled_at) throw forbidden(`The documentation site ${domain} is disabled`);
  return project;
}

function withHeaders(response: Response, headers: RateLimitHeaders | undefined): Response {
  if (!headers) return response;
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
