import { ServerResponse } from 'node:http';
import type { Context } from 'hono';
import { answerResponse, gatheredWrites } from '../assistant/streams/coalesced-stream.js';
import type { AnswerStream } from '../assistant/streams/types.js';

/** The header @hono/node-server reads as "the handler wrote the response itself". */
const ALREADY_SENT = 'x-hono-already-sent';

/**
 * Sends a streamed answer. Under `docwright serve` it is written to Node's response directly: the
 * way through a web Response (its body stream, the adapter reading it back, a timer while it waits
 * for the second chunk) cost more per answer than the parts written. The first part leaves with
 * the rest of its turn's parts, and the end with the last ones: an extractive answer is two socket
 * writes. Without a Node response (`app.request`, other runtimes) it is a web Response.
 */
export function sendAnswer(c: Context, stream: AnswerStream): Response {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  if (!(outgoing instanceof ServerResponse)) return answerResponse(stream);
  // The headers middleware set so far (CORS); Vary is what the CORS middleware appends after the
  // handler returns, too late for a response already under way.
  const headers: Record<string, string> = { vary: 'Origin' };
  c.res.headers.forEach((value, name) => (headers[name] = value));
  writeAnswer(outgoing as ServerResponse, { ...headers, ...stream.headers }, stream);
  return new Response(null, { headers: { [ALREADY_SENT]: 'true' } });
}

function writeAnswer(outgoing: ServerResponse, headers: Record<string, string>, stream: AnswerStream): void {
  const writes = gatheredWrites((text) => outgoing.write(text));
  // A client gone before the end: later parts are dropped, the answer still runs to its end (the
  // thread stores it).
  outgoing.once('close', writes.stop);
  outgoing.writeHead(200, headers);
  writes.write(stream.first);
  void stream.produce(writes.write).finally(() => {
    if (!outgoing.writableEnded && !outgoing.destroyed) outgoing.end(writes.take());
    writes.stop();
  });
}
