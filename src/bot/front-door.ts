import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Logger } from '../core/logger.js';
import type { NodeHandler } from './probot-setup.js';
import type { WebhookMiddleware } from './webhook-receiver.js';

export { createWebhookMiddleware } from './webhook-receiver.js';

export interface FrontDoorOptions {
  /** Null when no webhooks are received (no app, or token mode without WEBHOOK_SECRET). */
  webhooks: WebhookMiddleware | null;
  webhookPath: string;
  /** Probot's setup flow under `/probot`, when the app is not registered yet. */
  setup: NodeHandler | null;
  logger: Logger;
}

/**
 * What sits in front of the API in the one `node:http` server: the webhook path
 * goes to the webhook receiver (and from there to Probot), `/probot…` to the setup flow, the rest
 * to `next` (the Hono app). Probot's manifest points an app registered through the setup flow at `/`, so a GitHub delivery there is
 * taken as one to the webhook path.
 */
function frontDoor(
  options: FrontDoorOptions,
): (request: IncomingMessage, response: ServerResponse, next: () => void) => void {
  return (request, response, next) => {
    const handle = async () => {
      if (options.webhooks) {
        if (request.method === 'POST' && request.url === '/' && request.headers['x-github-event']) {
          request.url = options.webhookPath;
        }
        let passed = false;
        await options.webhooks(request, response, () => (passed = true));
        if (!passed) return;
      }
      if (options.setup && (await options.setup(request, response))) return;
      next();
    };
    handle().catch((error: unknown) => {
      options.logger.error({ err: error, url: request.url }, 'request handling failed');
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end();
    });
  };
}

/** A `createServer` for @hono/node-server that puts the front door before Hono's listener. */
export function createServerWithFrontDoor(options: FrontDoorOptions): typeof createServer {
  const door = frontDoor(options);
  return ((serverOptions: object, listener: RequestListener) =>
    createServer(serverOptions, (request, response) =>
      door(request, response, () => void listener(request, response)),
    )) as typeof createServer;
}
