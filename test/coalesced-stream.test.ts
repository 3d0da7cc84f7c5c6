import { describe, expect, it } from 'vitest';
import { coalescedStream } from '../src/assistant/streams/coalesced-stream.js';

async function chunksOf(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  for await (const chunk of stream) chunks.push(decoder.decode(chunk));
  return chunks;
}

describe('coalescedStream', () => {
  it('sends the first part at once and the parts written in one turn as one chunk', async () => {
    const stream = coalescedStream('start;', async (write) => {
      for (const part of ['a;', 'b;', 'c;']) {
        write(part);
        await Promise.resolve();
      }
    });
    expect(await chunksOf(stream)).toEqual(['start;', 'a;b;c;']);
  });

  it('sends parts that arrive over time as each arrives, and keeps every byte', async () => {
    const stream = coalescedStream('s;', async (write) => {
      write('one;');
      await new Promise((resolve) => setTimeout(resolve, 5));
      write('two;');
      await new Promise((resolve) => setTimeout(resolve, 5));
      write('three;');
    });
    expect(await chunksOf(stream)).toEqual(['s;', 'one;', 'two;', 'three;']);
  });

  it('runs the producer to its end when the reader goes away', async () => {
    let finished = false;
    const stream = coalescedStream('s;', async (write) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      write('after the reader left;');
      finished = true;
    });
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(finished).toBe(true);
  });
});
