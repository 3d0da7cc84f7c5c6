/**
 * One assistant answer in the conversation log: a pending line, then the Markdown as it streams,
 * the sources (with the answer's `[n]` markers pointing at them), and an error if it fails.
 */
/* global requestAnimationFrame, cancelAnimationFrame -- browser globals (web/ runs in browsers) */
import { answerMarkdown } from './chat-core.js';
import { copyButton, element, hiddenLabel, link } from './dom.js';
import { docsUrl, renderMarkdown, safeHref } from './markdown.js';

/**
 * @typedef {import('./chat-core.js').Source} Source
 * @typedef {{ docsBase?: string | null, linkTarget?: string, onRender?: () => void }} AnswerOptions
 */

/**
 * @param {Document} doc
 * @param {AnswerOptions} options
 */
export function createAnswer(doc, options) {
  const item = element(doc, 'li', 'dw-message dw-assistant');
  item.append(hiddenLabel(doc, 'The assistant answered:'));
  const body = item.appendChild(element(doc, 'div', 'dw-answer'));
  body.append(element(doc, 'p', 'dw-pending', 'Searching the docs'));
  const sources = item.appendChild(element(doc, 'div', 'dw-sources'));
  sources.hidden = true;
  sources.append(element(doc, 'h2', 'dw-sources-title', 'Sources'));
  const list = sources.appendChild(element(doc, 'ul'));

  /** @type {Source[]} */
  const cited = [];
  const sourceHref = (/** @type {Source} */ source) =>
    options.docsBase ? docsUrl(source.url, options.docsBase) : null;
  const markdownOptions = {
    resolveHref: (/** @type {string} */ href) => safeHref(href, options.docsBase),
    linkTarget: options.linkTarget,
    // `[n]` in the answer is the n-th source of the stream (source-url chunks come before the text).
    citation: (/** @type {number} */ number) => {
      const source = cited[number - 1];
      return source ? { title: source.title || source.url, href: sourceHref(source) } : null;
    },
  };
  let text = '';
  let frame = 0;
  const render = () => {
    frame = 0;
    body.replaceChildren(renderMarkdown(text, doc, markdownOptions));
    options.onRender?.();
  };
  const settle = () => {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    if (text.trim()) render();
    else body.replaceChildren();
  };

  return {
    element: item,
    /** @param {string} next the whole answer so far */
    setText(next) {
      text = next;
      // Deltas arrive faster than frames: render at most once per frame.
      frame ||= requestAnimationFrame(render);
    },
    /** @param {Source} source */
    addSource(source) {
      cited.push(source);
      // Two passages of one page are one source to the reader.
      if (cited.some((known) => known !== source && known.url === source.url)) return;
      const href = sourceHref(source);
      const label = href ? link(doc, href, options.linkTarget) : element(doc, 'span');
      label.classList.add('dw-source');
      label.append(
        element(doc, 'span', 'dw-source-title', source.title || source.url),
        element(doc, 'span', 'dw-source-path', source.url),
      );
      list.appendChild(element(doc, 'li')).append(label);
      sources.hidden = false;
    },
    finish() {
      settle();
      if (!text.trim()) body.append(element(doc, 'p', '', 'The assistant had nothing to say about this.'));
      else
        item.append(
          copyButton(doc, 'Copy as Markdown', () =>
            answerMarkdown(text, cited, (source) => sourceHref(source) ?? source.url),
          ),
        );
      item.dataset.state = 'done';
    },
    /**
     * Thumbs up and down under the finished answer, and a comment box after a thumbs down.
     * @param {(rating: 'up' | 'down', comment?: string) => Promise<void>} rate sends a rating
     */
    offerFeedback(rate) {
      item.append(feedbackBar(doc, rate));
      options.onRender?.();
    },
    /** @param {string} message what went wrong, in words */
    fail(message) {
      settle();
      const error = body.appendChild(element(doc, 'p', 'dw-error', message));
      error.setAttribute('role', 'alert');
      item.dataset.state = 'error';
      options.onRender?.();
    },
  };
}

