import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SmeeClient } from 'smee-client';
import type { Logger } from '../core/logger.js';
import { makePrivateIfPresent } from '../core/private-files.js';
import { answerAndClose, BodyTooLargeError, readBoundedBody } from '../http/bounded-body.js';
import { statusOf } from '../http/error-status.js';

/** A Probot request handler: true when it answered the request. */
export type NodeHandler = (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;

type SetupAppFactory = (options: {
  host: string;
  port: number;
  log: SetupLog;
  SmeeClient: typeof SmeeClient;
  updateEnv?: (env: Record<string, string>) => Record<string, string>;
}) => () => Promise<NodeHandler>;

/** The part of a logger Probot's setup flow writes to. */
interface SetupLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: unknown): void;
}

/**
 * Probot 14 keeps its setup flow (the GitHub App manifest flow) and its smee.io webhook proxy out of
 * the package's exports: only its own `run()` server uses them, and that server cannot share a port
 * with our API. They are loaded from Probot's files here, so `serve` uses exactly Probot's flow.
 */
async function probotModule<T>(relative: string): Promise<T> {
  const entry = createRequire(import.meta.url).resolve('probot');
  return (await import(pathToFileURL(path.join(path.dirname(entry), relative)).href)) as T;
}

export interface SetupHandlerOptions {
  host: string;
  port: number;
  /** The address GitHub and people reach this server at: the app's webhook and redirect URLs. */
  publicUrl: string;
  /** Largest body of the flow's one POST (`/probot/import`, an app id and a PEM). */
  maxBodyBytes: number;
  logger: Logger;
  /** smee.io's client, which makes the channel GitHub delivers the new app's webhooks to. */
  SmeeClient?: typeof SmeeClient;
  /** Where the new app's credentials go; default: Probot's, into `.env` of the current folder. */
  updateEnv?: (env: Record<string, string>) => Record<string, string>;
}

/**
 * Probot's setup flow (`/probot`: register the app from app.yml, then `/probot/setup` writes
 * APP_ID, PRIVATE_KEY and WEBHOOK_SECRET to `.env`). Built on the first visit, not at start: the
 * flow opens a smee.io channel and writes `.env`, which a plain local start must not do.
 */
export function lazySetupHandler(options: SetupHandlerOptions): NodeHandler {
  let handler: Promise<NodeHandler> | null = null;
  const publicUrl = new URL(options.publicUrl);
  return async (request, response) => {
    const pathname = (request.url ?? '/').split('?')[0] ?? '/';
    if (pathname !== '/probot' && !pathname.startsWith('/probot/')) return false;
    handler ??= probotModule<{ setupAppFactory: SetupAppFactory }>('apps/setup.js').then(
      ({ setupAppFactory }) =>
        setupAppFactory({
          host: options.host,
          port: options.port,
          log: setupLog(options.logger, `${options.publicUrl}/probot`),
          // A channel on smee.io, so GitHub can reach a server on localhost: the app's webhook URL.
          SmeeClient: options.SmeeClient ?? SmeeClient,
          ...(options.updateEnv ? { updateEnv: options.updateEnv } : {}),
        })(),
    );
    pinAddress(request, publicUrl);
    if (request.method === 'POST') {
      try {
        // Probot reads a string body as it is instead of reading the stream without a bound.
        (request as IncomingMessage & { body?: string }).body = (
          await readBoundedBody(request, options.maxBodyBytes)
        ).toString('utf8');
      } catch (error) {
        if (!(error instanceof BodyTooLargeError)) throw error;
        answerAndClose(response, statusOf(error), {
          error: error.message,
          code: error.code,
          retryable: error.retryable,
        });
        return true;
      }
    }
    const handled = await (await handler)(request, response);
    // Probot writes APP_ID, PRIVATE_KEY and WEBHOOK_SECRET to .env with the umask's mode.
    if (pathname === '/probot/setup' || pathname === '/probot/import') {
      makePrivateIfPresent(path.join(process.cwd(), '.env'));
    }
    return handled;
  };
}

/**
 * Probot builds the manifest's webhook and redirect URLs from the request's Host (or
 * X-Forwarded-Host and -Proto) headers, which whoever sends the request chooses: a page fetched
 * with `Host: evil.example` would register an app that sends its webhooks there. The headers are
 * set to the configured public address before Probot reads them.
 */
function pinAddress(request: IncomingMessage, publicUrl: URL): void {
  request.headers.host = publicUrl.host;
  delete request.headers['x-forwarded-host'];
  // Probot takes any X-Forwarded-Proto as https.
  if (publicUrl.protocol === 'https:') request.headers['x-forwarded-proto'] = 'https';
  else delete request.headers['x-forwarded-proto'];
}

/**
 * Probot's setup flow, as it speaks to the log: its welcome lines point at the server's root (the
 * chat page here) and at `.env` instructions; they are replaced by the one line that matters.
 */
function setupLog(logger: Logger, setupUrl: string): SetupLog {
  let welcomed = false;
  return {
    info(message) {
      if (
        !/Welcome to Probot|setup mode|APP_ID and PRIVATE_KEY|configured in \.env|configure \.env|restart the server|^$/.test(
          message,
        )
      ) {
        logger.info(message);
      } else if (!welcomed) {
        welcomed = true;
        logger.info({ url: setupUrl }, `register the GitHub App at ${setupUrl}, then restart`);
      }
    },
    warn: (message) => logger.warn(message),
    error: (message) => logger.error({ err: message }, 'the GitHub App setup flow failed'),
  };
}

/** Forwards webhooks from a smee.io channel (WEBHOOK_PROXY_URL) to this server, as `probot run` does. */
export async function startWebhookProxy(options: {
  url: string;
  port: number;
  path: string;
  logger: Logger;
}): Promise<void> {
  const client = new SmeeClient({
    source: options.url,
    target: `http://localhost:${options.port}${options.path}`,
    logger: {
      info: (message) => options.logger.info(message),
      error: (message) => options.logger.warn(message),
    },
  });
  await client.start();
}
