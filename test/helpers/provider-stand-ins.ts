import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

/** One scripted answer of a model: a tool call, or the final text. */
export type Step = { call: [name: string, input: Record<string, unknown>] } | { text: string };

/** A request the stand-in received. */
export interface Received {
  method: string;
  /** The path with its query string. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, any>;
}

interface Reply {
  contentType: string;
  /** The whole body, or the parts of a stream, written one by one. */
  body: string | (string | Buffer)[];
}

/** A provider's wire format: which paths it answers, and a scripted step in its own JSON. */
export interface WireFormat {
  /** 'generate' or 'stream' for a model request of this format, null for any other path. */
  route(url: string, body: Record<string, any>): 'generate' | 'stream' | null;
  generate(step: Step, index: number): Reply;
  stream(text: string[], index: number): Reply;
}

const USAGE = { input: 400, output: 30 };

/** OpenAI Chat Completions, which Azure, Ollama and OpenAI-compatible servers speak. */
export const chatCompletions: WireFormat = {
  route: (url, body) =>
    new URL(url, 'http://x').pathname.endsWith('/chat/completions')
      ? body.stream
        ? 'stream'
        : 'generate'
      : null,
  generate(step, index) {
    const message =
      'text' in step
        ? { role: 'assistant', content: step.text }
        : {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: `call_${index}`,
                type: 'function',
                function: { name: step.call[0], arguments: JSON.stringify(step.call[1]) },
              },
            ],
          };
    return json({
      id: `chatcmpl-${index}`,
      object: 'chat.completion',
      created: 1_760_000_000 + index,
      model: 'stand-in',
      choices: [{ index: 0, message, finish_reason: 'text' in step ? 'stop' : 'tool_calls' }],
      usage: {
        prompt_tokens: USAGE.input,
        completion_tokens: USAGE.output,
        total_tokens: USAGE.input + USAGE.output,
      },
    });
  },
  stream(text, index) {
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      sse({
        id: `chatcmpl-${index}`,
        object: 'chat.completion.chunk',
        created: 1_760_000_000,
        model: 'stand-in',
        choices,
        ...extra,
      });
    return {
      contentType: 'text/event-stream',
      body: [
        ...text.map((part, at) =>
          chunk([
            {
              index: 0,
              delta: at === 0 ? { role: 'assistant', content: part } : { content: part },
              finish_reason: null,
            },
          ]),
        ),
        chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
        chunk([], {
          usage: {
            prompt_tokens: USAGE.input,
            completion_tokens: USAGE.output,
            total_tokens: USAGE.input + USAGE.output,
          },
        }),
        'data: [DONE]\n\n',
      ],
    };
  },
};

/** Gemini's `:generateContent` and `:streamGenerateContent`, spoken by Google AI and Vertex AI. */
export const gemini: WireFormat = {
  route(url) {
    const path = new URL(url, 'http://x').pathname;
    if (/\/models\/[^/]+:generateContent$/.test(path)) return 'generate';
    if (/\/models\/[^/]+:streamGenerateContent$/.test(path)) return 'stream';
    return null;
  },
  generate(step) {
    const part =
      'text' in step ? { text: step.text } : { functionCall: { name: step.call[0], args: step.call[1] } };
    return json({
      candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: geminiUsage,
    });
  },
  stream(text) {
    return {
      contentType: 'text/event-stream',
      body: text.map((part, at) =>
        sse({
          candidates: [
            {
              content: { role: 'model', parts: [{ text: part }] },
              index: 0,
              ...(at === text.length - 1 ? { finishReason: 'STOP' } : {}),
            },
          ],
          ...(at === text.length - 1 ? { usageMetadata: geminiUsage } : {}),
        }),
      ),
    };
  },
};

const geminiUsage = {
  promptTokenCount: USAGE.input,
  candidatesTokenCount: USAGE.output,
  totalTokenCount: USAGE.input + USAGE.output,
};

