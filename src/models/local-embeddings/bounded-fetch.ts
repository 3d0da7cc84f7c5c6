import { asError, DocwrightError } from '../../core/errors.js';

/**
 * Raised when the model hub sent nothing for `idleMs`: a machine that cannot reach it (a firewall
 * that drops packets, a proxy that never answers) would otherwise wait for the operating system's
 * timeouts, minutes, at every start.
 */
export class HubSilentError extends DocwrightError {
  override name = 'HubSilentError';
  constructor(
    readonly url: string,
    readonly idleMs: number,
  ) {
    super('unavailable', `no answer from ${url} within ${idleMs / 1000} s`, { retryable: true });
  }
}

/**
 * The hub answered with an HTTP error status (a missing file, a gated model, an outage). Read here,
 * where the status is: only the hub's own failures, a time-out and a rate limit may pass.
 */
export class HubStatusError extends DocwrightError {
  override name = 'HubStatusError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super('unavailable', message, { retryable: status >= 500 || status === 408 || status === 429 });
  }
}

/**
 * `fetch` that gives up when no byte arrives for `idleMs`: before the response starts, and between
 * the chunks of its body. A large model file that keeps arriving is never cut off, however long it
 * takes in all. Every failure (no answer, a network error, an HTTP error status) is also told to
 * `onFailure`: transformers.js takes some failed requests for missing optional files and goes on,
 * to fail later for a reason that no longer names the network.
 */
export function boundedFetch(
  base: typeof fetch,
  idleMs: number,
  onFailure: (error: Error) => void = () => {},
): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => abort.abort(new HubSilentError(url, idleMs)), idleMs);
      // A body nobody reads must not keep the process alive.
      timer.unref();
    };
    const failed = (error: unknown): Error => {
      clearTimeout(timer);
      const reason: unknown = abort.signal.aborted ? abort.signal.reason : error;
      const failure = asError(reason);
      onFailure(failure);
      return failure;
    };
    const signal = init?.signal ? AbortSignal.any([init.signal, abort.signal]) : abort.signal;
    arm();
    let response: Response;
    try {
      response = await base(input, { ...init, signal });
    } catch (error) {
      throw failed(error);
    }
    if (response.status >= 400)
      onFailure(
        new HubStatusError(
          `${url} answered ${response.status} ${response.statusText}`.trim(),
          response.status,
        ),
      );
    if (!response.body) {
      clearTimeout(timer);
      return response;
    }
    arm();
    const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(stream) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            clearTimeout(timer);
            stream.close();
            return;
          }
          arm();
          stream.enqueue(value);
        } catch (error) {
          stream.error(failed(error));
        }
      },
      cancel(reason) {
        clearTimeout(timer);
        return reader.cancel(reason);
      },
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
