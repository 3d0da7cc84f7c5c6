import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServeProcess, type ServeProcess } from './helpers/serve-process.js';

/**
 * An OpenAI-compatible embeddings endpoint on a real socket, as OPENAI_BASE_URL points `serve` at
 * one: it answers every input with a small vector from its words and records the inputs of each
 * request.
 */
async function startEmbeddingServer() {
  const requests: string[][] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { input, model } = JSON.parse(body) as { input: string[]; model: string };
      requests.push(input);
      const data = input.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: [/deploy|region/i, /key|auth/i, /page|docs/i].map((topic) =>
          topic.test(text) ? 1 : 0.01,
        ),
      }));
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({ object: 'list', data, model, usage: { prompt_tokens: 1, total_tokens: 1 } }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, requests, close: () => server.close() };
}

describe('section embeddings across restarts of docwright serve', () => {
  let root: string;
  let embeddings: Awaited<ReturnType<typeof startEmbeddingServer>>;
  const processes: ServeProcess[] = [];

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-embeddings-'));
    embeddings = await startEmbeddingServer();
  });
  afterAll(async () => {
    for (const serve of processes) await serve.stop();
    embeddings?.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  const start = async (run: number) => {
    const serve = await startServeProcess(
      path.join(root, 'data'),
      {
        ...process.env,
        LOG_LEVEL: 'info',
        DOCWRIGHT_EMBEDDING_MODEL: 'openai:text-embedding-3-small',
        OPENAI_BASE_URL: embeddings.url,
        OPENAI_API_KEY: 'sk-test',
      },
      path.join(root, `serve-${run}.log`),
    );
    processes.push(serve);
    return serve;
  };
  const ask = async (serve: ServeProcess, key: string, question: string) => {
    const response = await fetch(`${serve.url}/discovery/v2/assistant/demo/message`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        fp: 'x',
        messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: question }] }],
      }),
    });
    expect(response.status).toBe(200);
    return response.text();
  };

  const logOf = async (serve: ServeProcess) =>
    (await fs.readFile(serve.logFile, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const inputs = (requests: string[][]) => requests.reduce((sum, input) => sum + input.length, 0);

  it('embeds the docs on the first start only: a restarted process sends just the question', async () => {
    const first = await start(1);
    const key = first.banner
      .find((line) => line.startsWith('Assistant key'))!
      .split(/\s+/)
      .at(-1)!;
    await ask(first, key, 'how do I deploy');
    const built = (await logOf(first)).find((line) => line.msg === 'docs index embedded');
    expect(built).toMatchObject({ reused: 0, withoutVector: 0 });
    const sections = built!.embedded as number;
    expect(sections).toBeGreaterThan(5);
    // The sections, and the question.
    expect(inputs(embeddings.requests)).toBe(sections + 1);
    await first.stop();

    const before = embeddings.requests.length;
    const second = await start(2);
    await ask(second, key, 'where are my keys');
    // Only the question goes out; the sections' vectors are read from the database.
    expect(embeddings.requests.slice(before).map((input) => input.length)).toEqual([1]);
    expect(await logOf(second)).toContainEqual(
      expect.objectContaining({ msg: 'docs index embedded', embedded: 0, reused: built!.sections }),
    );
  }, 60_000);
});
