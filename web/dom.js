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

/**
 * A button that copies `textOf()` to the clipboard and says, in its own label for two seconds,
 * whether it could (a page without clipboard access, such as an insecure origin, says so).
 * @param {Document} doc
 * @param {string} label
 * @param {() => string} textOf
 * @param {string} [className]
 * @returns {HTMLButtonElement}
 */
export function copyButton(doc, label, textOf, className = 'dw-copy') {
  const button = element(doc, 'button', className, label);
  button.type = 'button';
  button.addEventListener('click', () => {
    const clipboard = doc.defaultView?.navigator.clipboard;
    const copied = clipboard ? clipboard.writeText(textOf()) : Promise.reject(new Error('no clipboard'));
    copied.then(
      () => (button.textContent = 'Copied'),
      () => (button.textContent = 'Could not copy'),
    );
    copied
      .catch(() => undefined)
      .finally(() => doc.defaultView?.setTimeout(() => (button.textContent = label), 2000));
  });
  return button;
}
