import type { AnswerStream, AnswerStreamInput } from './types.js';

/**
 * Version 1 (deprecated; AI SDK 4 with `streamProtocol: 'data'`): the data stream protocol, one
 * `<code>:<JSON>\n` line per part — `f:` message start, `h:` source, `0:` text, `8:` message
 * annotations (our `threadId`), `e:` step finish, `d:` message finish, `3:` error.
 * AI SDK 5 dropped the helpers that wrote it, so the few codes we use are written here.
 */
const DATA_STREAM_HEADERS = {
  'content-type': 'text/plain; charset=utf-8',
  'cache-control': 'no-cache',
  'x-vercel-ai-data-stream': 'v1',
  'x-accel-buffering': 'no',
} as const;

const part = (code: string, value: unknown) => `${code}:${JSON.stringify(value)}\n`;

export function dataStream(input: AnswerStreamInput): AnswerStream {
  const usage = { promptTokens: 0, completionTokens: 0 };
  const produce = async (write: (text: string) => void) => {
    try {
      for (const source of input.answer.sources) {
        write(part('h', { sourceType: 'url', id: source.sourceId, url: source.url, title: source.title }));
      }
      let text = '';
      for await (const delta of input.answer.text) {
        text += delta;
        write(part('0', delta));
      }
      await input.onComplete(text);
      write(part('8', [{ threadId: input.threadId }]));
      write(part('e', { finishReason: 'stop', usage, isContinued: false }));
      write(part('d', { finishReason: 'stop', usage, threadId: input.threadId }));
    } catch (error) {
      input.onError(error);
      write(part('3', 'The assistant could not finish this answer. Please try again.'));
    }
  };
  const headers = { ...DATA_STREAM_HEADERS, ...input.headers };
  return { headers, first: part('f', { messageId: input.messageId }), produce };
}
