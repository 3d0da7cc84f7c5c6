import { pino, stdSerializers, type Logger } from 'pino';
import { PinoPretty } from 'pino-pretty';
import { redactSecrets } from './redact.js';

export type { Logger };

/** Paths that may carry secrets: pino replaces them with [redacted] wherever they appear. */
const REDACT = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'key',
  'apiKey',
  'token',
  'privateKey',
  'webhookSecret',
  '*.authorization',
  '*.apiKey',
  '*.token',
];

/**
 * Fields of an error that hold what a client sent rather than what went wrong: @octokit/webhooks
 * attaches the whole delivery (`event.payload`) to a handler's error, and HTTP client errors carry
 * the request and response. Logging them would copy up to a webhook's size per line.
 */
const BULKY_ERROR_FIELDS = ['event', 'payload', 'request', 'response', 'body'];

/** An error as it is logged: type, message and stack with secrets redacted, and no payloads. */
function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return typeof error === 'string' ? redactSecrets(error) : error;
  const serialized = stdSerializers.err(error) as unknown as Record<string, unknown>;
  for (const field of BULKY_ERROR_FIELDS) delete serialized[field];
  if (typeof serialized.message === 'string') serialized.message = redactSecrets(serialized.message);
  if (typeof serialized.stack === 'string') serialized.stack = redactSecrets(serialized.stack);
  if (Array.isArray(serialized.errors)) serialized.errors = serialized.errors.map(serializeError);
  return serialized;
}

/** `json`: one object per line, for log collectors; `pretty`: one readable line per entry, for people. */
export type LogFormat = 'json' | 'pretty';

export function createLogger(
  options: { level?: string; destination?: NodeJS.WritableStream; format?: LogFormat } = {},
): Logger {
  const destination = options.destination ?? process.stderr;
  // A person at a terminal reads lines; anything else (a pipe, a file, a collector) gets JSON.
  const format = options.format ?? (isTerminal(destination) ? 'pretty' : 'json');
  return pino(
    {
      level: options.level ?? 'info',
      redact: { paths: REDACT, censor: '[redacted]' },
      base: undefined,
      serializers: { err: serializeError, error: serializeError },
      hooks: {
        // Messages are built from values at hand (a path, a prompt's first words): redacted too.
        logMethod(args, method) {
          const redacted = args.map((arg) => (typeof arg === 'string' ? redactSecrets(arg) : arg));
          method.apply(this, redacted as Parameters<typeof method>);
        },
      },
    },
    format === 'pretty'
      ? PinoPretty({
          destination,
          // Written as they come, so a line logged just before the process exits is not lost.
          sync: true,
          colorize: isTerminal(destination),
          translateTime: 'HH:MM:ss',
          ignore: 'pid,hostname',
        })
      : destination,
  );
}

function isTerminal(stream: NodeJS.WritableStream): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

/** A logger that drops everything: for tests and library callers that pass none. */
export const silentLogger: Logger = pino({ level: 'silent' });
