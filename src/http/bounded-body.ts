import type { IncomingMessage, ServerResponse } from 'node:http';
import { DocwrightError } from '../core/errors.js';

/** A request body over the limit: how much was declared or had arrived when reading stopped. */
export class BodyTooLargeError extends DocwrightError {
  constructor(
    readonly limit: number,
    readonly received: number,
  ) {
    super('payload_too_large', `Request body is larger than ${limit} bytes`, { retryable: false });
  }
}

/**
 * Reads a request body of at most `maxBytes`. A declared Content-Length over the limit is refused
 * before a byte is read; a chunked body is counted as it arrives and refused at the first chunk
 * past the limit, so memory never holds more than the limit whatever the client sends.
 */
export function readBoundedBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    return Promise.reject(new BodyTooLargeError(maxBytes, declared));
  }
  // A declared length is filled in place: no second copy of the body while it is joined.
  const filled = Number.isFinite(declared) && declared > 0 ? Buffer.allocUnsafe(declared) : null;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        chunks.length = 0;
        reject(new BodyTooLargeError(maxBytes, size));
        return;
      }
      if (filled && size <= filled.length) chunk.copy(filled, size - chunk.length);
      else chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      // Node ends a body at its Content-Length, so a filled buffer is complete here.
      resolve(filled && chunks.length === 0 ? filled.subarray(0, size) : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
  });
}

/**
 * Answers a request whose body was not (fully) read and closes the connection once the answer is
 * sent: what is left of the body would otherwise be taken for the next request on a kept-alive
 * socket. Node sends `Connection: close` and ends the socket after the response when asked to.
 */
export function answerAndClose(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    connection: 'close',
  });
  response.end(text);
}
