import type { AnswerStream } from './types.js';

/**
 * Writes made in one turn of the event loop, gathered and sent as one. An answer's parts (start,
 * sources, a delta every few words, finish) are written one at a time; sent one at a time, each
 * became its own socket write and its own trip through the web streams, which cost more than
 * composing the answer. Writes are gathered until the event loop is about to wait for something
 * (`setImmediate`), so parts that are ready together go out together, while a model's deltas,
 * which arrive over time, still leave as each arrives.
 */
export function gatheredWrites(send: (text: string) => void): {
  write: (text: string) => void;
  /** What is gathered, taken out (to be sent with the end). */
  take: () => string;
  /** Later writes are dropped (the client went away). */
  stop: () => void;
} {
  let pending = '';
  let scheduled = false;
  let open = true;
  const flush = () => {
    scheduled = false;
    if (!open || pending === '') return;
    const text = pending;
    pending = '';
    send(text);
  };
  return {
    write: (text) => {
      if (!open) return;
      pending += text;
      if (scheduled) return;
      scheduled = true;
      setImmediate(flush);
    },
    take: () => {
      const text = pending;
      pending = '';
      return text;
    },
    stop: () => {
      open = false;
      pending = '';
    },
  };
}

/**
 * The answer as a web byte stream, its writes gathered per turn (`gatheredWrites`). `first` goes
 * out at once: a client sees the thread id and the start of its answer without waiting. After
 * `produce` settles, what is gathered is sent and the stream closed. If the client goes away, later
 * writes are dropped; `produce` still runs to its end (the thread stores what was answered).
 */
export function coalescedStream(
  first: string,
  produce: (write: (text: string) => void) => Promise<void>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let open = true;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const writes = gatheredWrites((text) => controller.enqueue(encoder.encode(text)));
  return new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      controller.enqueue(encoder.encode(first));
      void produce(writes.write).finally(() => {
        if (!open) return;
        const rest = writes.take();
        if (rest !== '') controller.enqueue(encoder.encode(rest));
        controller.close();
        open = false;
        writes.stop();
      });
    },
    cancel() {
      open = false;
      writes.stop();
    },
  });
}

/** The answer as a web Response (where no Node response is at hand: `app.request`, other runtimes). */
export function answerResponse(stream: AnswerStream): Response {
  return new Response(coalescedStream(stream.first, stream.produce), {
    status: 200,
    headers: stream.headers,
  });
}
