/**
 * A byte stream whose writes made in one turn of the event loop leave as one chunk. An answer's
 * parts (start, sources, a delta every few words, finish) are written one at a time; sent one at a
 * time, each became its own socket write and its own trip through the web streams, which cost more
 * than composing the answer. Writes are gathered until the event loop is about to wait for
 * something (`setImmediate`), so parts that are ready together go out together, while a model's
 * deltas, which arrive over time, still leave as each arrives.
 *
 * `first` goes out at once: a client sees the thread id and the start of its answer without waiting.
 * After `produce` settles, what is gathered is sent and the stream closed. If the client goes away,
 * later writes are dropped; `produce` still runs to its end (the thread stores what was answered).
 */
export function coalescedStream(
  first: string,
  produce: (write: (text: string) => void) => Promise<void>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let pending = '';
  let scheduled = false;
  let open = true;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const flush = () => {
    scheduled = false;
    if (!open || pending === '') return;
    controller.enqueue(encoder.encode(pending));
    pending = '';
  };
  const write = (text: string) => {
    if (!open) return;
    pending += text;
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };
  return new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      controller.enqueue(encoder.encode(first));
      void produce(write).finally(() => {
        flush();
        if (open) controller.close();
        open = false;
      });
    },
    cancel() {
      open = false;
    },
  });
}
