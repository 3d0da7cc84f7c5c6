import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ApplicationFunction, Probot } from 'probot';
import { DocwrightError, type ErrorCode } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { answerAndClose, BodyTooLargeError, readBoundedBody } from '../http/bounded-body.js';
import { statusOf } from '../http/error-status.js';
import { malformedPayload } from './webhook-payloads.js';

/** Answers the webhook path; calls `next` for everything else. */
export type WebhookMiddleware = (
  request: IncomingMessage,
  response: ServerResponse,
  next?: () => void,
) => Promise<boolean>;

/** What became of one delivery (for the log and the metrics). */
export type DeliveryOutcome =
  | 'accepted'
  | 'still_processing'
  | 'failed'
  | 'too_large'
  | 'bad_signature'
  | 'malformed'
  | 'busy'
  | 'refused';

export interface WebhookReceiverOptions {
  path: string;
  secret: string;
  /** Largest delivery read, in bytes. */
  maxBytes: number;
  /**
   * Bytes of all deliveries being read at once (default: the larger of `maxBytes` and 32 MiB):
   * until its signature is checked a delivery is anyone's, so many connections each sending a body
   * just under the cap must not add up to more memory than this. A delivery past it is answered
   * 503 (with Retry-After) before it is read. GitHub's deliveries are mostly a few kilobytes.
   */
  maxBytesInFlight?: number;
  logger: Logger;
  /** How long a delivery's handlers may run before GitHub is told `202 still processing` (GitHub waits 10 s). */
  timeoutMs?: number;
  onDelivery?: (outcome: DeliveryOutcome) => void;
}

interface Delivery {
  event: string;
  id: string;
  size: number;
}

/**
 * Loads the app into `probot` and returns the middleware that receives its deliveries. It does what
 * Probot's middleware does, in an order that is safe against anyone on the internet: the body is read
 * with a bound (GitHub's own cap), the signature is checked on those bytes, the payload is parsed and
 * its shape checked, and only then do handlers run. A refused delivery costs at most the bound in
 * memory and one log line without its payload.
 */
export async function createWebhookMiddleware(
  probot: Probot,
  app: ApplicationFunction,
  options: WebhookReceiverOptions,
): Promise<WebhookMiddleware> {
  await probot.load(app, {
    cwd: process.cwd(),
    addHandler: () => {
      throw new DocwrightError('internal_error', 'docwright serves no routes of Probot apps', {
        retryable: false,
      });
    },
  });
  const budget = new ReadBudget(options.maxBytesInFlight ?? Math.max(options.maxBytes, 32 * 1024 * 1024));
  return (request, response, next) => receive(probot, options, budget, request, response, next);
}

/** Bytes reserved by the deliveries being read now. */
class ReadBudget {
  private used = 0;
  constructor(private readonly limit: number) {}

  /** Reserves `bytes`, or returns null when they do not fit; call the returned function to give them back. */
  reserve(bytes: number): (() => void) | null {
    if (this.used + bytes > this.limit) return null;
    this.used += bytes;
    let released = false;
    return () => {
      if (!released) this.used -= bytes;
      released = true;
    };
  }
}

async function receive(
  probot: Probot,
  options: WebhookReceiverOptions,
  budget: ReadBudget,
  request: IncomingMessage,
  response: ServerResponse,
  next?: () => void,
): Promise<boolean> {
  if (pathOf(request.url) !== options.path.replace(/\/+$/, '')) {
    next?.();
    return false;
  }
  const delivery: Delivery = {
    event: header(request, 'x-github-event') ?? '',
    id: header(request, 'x-github-delivery') ?? '',
    size: Number(request.headers['content-length'] ?? 0) || 0,
  };
  const refuse = (outcome: DeliveryOutcome, code: ErrorCode, sentence: string) => {
    // The status of a code is the server edge's one mapping, here as for the API.
    const status = statusOf({ code });
    options.logger.warn({ ...delivery, status, reason: sentence }, 'webhook delivery refused');
    options.onDelivery?.(outcome);
    answerAndClose(response, status, { error: sentence, code }, REFUSAL_HEADERS[status] ?? {});
    return true;
  };
  const problem = headerProblem(request);
  if (problem) return refuse('refused', ...problem);
  const read = await readPayload(request, options, budget, delivery);
  if ('refusal' in read) return refuse(...read.refusal);
  const { payload } = read;
  const malformed = malformedPayload(delivery.event, payload);
  if (malformed) return refuse('malformed', 'invalid_webhook', malformed);
  await dispatch(probot, options, delivery, payload, response);
  return true;
}

