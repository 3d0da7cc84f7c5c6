import { pino, type Logger } from 'pino';

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

export function createLogger(options: { level?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  return pino(
    { level: options.level ?? 'info', redact: { paths: REDACT, censor: '[redacted]' }, base: undefined },
    options.destination ?? process.stderr,
  );
}

/** A logger that drops everything: for tests and library callers that pass none. */
export const silentLogger: Logger = pino({ level: 'silent' });
