/** Small DOM builders shared by the chat modules: text always goes in as text, never as markup. */

/**
 * @template {keyof HTMLElementTagNameMap} Tag
 * @param {Document} doc
 * @param {Tag} tag
 * @param {string} [className]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[Tag]}
 */
export function element(doc, tag, className, text) {
  const created = doc.createElement(tag);
  if (className) created.className = className;
  if (text !== undefined) created.textContent = text;
  return created;
}

/**
 * A link; one that opens elsewhere (`target`) gets no opener and no referrer.
 * @param {Document} doc
 * @param {string} href an already checked target
 * @param {string} [target]
 * @returns {HTMLAnchorElement}
 */
export function link(doc, href, target) {
  const anchor = doc.createElement('a');
  anchor.href = href;
  if (target) {
    anchor.target = target;
    anchor.rel = 'noopener noreferrer';
  }
  return anchor;
}

/**
 * Text for screen readers only (who said what in the log).
 * @param {Document} doc
 * @param {string} text
 */
export function hiddenLabel(doc, text) {
  return element(doc, 'span', 'dw-visually-hidden', text);
}