/**
 * Runs the handlers of a verified delivery. GitHub gives up on an answer after 10 s: a delivery
 * whose handlers take longer is answered `202` and finishes in the background. A handler's failure
 * is logged by Probot's error handler (the payload is kept out of logs by the logger's serializer);
 * GitHub is told only that it failed.
 */
async function dispatch(
  probot: Probot,
  options: WebhookReceiverOptions,
  delivery: Delivery,
  payload: unknown,
  response: ServerResponse,
): Promise<void> {
  const event = { id: delivery.id, name: delivery.event, payload } as Parameters<Probot['receive']>[0];
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), options.timeoutMs ?? 9000);
  });
  const handled = probot.receive(event).then(
    () => 'accepted' as const,
    () => 'failed' as const,
  );
  const outcome = await Promise.race([handled, timedOut]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    options.onDelivery?.('still_processing');
    response.writeHead(202, { 'content-type': 'text/plain' }).end('still processing\n');
    return;
  }
  options.onDelivery?.(outcome);
  if (outcome === 'accepted') {
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
  } else {
    const body = JSON.stringify({
      error: 'The delivery could not be handled; see the server log',
      code: 'internal_error',
      retryable: true,
    });
    response.writeHead(500, { 'content-type': 'application/json' }).end(body);
  }
}

type Refusal = [outcome: DeliveryOutcome, code: ErrorCode, sentence: string];

/**
 * The body, read within the cap and within the budget of bytes being read at once, its signature
 * checked over the bytes as read, then parsed. `delivery.size` is updated with what arrived.
 */
async function readPayload(
  request: IncomingMessage,
  options: WebhookReceiverOptions,
  budget: ReadBudget,
  delivery: Delivery,
): Promise<{ payload: unknown } | { refusal: Refusal }> {
  // A declared length over the cap is refused without reading: it needs no share of the budget.
  const release = budget.reserve(delivery.size > options.maxBytes ? 0 : delivery.size || options.maxBytes);
  if (!release) {
    const sentence = 'Too many webhook deliveries are being read at once; retry shortly';
    return { refusal: ['busy', 'unavailable', sentence] };
  }
  try {
    let body: Buffer;
    try {
      body = await readBoundedBody(request, options.maxBytes);
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) throw error;
      delivery.size = error.received;
      const sentence = `Webhook delivery is larger than ${options.maxBytes} bytes`;
      return { refusal: ['too_large', 'payload_too_large', sentence] };
    }
    delivery.size = body.length;
    if (!signatureMatches(options.secret, body, header(request, 'x-hub-signature-256') ?? '')) {
      const sentence =
        'The signature (X-Hub-Signature-256) does not match the payload and the webhook secret';
      return { refusal: ['bad_signature', 'invalid_webhook', sentence] };
    }
    try {
      return { payload: JSON.parse(body.toString('utf8')) };
    } catch {
      return { refusal: ['malformed', 'invalid_json', 'The webhook payload is not valid JSON'] };
    }
  } finally {
    release();
  }
}

/** Headers that belong to a refusal's status. */
const REFUSAL_HEADERS: Record<number, Record<string, string>> = {
  405: { allow: 'POST' },
  503: { 'retry-after': '5' },
};

/** What is wrong with a delivery before its body is read: method, content type, GitHub's headers. */
function headerProblem(request: IncomingMessage): [code: ErrorCode, sentence: string] | null {
  if (request.method !== 'POST') {
    return ['method_not_allowed', `Webhook deliveries are POSTed, not sent with ${request.method}`];
  }
  if (!/^\s*application\/json\s*(;|$)/i.test(header(request, 'content-type') ?? '')) {
    return ['unsupported_media_type', 'Webhook deliveries must be application/json'];
  }
  const missing = ['x-github-event', 'x-github-delivery', 'x-hub-signature-256'].filter(
    (name) => !header(request, name),
  );
  if (missing.length > 0) {
    return ['invalid_webhook', `Required webhook headers missing: ${missing.join(', ')}`];
  }
  return null;
}

/**
 * GitHub's `X-Hub-Signature-256`: HMAC-SHA256 of the raw bytes with the webhook secret, compared in
 * constant time. Computed over the Buffer as read, so no string copy of a refused body is made.
 */
function signatureMatches(secret: string, body: Buffer, signature: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function pathOf(url: string | undefined): string {
  try {
    return new URL(url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