/** Longest comment the server takes. */
const MAX_COMMENT = 2000;

/**
 * The feedback bar of one answer. A rating is sent at once; a comment, asked for after a thumbs
 * down, is sent with the rating again (the server keeps the last rating of an answer).
 * @param {Document} doc
 * @param {(rating: 'up' | 'down', comment?: string) => Promise<void>} rate
 */
function feedbackBar(doc, rate) {
  const bar = element(doc, 'div', 'dw-feedback');
  bar.setAttribute('role', 'group');
  bar.setAttribute('aria-label', 'Was this answer helpful?');
  bar.append(element(doc, 'span', 'dw-feedback-label', 'Helpful?'));
  const up = bar.appendChild(thumb(doc, 'up', 'Helpful'));
  const down = bar.appendChild(thumb(doc, 'down', 'Not helpful'));
  const form = bar.appendChild(element(doc, 'form', 'dw-feedback-comment'));
  form.hidden = true;
  const comment = form.appendChild(element(doc, 'textarea', 'dw-feedback-text'));
  comment.maxLength = MAX_COMMENT;
  comment.rows = 2;
  comment.placeholder = 'What was missing or wrong? (optional)';
  comment.setAttribute('aria-label', 'What was missing or wrong? (optional)');
  const sendComment = form.appendChild(element(doc, 'button', 'dw-feedback-send', 'Send'));
  sendComment.type = 'submit';
  const status = bar.appendChild(element(doc, 'p', 'dw-feedback-status'));
  status.setAttribute('role', 'status');

  /**
   * @param {'up' | 'down'} rating
   * @param {string} [text]
   */
  const send = async (rating, text) => {
    up.setAttribute('aria-pressed', String(rating === 'up'));
    down.setAttribute('aria-pressed', String(rating === 'down'));
    bar.dataset.rating = rating;
    status.textContent = '';
    try {
      await rate(rating, text);
      status.textContent = text ? 'Thanks, your comment was sent.' : 'Thanks for your feedback.';
      return true;
    } catch (error) {
      status.textContent = error instanceof Error ? error.message : 'Your feedback could not be sent.';
      return false;
    }
  };
  up.addEventListener('click', () => {
    form.hidden = true;
    void send('up');
  });
  down.addEventListener('click', () => {
    form.hidden = false;
    comment.focus();
    void send('down');
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = comment.value.trim();
    if (!text) return;
    void send('down', text).then((sent) => {
      if (sent) form.hidden = true;
    });
  });
  return bar;
}

/**
 * Thumbs drawn as SVG (the Feather icon set's outlines, MIT): an emoji needs a font with emoji,
 * which many systems and headless browsers lack.
 */
const THUMBS = {
  up: 'M14 9V5a3 3 0 0 0-3-3l-4 9v11h11.28a2 2 0 0 0 2-1.7l1.38-9a2 2 0 0 0-2-2.3zM7 22H4a2 2 0 0 1-2-2v-7a2 2 0 0 1 2-2h3',
  down: 'M10 15v4a3 3 0 0 0 3 3l4-9V2H5.72a2 2 0 0 0-2 1.7l-1.38 9a2 2 0 0 0 2 2.3zm7-13h2.67A2.31 2.31 0 0 1 22 4v7a2.31 2.31 0 0 1-2.33 2H17',
};

/**
 * @param {Document} doc
 * @param {'up' | 'down'} rating
 * @param {string} label
 */
function thumb(doc, rating, label) {
  const button = element(doc, 'button', `dw-feedback-${rating}`);
  const svg = doc.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const path = doc.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', THUMBS[rating]);
  svg.append(path);
  button.append(svg);
  button.type = 'button';
  button.title = label;
  button.setAttribute('aria-label', label);
  button.setAttribute('aria-pressed', 'false');
  return button;
}
