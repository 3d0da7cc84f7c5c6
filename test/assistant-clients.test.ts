/**
 * Real AI SDK client code reads our assistant streams: the v2 endpoint with AI SDK 5 (a current and
 * a strict-schema release), 6 and 7 (`DefaultChatTransport` + `readUIMessageStream`, the code under
 * `useChat`), and the deprecated v1 endpoint with AI SDK 4's `callChatApi` (`streamProtocol: 'data'`).
 * Over a real socket, as `docwright serve` writes them.
 */
import { callChatApi, type UIMessage as V4Message } from '@ai-sdk/ui-utils';
import * as ai6 from 'ai';
import * as ai5 from 'ai5';
import * as ai5strict from 'ai5strict';
import * as ai7 from 'ai7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type LocalServer } from './helpers/listen.js';
import { startTestService, type TestService } from './helpers/service.js';

/** What the test uses of each SDK: the same two functions, typed once (their generics differ by release). */
interface ClientModule {
  DefaultChatTransport: new (options: Record<string, unknown>) => {
    sendMessages(options: Record<string, unknown>): Promise<ReadableStream<unknown>>;
  };
  readUIMessageStream(options: { stream: ReadableStream<any> }): AsyncIterable<unknown>;
}
const clients = {
  'ai@5 (current)': ai5,
  'ai@5.0.216 (strict chunk schemas)': ai5strict,
  'ai@6': ai6,
  'ai@7': ai7,
} as unknown as Record<string, ClientModule>;
const QUESTION = 'How do I add a custom domain?';

let t: TestService;
let server: LocalServer;
let base: string;
beforeAll(async () => {
  t = await startTestService({ startWorker: false });
  server = await listen(t.service.app.fetch);
  base = server.url;
});
afterAll(async () => {
  await server.close();
  await t.cleanup();
});

/** The clients' requests, sent to the served app. */
const appFetch = ((url: string | URL | Request, init?: RequestInit) =>
  fetch(
    `${base}${new URL(url instanceof Request ? url.url : url.toString()).pathname}`,
    init,
  )) as typeof fetch;

interface V2Result {
  text: string;
  sources: { url: string; title?: string }[];
  threadId: string | undefined;
}

async function askV2(
  sdk: ClientModule,
  messages: unknown[],
  body: Record<string, unknown>,
): Promise<V2Result> {
  const transport = new sdk.DefaultChatTransport({
    api: 'http://localhost/discovery/v2/assistant/docs/message',
    headers: { Authorization: `Bearer ${t.assistantKey}` },
    body: { fp: 'anonymous', retrievalPageSize: 5, ...body },
    fetch: appFetch,
  });
  const stream = await transport.sendMessages({
    trigger: 'submit-message',
    chatId: 'chat-1',
    messageId: undefined,
    messages,
    abortSignal: undefined,
  });
  let last:
    | { parts: { type: string; text?: string; url?: string; title?: string }[]; metadata?: unknown }
    | undefined;
  for await (const message of sdk.readUIMessageStream({ stream })) last = message as never;
  const parts = last?.parts ?? [];
  return {
    text: parts
      .filter((part) => part.type === 'text')
      .map((part) => part.text)
      .join(''),
    sources: parts
      .filter((part) => part.type === 'source-url')
      .map((part) => ({ url: part.url!, title: part.title })),
    threadId: (last?.metadata as { threadId?: string } | undefined)?.threadId,
  };
}

const userMessage = (id: string, text: string) => ({ id, role: 'user', parts: [{ type: 'text', text }] });

describe.each(Object.entries(clients))('v2 endpoint read by %s', (_name, sdk) => {
  it('gets the streamed text, the sources and the threadId; a second request continues the thread', async () => {
    const first = await askV2(sdk, [userMessage('u1', QUESTION)], {});
    expect(first.text).toMatch(/acme domains add/);
    expect(first.text).toMatch(/\[1\]/);
    expect(first.sources[0]).toMatchObject({
      url: '/guides/custom-domains#add-a-domain',
      title: expect.stringContaining('Custom domains'),
    });
    expect(first.threadId).toMatch(/^thread_/);

    // The client sends only its newest message and the threadId: the stored history resolves "it".
    const second = await askV2(sdk, [userMessage('u2', 'How long does it take to verify?')], {
      threadId: first.threadId,
    });
    expect(second.threadId).toBe(first.threadId);
    expect(second.sources.some((source) => source.url.startsWith('/guides/custom-domains'))).toBe(true);
    const stored = await t.service.store.assistantThreads.messages(first.threadId!);
    expect(stored.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(stored[1]!.content).toBe(first.text);
  });
});

describe('v1 endpoint (deprecated) read by AI SDK 4 callChatApi with streamProtocol "data"', () => {
  async function askV1(messages: V4Message[], extra: Record<string, unknown> = {}) {
    let finished: { message: V4Message; finishReason?: string } | undefined;
    let response: Response | undefined;
    await callChatApi({
      api: 'http://localhost/discovery/v1/assistant/docs/message',
      // useChat with sendExtraMessageFields: true sends the messages whole.
      body: { id: 'chat-1', messages, fp: 'anonymous', retrievalPageSize: 5, ...extra },
      streamProtocol: 'data',
      credentials: undefined,
      headers: { Authorization: `Bearer ${t.assistantKey}` },
      abortController: () => null,
      restoreMessagesOnFailure: () => undefined,
      onResponse: (answer) => {
        response = answer;
      },
      onUpdate: () => undefined,
      onFinish: (message, options) => {
        finished = { message: message as V4Message, finishReason: options.finishReason };
      },
      onToolCall: undefined,
      generateId: () => 'generated-id',
      fetch: appFetch,
      lastMessage: messages.at(-1),
    });
    return { finished: finished!, response: response! };
  }

  const v4User = (id: string, content: string): V4Message => ({
    id,
    role: 'user',
    content,
    parts: [{ type: 'text', text: content }],
  });

  it('gets the text, the sources and the threadId annotation; a second request continues the thread', async () => {
    const { finished, response } = await askV1([v4User('u1', QUESTION)]);
    expect(response.headers.get('x-vercel-ai-data-stream')).toBe('v1');
    expect(response.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(finished.finishReason).toBe('stop');
    expect(finished.message.content).toMatch(/acme domains add/);
    const sources = finished.message.parts.filter((part) => part.type === 'source');
    expect(sources[0]).toMatchObject({
      source: { url: '/guides/custom-domains#add-a-domain', sourceType: 'url' },
    });
    const threadId = (finished.message.annotations?.[0] as { threadId: string }).threadId;
    expect(threadId).toMatch(/^thread_/);
    expect(response.headers.get('x-thread-id')).toBe(threadId);

    const second = await askV1([v4User('u2', 'How long does it take to verify?')], { threadId });
    expect((second.finished.message.annotations?.[0] as { threadId: string }).threadId).toBe(threadId);
    expect(await t.service.store.assistantThreads.messages(threadId)).toHaveLength(4);
  });
});
