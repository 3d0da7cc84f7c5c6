import { createUIMessageStream, createUIMessageStreamResponse } from 'ai';
import type { AnswerStreamInput } from './types.js';

/**
 * Version 2 (AI SDK 5 and later): the UI message stream over SSE, written with the AI SDK's own
 * `createUIMessageStream` and headers. `threadId` travels in `messageMetadata` of `start` and
 * `finish` (older AI SDK 5 releases validate chunks strictly and reject unknown top-level keys), and
 * `finish` carries no `finishReason` (those releases do not know it, later ones refuse "unknown").
 */
export function uiMessageStreamResponse(input: AnswerStreamInput): Response {
  const metadata = { threadId: input.threadId };
  const stream = createUIMessageStream({
    async execute({ writer }) {
      writer.write({ type: 'start', messageId: input.messageId, messageMetadata: metadata });
      for (const source of input.answer.sources) {
        writer.write({ type: 'source-url', sourceId: source.sourceId, url: source.url, title: source.title });
      }
      const id = `${input.messageId}-text`;
      writer.write({ type: 'text-start', id });
      let text = '';
      for await (const delta of input.answer.text) {
        text += delta;
        writer.write({ type: 'text-delta', id, delta });
      }
      writer.write({ type: 'text-end', id });
      await input.onComplete(text);
      writer.write({ type: 'finish', messageMetadata: metadata });
    },
    onError: (error) => {
      input.onError(error);
      return 'The assistant could not finish this answer. Please try again.';
    },
  });
  const response = createUIMessageStreamResponse({ stream, headers: input.headers });
  // The AI SDK sets `Connection: keep-alive`, which makes Node ignore a client's `Connection: close`
  // and hold the socket until its keep-alive timeout. Whether a connection stays open is the
  // server's and the client's business (a hop-by-hop header, forbidden in HTTP/2), not the body's.
  response.headers.delete('connection');
  return response;
}
