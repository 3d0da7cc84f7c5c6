/**
 * Talking to the v2 assistant endpoint from a browser, shared by the chat page and the widget:
 * the request, the error message a reader sees, and the reading of the AI SDK 5 UI-message stream
 * (server-sent events, one JSON chunk per `data:` line, closed by `data: [DONE]`).
 */

/* global crypto, fetch, TextDecoderStream, URL -- browser globals (web/ runs in browsers) */

/** How many passages the assistant retrieves per question; the contract recommends 5. */
const RETRIEVAL_PAGE_SIZE = 5;

/** An error whose message is meant for the reader, as they will see it. */
export class ChatError extends Error {
  /**
   * @param {string} message
   * @param {{ status?: number, code?: string }} [details]
   */
  constructor(message, details = {}) {
    super(message);
    this.name = 'ChatError';
    this.status = details.status;
    this.code = details.code;
  }
}

/**
 * A random id. `crypto.randomUUID` exists only in secure contexts, and a docs site may embed the
 * widget over plain http, so this uses `getRandomValues`, which exists everywhere.
 * @returns {string}
 */
export function randomId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The reader's fingerprint (`fp`): a random id kept in localStorage so one browser's
 * conversations are grouped. Storage can be blocked (private windows, third-party contexts): then
 * the id lives as long as the page.
 * @param {Storage | undefined} storage
 * @returns {string}
 */
export function fingerprint(storage) {
  const name = 'docwright.fp';
  try {
    const known = storage?.getItem(name);
    if (known) return known;
    const created = randomId();
    storage?.setItem(name, created);
    return created;
  } catch {
    return randomId();
  }
}

/**
 * The assistant's v2 message endpoint for a domain.
 * @param {string | URL} base the docwright server, e.g. `https://docwright.example.com/`
 * @param {string} domain
 * @returns {string}
 */
export function messageEndpoint(base, domain) {
  return new URL(`discovery/v2/assistant/${encodeURIComponent(domain)}/message`, base).href;
}

/**
 * The MCP server of a domain on the same server (Streamable HTTP), for an agent's configuration.
 * @param {URL | string} base the server's root
 * @param {string} domain
 * @returns {string}
 */
export function mcpEndpoint(base, domain) {
  return new URL(`mcp/${encodeURIComponent(domain)}`, base).href;
}

/**
 * An answer as Markdown to paste elsewhere: its text, with each `[n]` citation made a link to its
 * source, and the sources listed after it.
 * @param {string} text the answer's Markdown
 * @template {{ title?: string, url: string }} S
 * @param {S[]} sources in the order the stream cited them
 * @param {(source: S) => string} hrefOf where a source is read
 * @returns {string}
 */
export function answerMarkdown(text, sources, hrefOf) {
  const linked = text.replace(/\[(\d+)\](?!\()/g, (whole, number) => {
    const source = sources[Number(number) - 1];
    return source ? `[[${number}]](${hrefOf(source)})` : whole;
  });
  const seen = new Set();
  const listed = sources.filter((source) => !seen.has(source.url) && seen.add(source.url));
  if (listed.length === 0) return linked.trim();
  const lines = listed.map((source) => `- [${source.title || source.url}](${hrefOf(source)})`);
  return `${linked.trim()}\n\nSources:\n${lines.join('\n')}`;
}

/**
 * The feedback endpoint next to a domain's message endpoint.
 * @param {string} endpoint the message endpoint (`messageEndpoint`)
 * @returns {string}
 */
export function feedbackEndpoint(endpoint) {
  return endpoint.replace(/\/message$/, '/feedback');
}

/**
 * Rates one answer up or down, with an optional comment; a second rating replaces the first.
 * @param {{
 *   endpoint: string, apiKey: string, threadId: string, messageId: string,
 *   rating: 'up' | 'down', comment?: string,
 * }} request
 * @returns {Promise<void>}
 */
export async function sendFeedback(request) {
  let response;
  try {
    response = await fetch(request.endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${request.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        threadId: request.threadId,
        messageId: request.messageId,
        rating: request.rating,
        ...(request.comment ? { comment: request.comment.slice(0, 2000) } : {}),
      }),
    });
  } catch {
    throw new ChatError('Could not send your feedback. Check your connection and try again.');
  }
  if (!response.ok) throw await errorOf(response);
}

/**
 * @typedef {{ type: 'code' | 'textSelection', value: string, path?: string }} ContextItem
 * @typedef {{ role: 'user' | 'assistant', text: string }} Turn
 * @typedef {{ sourceId: string, url: string, title?: string }} Source
 * @typedef {{
 *   onThreadId?: (threadId: string) => void,
 *   onSource?: (source: Source) => void,
 *   onText?: (text: string) => void,
 * }} StreamHandlers
 */

/**
 * Sends one question and reads the streamed answer, calling the handlers as chunks arrive.
 * With a `threadId` the server has the history, so only the last turn is sent; without one (first
 * question, or the thread was never started because the first request failed) the whole
 * conversation is.
 * @param {{
 *   endpoint: string, apiKey: string, fp: string, turns: Turn[], threadId?: string | null,
 *   currentPath?: string, context?: ContextItem[], signal?: AbortSignal,
 * }} request
 * @param {StreamHandlers} handlers
 * @returns {Promise<{ text: string, threadId: string | null, messageId: string | null }>}
 */
