import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from '../logger.js';

/** A Probot request handler: true when it answered the request. */
export type NodeHandler = (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;

type SetupAppFactory = (options: { host: string; port: number; log: Logger }) => () => Promise<NodeHandler>;
type CreateWebhookProxy = (options: {
  url: string;
  port: number;
  path: string;
  host: string;
  logger: Logger;
}) => Promise<unknown>;

/**
 * Probot 14 keeps its setup flow (the GitHub App manifest flow) and its smee.io webhook proxy out of
 * the package's exports: only its own `run()` server uses them, and that server cannot share a port
 * with our API. They are loaded from Probot's files here, so `serve` uses exactly Probot's flow.
 */
async function probotModule<T>(relative: string): Promise<T> {
  const entry = createRequire(import.meta.url).resolve('probot');
  return (await import(pathToFileURL(path.join(path.dirname(entry), relative)).href)) as T;
}

/**
 * Probot's setup flow (`/probot`: register the app from app.yml, then `/probot/setup` writes
 * APP_ID, PRIVATE_KEY and WEBHOOK_SECRET to `.env`). Built on the first visit, not at start: the
 * flow opens a smee.io channel and writes `.env`, which a plain local start must not do.
 */
export function lazySetupHandler(options: { host: string; port: number; logger: Logger }): NodeHandler {
  let handler: Promise<NodeHandler> | null = null;
  return async (request, response) => {
    const pathname = (request.url ?? '/').split('?')[0] ?? '/';
    if (pathname !== '/probot' && !pathname.startsWith('/probot/')) return false;
    handler ??= probotModule<{ setupAppFactory: SetupAppFactory }>('apps/setup.js').then(
      ({ setupAppFactory }) =>
        setupAppFactory({ host: options.host, port: options.port, log: options.logger })(),
    );
    return (await handler)(request, response);
  };
}

/** Forwards webhooks from a smee.io channel (WEBHOOK_PROXY_URL) to this server, as `probot run` does. */
export async function startWebhookProxy(options: {
  url: string;
  port: number;
  path: string;
  logger: Logger;
}): Promise<void> {
  const { createWebhookProxy } = await probotModule<{ createWebhookProxy: CreateWebhookProxy }>(
    'helpers/webhook-proxy.js',
  );
  await createWebhookProxy({ ...options, host: 'localhost' });
}
