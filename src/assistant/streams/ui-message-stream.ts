import { UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk } from 'ai';
import type { AnswerStream, AnswerStreamInput } from './types.js';

const ERROR_TEXT = 'The assistant could not finish this answer. Please try again.';

/** One server-sent event of the UI message stream, as the AI SDK's `JsonToSseTransformStream` writes it. */
const event = (chunk: UIMessageChunk) => `data: ${JSON.stringify(chunk)}\n\n`;

/**
 * Version 2 (AI SDK 5 and later): the UI message stream over SSE, the AI SDK's chunk types and
 * headers, written by hand rather than through `createUIMessageStreamResponse`: its chain of web
 * streams (chunks → SSE text → bytes) and one socket write per chunk cost several times what
 * composing an extractive answer does, while here the chunks ready together leave together.
 * `threadId` travels in `messageMetadata` of `start` and `finish` (older AI SDK 5 releases validate
 * chunks strictly and reject unknown top-level keys), and `finish` carries no `finishReason` (those
 * releases do not know it, later ones refuse "unknown"). A failure mid-answer is an `error` chunk
 * with a generic text; the stream then ends as the AI SDK's does, with `[DONE]`.
 */
export function uiMessageStream(input: AnswerStreamInput): AnswerStream {
  const metadata = { threadId: input.threadId };
  const start = event({ type: 'start', messageId: input.messageId, messageMetadata: metadata });
  const produce = async (write: (text: string) => void) => {
    try {
      for (const source of input.answer.sources) {
        write(event({ type: 'source-url', sourceId: source.sourceId, url: source.url, title: source.title }));
      }
      const id = `${input.messageId}-text`;
      write(event({ type: 'text-start', id }));
      let text = '';
      for await (const delta of input.answer.text) {
        text += delta;
        write(event({ type: 'text-delta', id, delta }));
      }
      write(event({ type: 'text-end', id }));
      await input.onComplete(text);
      write(event({ type: 'finish', messageMetadata: metadata }));
    } catch (error) {
      input.onError(error);
      write(event({ type: 'error', errorText: ERROR_TEXT }));
    }
    write('data: [DONE]\n\n');
  };
  // Not the AI SDK's `Connection: keep-alive`, which makes Node ignore a client's `Connection: close`
  // and hold the socket until its keep-alive timeout. Whether a connection stays open is the
  // server's and the client's business (a hop-by-hop header, forbidden in HTTP/2), not the body's.
  const { connection: _connection, ...headers } = UI_MESSAGE_STREAM_HEADERS;
  return { headers: { ...headers, ...input.headers }, first: start, produce };
}