/** Bedrock's Converse API: JSON for `/converse`, the AWS event stream for `/converse-stream`. */
export const bedrockConverse: WireFormat = {
  route(url) {
    const path = new URL(url, 'http://x').pathname;
    if (/^\/model\/[^/]+\/converse$/.test(path)) return 'generate';
    if (/^\/model\/[^/]+\/converse-stream$/.test(path)) return 'stream';
    return null;
  },
  generate(step, index) {
    const content =
      'text' in step
        ? { text: step.text }
        : { toolUse: { toolUseId: `tooluse_${index}`, name: step.call[0], input: step.call[1] } };
    return json({
      output: { message: { role: 'assistant', content: [content] } },
      stopReason: 'text' in step ? 'end_turn' : 'tool_use',
      usage: bedrockUsage,
    });
  },
  stream(text) {
    return {
      contentType: 'application/vnd.amazon.eventstream',
      body: [
        eventFrame('messageStart', { role: 'assistant' }),
        ...text.map((part) =>
          eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: part } }),
        ),
        eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
        eventFrame('messageStop', { stopReason: 'end_turn' }),
        eventFrame('metadata', { usage: bedrockUsage, metrics: { latencyMs: 5 } }),
      ],
    };
  },
};

const bedrockUsage = {
  inputTokens: USAGE.input,
  outputTokens: USAGE.output,
  totalTokens: USAGE.input + USAGE.output,
};

/**
 * One message of the AWS event stream encoding: a prelude (total and header lengths, their CRC32),
 * string headers naming the event, the JSON payload and the CRC32 of all of it.
 */
function eventFrame(eventType: string, payload: unknown): Buffer {
  const headers = Buffer.concat(
    Object.entries({
      ':event-type': eventType,
      ':content-type': 'application/json',
      ':message-type': 'event',
    }).map(([name, value]) => {
      const nameBytes = Buffer.from(name);
      const valueBytes = Buffer.from(value);
      const header = Buffer.alloc(1 + nameBytes.length + 3 + valueBytes.length);
      header.writeUInt8(nameBytes.length, 0);
      nameBytes.copy(header, 1);
      header.writeUInt8(7, 1 + nameBytes.length); // 7: a string value
      header.writeUInt16BE(valueBytes.length, 2 + nameBytes.length);
      valueBytes.copy(header, 4 + nameBytes.length);
      return header;
    }),
  );
  const body = Buffer.from(JSON.stringify(payload));
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(12 + headers.length + body.length + 4, 0);
  prelude.writeUInt32BE(headers.length, 4);
  prelude.writeUInt32BE(zlib.crc32(prelude.subarray(0, 8)), 8);
  const message = Buffer.concat([prelude, headers, body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(message));
  return Buffer.concat([message, crc]);
}

/** A route's answer in another format than JSON, such as the XML of AWS's query APIs (STS). */
export class RawReply implements Reply {
  constructor(
    readonly contentType: string,
    readonly body: string,
  ) {}
}

function json(value: unknown): Reply {
  return { contentType: 'application/json', body: JSON.stringify(value) };
}

function sse(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

/**
 * A provider on a loopback socket: model requests of its wire format are answered with the next
 * scripted step (a stream request with `streamed`, in parts), other paths by `routes` (a token
 * endpoint, in JSON unless a RawReply), anything else with 404. Every request is kept.
 */
export async function serveProviderStandIn(
  wire: WireFormat,
  options: { steps?: Step[]; streamed?: string[]; routes?: Record<string, (request: Received) => unknown> },
) {
  const received: Received[] = [];
  let generated = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, any> = {};
      try {
        body = text ? (JSON.parse(text) as Record<string, any>) : {};
      } catch {
        body = { form: Object.fromEntries(new URLSearchParams(text)) };
      }
      const entry: Received = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body,
      };
      received.push(entry);
      const route = options.routes?.[new URL(entry.url, 'http://x').pathname];
      const kind = wire.route(entry.url, body);
      let reply: Reply | undefined;
      if (route) {
        const answer = route(entry);
        reply = answer instanceof RawReply ? answer : json(answer);
      } else if (kind === 'stream' && options.streamed)
        reply = wire.stream(options.streamed, received.length);
      else if (kind === 'generate' && options.steps?.[generated])
        reply = wire.generate(options.steps[generated++]!, generated);
      if (!reply) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `no route ${entry.method} ${entry.url}` } }));
        return;
      }
      response.writeHead(200, { 'content-type': reply.contentType });
      if (typeof reply.body === 'string') response.end(reply.body);
      else {
        for (const part of reply.body) response.write(part);
        response.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    /** The model requests, without the token exchanges. */
    modelRequests: () => received.filter((request) => wire.route(request.url, request.body)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
