/**
 * The conversation view shared by the chat page and the widget: the message log, the composer and
 * the thread. Hosts (chat.js, widget.js) supply the endpoint and key and their own header buttons,
 * and call `reset()` for a new conversation.
 */
/* global AbortController -- a browser global (web/ runs in browsers) */
import { createAnswer } from './chat-answer.js';
import { askAssistant, ChatError, feedbackEndpoint, sendFeedback } from './chat-core.js';
import { element, hiddenLabel } from './dom.js';

/**
 * @typedef {import('./chat-core.js').ContextItem} ContextItem
 * @typedef {import('./chat-core.js').Turn} Turn
 * @typedef {{
 *   endpoint: string, apiKey: string, fp: string,
 *   docsBase?: string | null, linkTarget?: string,
 *   intro?: string, currentPath?: () => string | undefined,
 * }} ChatViewOptions
 */

/**
 * Builds the view inside `container` (an element of the page, or of the widget's shadow root).
 * @param {HTMLElement} container
 * @param {ChatViewOptions} options
 */
export function createChatView(container, options) {
  const doc = container.ownerDocument;
  const parts = buildView(doc, options.intro ?? 'Ask a question about the documentation.');
  const { root, intro, log, contextChip, contextText, form, input, send } = parts;
  container.append(root);

  /** @type {{ turns: Turn[], threadId: string | null, context: ContextItem[], abort: AbortController | null }} */
  const state = { turns: [], threadId: null, context: [], abort: null };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (state.abort) {
      state.abort.abort(); // The button reads "Stop" while an answer streams.
      return;
    }
    const question = input.value.trim();
    if (!question) return;
    input.value = '';
    fitInput(input);
    void ask(question);
  });
  // Enter sends, Shift+Enter adds a line; an IME composition's Enter belongs to the composition.
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    if (!state.abort) form.requestSubmit(); // Enter must not reach the Stop button.
  });
  input.addEventListener('input', () => fitInput(input));
  contextChip.querySelector('button')?.addEventListener('click', () => {
    setContext([]);
    input.focus();
  });

  /** @param {string} question */
  async function ask(question) {
    const abort = new AbortController();
    const context = state.context;
    state.abort = abort;
    state.turns.push({ role: 'user', text: question });
    setContext([]);
    intro.hidden = true;
    const said = log.appendChild(element(doc, 'li', 'dw-message dw-user'));
    said.append(hiddenLabel(doc, 'You said:'), element(doc, 'div', 'dw-bubble', question));
    const answer = createAnswer(doc, {
      docsBase: options.docsBase,
      linkTarget: options.linkTarget,
      onRender: () => scrollToEnd(false),
    });
    log.append(answer.element);
    scrollToEnd(true);
    setBusy(true);
    try {
      const result = await askAssistant(
        {
          endpoint: options.endpoint,
          apiKey: options.apiKey,
          fp: options.fp,
          turns: state.turns,
          threadId: state.threadId,
          currentPath: options.currentPath?.(),
          context,
          signal: abort.signal,
        },
        {
          onThreadId: (threadId) => {
            state.threadId = threadId;
            root.dataset.threadId = threadId;
          },
          onSource: answer.addSource,
          onText: answer.setText,
        },
      );
      state.turns.push({ role: 'assistant', text: result.text });
      answer.finish();
      const { threadId, messageId } = result;
      if (threadId && messageId) {
        answer.offerFeedback((rating, comment) =>
          sendFeedback({
            endpoint: feedbackEndpoint(options.endpoint),
            apiKey: options.apiKey,
            threadId,
            messageId,
            rating,
            comment,
          }),
        );
      }
    } catch (error) {
      forgetFailedTurn(error);
      answer.fail(abort.signal.aborted ? 'Stopped.' : messageOf(error));
    } finally {
      state.abort = null;
      setBusy(false);
    }
  }

  /** @param {unknown} error */
  function forgetFailedTurn(error) {
    // The question stays in the history only if the server may have seen it (a thread exists).
    if (!state.threadId) state.turns.pop();
    // An expired or unknown thread (404) cannot be continued: the next question starts a new one.
    if (error instanceof ChatError && error.status === 404) {
      state.threadId = null;
      state.turns = [];
    }
  }

  /** @param {boolean} busy */
  function setBusy(busy) {
    // aria-busy holds screen-reader announcements of the log until the answer is complete.
    log.setAttribute('aria-busy', String(busy));
    root.classList.toggle('dw-busy', busy);
    send.textContent = busy ? 'Stop' : 'Ask';
    send.setAttribute('aria-label', busy ? 'Stop the answer' : 'Ask');
  }

  /** @param {boolean} always scroll even when the reader has scrolled up to read */
  function scrollToEnd(always) {
    const nearEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 80;
    if (always || nearEnd) log.scrollTop = log.scrollHeight;
  }

  /** @param {ContextItem[]} items */
  function setContext(items) {
    state.context = items;
    const first = items[0];
    contextChip.hidden = !first;
    contextText.textContent = first ? `Asking about: “${ellipsis(first.value, 80)}”` : '';
  }

  return {
    /** Forgets the conversation (and its thread) and empties the log. */
    reset() {
      state.abort?.abort();
      state.turns = [];
      state.threadId = null;
      delete root.dataset.threadId;
      log.replaceChildren();
      intro.hidden = false;
      setContext([]);
      input.focus();
    },
    /** Context sent with the next question (e.g. the text selected when the widget opened). */
    setContext,
    focus() {
      input.focus();
    },
  };
}

/**
 * The view's elements: intro, log, the context chip and the composer.
 * @param {Document} doc
 * @param {string} introText
 */
function buildView(doc, introText) {
  const root = element(doc, 'div', 'dw-chat');
  const intro = root.appendChild(element(doc, 'p', 'dw-intro', introText));
  const log = root.appendChild(element(doc, 'ol', 'dw-log'));
  log.setAttribute('role', 'log');
  log.setAttribute('aria-label', 'Conversation');

  const contextChip = root.appendChild(element(doc, 'div', 'dw-context'));
  contextChip.hidden = true;
  const contextText = contextChip.appendChild(element(doc, 'span', 'dw-context-text'));
  const contextRemove = contextChip.appendChild(element(doc, 'button', 'dw-icon-button', '×'));
  contextRemove.type = 'button';
  contextRemove.setAttribute('aria-label', 'Do not send the selected text');

  const form = root.appendChild(element(doc, 'form', 'dw-composer'));
  const input = form.appendChild(element(doc, 'textarea', 'dw-input'));
  input.rows = 1;
  input.maxLength = 4000;
  input.placeholder = 'Ask a question…';
  input.enterKeyHint = 'send';
  input.setAttribute('aria-label', 'Your question');
  const send = form.appendChild(element(doc, 'button', 'dw-send', 'Ask'));
  send.type = 'submit';
  return { root, intro, log, contextChip, contextText, form, input, send };
}

/**
 * Grows the question box with its text, up to a limit.
 * @param {HTMLTextAreaElement} input
 */
function fitInput(input) {
  input.style.height = 'auto';
  input.style.height = `${Math.min(input.scrollHeight, 160)}px`;
}

/** @param {unknown} error */
function messageOf(error) {
  if (error instanceof ChatError) return error.message;
  return 'The answer was interrupted. Try again.';
}

/**
 * @param {string} text
 * @param {number} length
 */
function ellipsis(text, length) {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}
