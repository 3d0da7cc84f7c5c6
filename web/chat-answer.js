/**
 * One assistant answer in the conversation log: a pending line, then the Markdown as it streams,
 * the sources (with the answer's `[n]` markers pointing at them), and an error if it fails.
 */
/* global requestAnimationFrame, cancelAnimationFrame -- browser globals (web/ runs in browsers) */
import { element, hiddenLabel, link } from './dom.js';
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
      item.dataset.state = 'done';
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
