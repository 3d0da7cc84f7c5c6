/**
 * The embeddable widget: one classic script tag on a docs site adds an "Ask the docs" button that
 * opens a chat panel.
 *
 *   <script src="https://docwright.example.com/widget.js" data-domain="demo" data-key="svc_dsc_…" async></script>
 *
 * Optional: data-docs-base (where source paths live; default this site's origin), data-label (the
 * button's text), data-accent (a CSS colour). Everything lives in a shadow root so the site's CSS
 * does not leak in. The conversation view and its styles come from the script's own server, loaded
 * in the background once the button is on the page.
 */
/* global console, document, HTMLScriptElement, localStorage, location, navigator, setTimeout, URL, window -- browser globals */

// A classic script shares the page's global scope: everything stays inside this function.
(() => {
  /** Longest selection sent as context; the server accepts 20,000 characters, answers need far less. */
  const MAX_SELECTION = 4000;

  // currentScript is only set while a classic script first runs, so it is read right away.
  const script = document.currentScript;
  if (!(script instanceof HTMLScriptElement) || !script.src) {
    console.warn('docwright widget: load widget.js with a <script src="…"> tag.');
  } else if (!script.dataset.domain || !script.dataset.key) {
    console.warn('docwright widget: the script tag needs data-domain and data-key attributes.');
  } else {
    const tag = script;
    if (document.body) mountWidget(tag);
    else document.addEventListener('DOMContentLoaded', () => mountWidget(tag), { once: true });
  }

  /** @param {HTMLScriptElement} tag */
  function mountWidget(tag) {
    if (document.querySelector('docwright-widget')) return; // The tag is on the page twice.
    const options = { ...tag.dataset };
    const base = new URL('.', tag.src);
    const label = options.label || 'Ask the docs';
    const host = document.body.appendChild(document.createElement('docwright-widget'));
    if (options.accent) host.style.setProperty('--dw-accent', options.accent);
    const shadow = host.attachShadow({ mode: 'open' });
    const styles = ['chat.css', 'widget.css'].map((file) => stylesheet(shadow, new URL(file, base)));

    const launcher = shadow.appendChild(element('button', 'dw-launcher'));
    launcher.type = 'button';
    launcher.hidden = true; // Until the styles arrive, so no unstyled button flashes at the page's end.
    launcher.setAttribute('aria-haspopup', 'dialog');
    launcher.setAttribute('aria-expanded', 'false');
    launcher.setAttribute('aria-controls', 'dw-panel');
    launcher.append(chatIcon(), label);

    const panel = shadow.appendChild(element('section', 'dw-panel'));
    panel.id = 'dw-panel';
    panel.hidden = true;
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-labelledby', 'dw-panel-title');
    const header = panel.appendChild(element('header', 'dw-panel-header'));
    const title = header.appendChild(element('h2', 'dw-panel-title'));
    title.id = 'dw-panel-title';
    title.textContent = label;
    const restart = header.appendChild(element('button', 'dw-header-button'));
    restart.type = 'button';
    restart.textContent = 'New conversation';
    // The same docs for an agent: the domain's MCP server address, copied by one press.
    const mcp = new URL(`mcp/${encodeURIComponent(options.domain ?? '')}`, base).href;
    const copyMcp = header.appendChild(element('button', 'dw-header-button'));
    copyMcp.type = 'button';
    copyMcp.textContent = 'MCP';
    copyMcp.title = `Copy the MCP address of these docs: ${mcp}`;
    copyMcp.setAttribute('aria-label', 'Copy the MCP address');
    copyMcp.addEventListener('click', () => {
      const copied = navigator.clipboard?.writeText(mcp) ?? Promise.reject(new Error('no clipboard'));
      copied.then(
        () => (copyMcp.textContent = 'Copied'),
        () => (copyMcp.textContent = 'Could not copy'),
      );
      copied.catch(() => undefined).finally(() => setTimeout(() => (copyMcp.textContent = 'MCP'), 2000));
    });
    const close = header.appendChild(element('button', 'dw-icon-button'));
    close.type = 'button';
    close.setAttribute('aria-label', 'Close');
    close.textContent = '×';
    const body = panel.appendChild(element('div', 'dw-panel-body'));

    void Promise.all(styles).then(() => (launcher.hidden = false));
    const view = loadView(body, base, options);
    /** @type {string | null} */
    let selectionAtPress = null;

    // A press can collapse the page's selection before `click`, so it is read on pointerdown.
    launcher.addEventListener('pointerdown', () => (selectionAtPress = selectedText()));
    launcher.addEventListener('click', () => {
      const selection = selectionAtPress ?? selectedText();
      selectionAtPress = null;
      if (panel.hidden) void open(selection);
      else hide();
    });
    close.addEventListener('click', hide);
    restart.addEventListener('click', () => void view.then((chat) => chat?.reset()));
    panel.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') hide();
    });

    /** @param {string} selection */
    async function open(selection) {
      panel.hidden = false;
      host.toggleAttribute('open', true);
      launcher.setAttribute('aria-expanded', 'true');
      const chat = await view;
      if (!chat) return;
      if (selection) chat.setContext([{ type: 'textSelection', value: selection, path: currentPath() }]);
      chat.focus();
    }

    function hide() {
      panel.hidden = true;
      host.toggleAttribute('open', false);
      launcher.setAttribute('aria-expanded', 'false');
      launcher.focus();
    }
  }

  /**
   * The conversation view, imported from the widget's own server (module scripts need CORS, which
   * the server grants on its static files).
   * @param {HTMLElement} body
   * @param {URL} base
   * @param {Record<string, string | undefined>} options
   */
  async function loadView(body, base, options) {
    try {
      const [core, ui] = await Promise.all([
        import(new URL('chat-core.js', base).href),
        import(new URL('chat-ui.js', base).href),
      ]);
      return ui.createChatView(body, {
        endpoint: core.messageEndpoint(base, options.domain),
        apiKey: options.key,
        fp: core.fingerprint(safeLocalStorage()),
        docsBase: options.docsBase || location.origin,
        intro: 'Ask a question about these docs. Select text on the page first to ask about it.',
        currentPath,
      });
    } catch (error) {
      console.warn('docwright widget: could not load the chat', error);
      const message = body.appendChild(element('p', 'dw-load-error'));
      message.setAttribute('role', 'alert');
      message.textContent = 'The assistant could not be loaded. Try again later.';
      return null;
    }
  }

  /** The page being read, as the assistant's `currentPath` (at most 200 characters). */
  function currentPath() {
    return location.pathname.slice(0, 200);
  }

  /** The text selected on the page, if any. */
  function selectedText() {
    const text = window.getSelection()?.toString().trim() ?? '';
    return text.slice(0, MAX_SELECTION);
  }

  /**
   * @param {ShadowRoot} shadow
   * @param {URL} href
   * @returns {Promise<void>} settles when the sheet has loaded or failed
   */
  function stylesheet(shadow, href) {
    const link = shadow.appendChild(document.createElement('link'));
    link.rel = 'stylesheet';
    link.href = href.href;
    return new Promise((resolve) => {
      link.addEventListener('load', () => resolve(), { once: true });
      link.addEventListener('error', () => resolve(), { once: true });
    });
  }

  /**
   * @template {keyof HTMLElementTagNameMap} Tag
   * @param {Tag} tag
   * @param {string} className
   * @returns {HTMLElementTagNameMap[Tag]}
   */
  function element(tag, className) {
    const created = document.createElement(tag);
    created.className = className;
    return created;
  }

  /** A speech-bubble icon, built as SVG elements (no markup strings). */
  function chatIcon() {
    const namespace = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(namespace, 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('aria-hidden', 'true');
    const path = svg.appendChild(document.createElementNS(namespace, 'path'));
    path.setAttribute('d', 'M4 5h16v11H9l-5 4z');
    return svg;
  }

  /** Reading `localStorage` itself throws where storage is blocked (some third-party contexts). */
  function safeLocalStorage() {
    try {
      return localStorage;
    } catch {
      return undefined;
    }
  }
})();
