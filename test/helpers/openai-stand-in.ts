import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer: tool calls `[name, arguments]`, or the final text. */
export type ChatStep = { calls: [string, Record<string, unknown>][] } | { text: string };

/**
 * An OpenAI-compatible chat completions endpoint on a socket, for a process under test that is
 * given it as `OPENAI_BASE_URL`: it answers each request with the next step of a script, in the
 * provider's own JSON, and keeps the request bodies (messages, tools, tool results).
 */
export async function serveOpenAIStandIn(steps: ChatStep[]) {
  const bodies: { messages: { role: string; content: unknown; tool_call_id?: string }[] }[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `no route ${request.method} ${request.url}` } }));
        return;
      }
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof bodies)[number]);
      const index = bodies.length;
      const step = steps[index - 1];
      if (!step) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `the script has no step ${index}` } }));
        return;
      }
      const message =
        'text' in step
          ? { role: 'assistant', content: step.text }
          : {
              role: 'assistant',
              content: null,
              tool_calls: step.calls.map(([name, args], call) => ({
                id: `call_${index}_${call}`,
                type: 'function',
                function: { name, arguments: JSON.stringify(args) },
              })),
            };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: `chatcmpl-${index}`,
          object: 'chat.completion',
          created: 1_760_000_000 + index,
          model: 'gpt-4o-mini-2024-07-18',
          choices: [{ index: 0, message, finish_reason: 'text' in step ? 'stop' : 'tool_calls' }],
          usage: { prompt_tokens: 400, completion_tokens: 30, total_tokens: 430 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    bodies,
    /** What the process sent back as the result of a tool call. */
    toolResult: (callId: string) =>
      bodies.flatMap((body) => body.messages).find((message) => message.tool_call_id === callId)?.content,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