export async function askAssistant(request, handlers = {}) {
  const turns = request.threadId ? request.turns.slice(-1) : request.turns;
  const body = {
    fp: request.fp,
    messages: turns.map((turn) => ({
      id: randomId(),
      role: turn.role,
      parts: [{ type: 'text', text: turn.text }],
    })),
    retrievalPageSize: RETRIEVAL_PAGE_SIZE,
    ...(request.threadId ? { threadId: request.threadId } : {}),
    ...(request.currentPath ? { currentPath: request.currentPath.slice(0, 200) } : {}),
    ...(request.context?.length ? { context: request.context } : {}),
  };
  let response;
  try {
    response = await fetch(request.endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${request.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: request.signal,
    });
  } catch (error) {
    if (request.signal?.aborted) throw error;
    throw new ChatError('Could not reach the assistant. Check your connection and try again.');
  }
  if (!response.ok || !response.body) throw await errorOf(response);
  const threadId = response.headers.get('x-thread-id');
  if (threadId) handlers.onThreadId?.(threadId);
  return readStream(response.body, threadId, handlers);
}

/**
 * @param {ReadableStream<Uint8Array>} body
 * @param {string | null} threadId
 * @param {StreamHandlers} handlers
 */
async function readStream(body, threadId, handlers) {
  /** @type {{ text: string, threadId: string | null, messageId: string | null, done: boolean }} */
  const state = { text: '', threadId, messageId: null, done: false };
  let buffer = '';
  // The cast: TypeScript's DOM types declare the decoder's input as BufferSource, not Uint8Array.
  const decoder = /** @type {TransformStream<Uint8Array, string>} */ (new TextDecoderStream());
  const reader = body.pipeThrough(decoder).getReader();
  try {
    while (!state.done) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value.replace(/\r\n?/g, '\n');
      let end;
      while (!state.done && (end = buffer.indexOf('\n\n')) >= 0) {
        handleEvent(buffer.slice(0, end), state, handlers);
        buffer = buffer.slice(end + 2);
      }
    }
    if (!state.done && buffer.trim()) handleEvent(buffer, state, handlers);
  } finally {
    // Stops the download when the stream ended early (an error chunk) and frees the connection.
    reader.cancel().catch(() => {});
  }
  return { text: state.text, threadId: state.threadId, messageId: state.messageId };
}

/**
 * One server-sent event: its `data:` lines joined, per the SSE format.
 * @param {string} event
 * @param {{ text: string, threadId: string | null, messageId: string | null, done: boolean }} state
 * @param {StreamHandlers} handlers
 */
function handleEvent(event, state, handlers) {
  const data = event
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
    .join('\n');
  if (!data) return;
  if (data === '[DONE]') {
    state.done = true;
    return;
  }
  let chunk;
  try {
    chunk = JSON.parse(data);
  } catch {
    return; // A malformed event is skipped rather than losing the whole answer.
  }
  handleChunk(chunk, state, handlers);
}

/**
 * @param {any} chunk a UI-message-stream chunk
 * @param {{ text: string, threadId: string | null, messageId: string | null }} state
 * @param {StreamHandlers} handlers
 */
function handleChunk(chunk, state, handlers) {
  // The answer's id, which a rating of it names.
  if (chunk.type === 'start' && typeof chunk.messageId === 'string') state.messageId = chunk.messageId;
  const threadId = chunk.messageMetadata?.threadId;
  if (typeof threadId === 'string' && threadId !== state.threadId) {
    state.threadId = threadId;
    handlers.onThreadId?.(threadId);
  }
  if (chunk.type === 'text-delta' && typeof chunk.delta === 'string') {
    state.text += chunk.delta;
    handlers.onText?.(state.text);
  } else if (chunk.type === 'source-url' && typeof chunk.url === 'string') {
    handlers.onSource?.({
      sourceId: String(chunk.sourceId ?? chunk.url),
      url: chunk.url,
      title: chunk.title,
    });
  } else if (chunk.type === 'error') {
    throw new ChatError(chunk.errorText || 'The assistant could not finish this answer.');
  }
}

/**
 * The reader-facing error of a refused request: the server's `{ error }` text, with what to do next.
 * @param {Response} response
 * @returns {Promise<ChatError>}
 */
async function errorOf(response) {
  /** @type {{ error?: string, code?: string }} */
  let body = {};
  try {
    body = await response.json();
  } catch {
    // Not our JSON (a proxy's error page): the status alone has to do.
  }
  const details = { status: response.status, code: body.code };
  const reason = body.error ? ` (${body.error})` : '';
  switch (response.status) {
    case 401:
      return new ChatError(`The assistant key was not accepted${reason}.`, details);
    case 403:
      return new ChatError(`This key may not use this assistant${reason}.`, details);
    case 404:
      return new ChatError(
        body.error ? `${body.error}. Start a new conversation.` : 'This assistant was not found.',
        details,
      );
    case 429:
      return new ChatError(`Too many questions right now. ${retryAdvice(response)}`, details);
    default:
      if (response.status >= 500) {
        return new ChatError('The assistant is having trouble right now. Try again in a moment.', details);
      }
      return new ChatError(body.error ?? `The request was refused (HTTP ${response.status}).`, details);
  }
}

/** @param {Response} response */
function retryAdvice(response) {
  const seconds = Number(response.headers.get('retry-after'));
  if (!Number.isFinite(seconds) || seconds <= 0) return 'Try again later.';
  if (seconds < 90) return `Try again in ${Math.ceil(seconds)} seconds.`;
  if (seconds < 5400) return `Try again in about ${Math.round(seconds / 60)} minutes.`;
  return `Try again in about ${Math.round(seconds / 3600)} hours.`;
}
