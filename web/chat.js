/**
 * The chat page (chat.html, served at `/`): finds the assistant to talk to, then hands the
 * conversation to the shared view. `/?domain=…&key=…&docs=…` sets the assistant for this tab.
 */
/* global document, FormData, history, localStorage, location, sessionStorage, URL, URLSearchParams -- browser globals */
import { fingerprint, mcpEndpoint, messageEndpoint } from './chat-core.js';
import { createChatView } from './chat-ui.js';
import { copyButton } from './dom.js';

/** @typedef {{ domain: string, key: string, docs: string | null }} Settings */

const SETTINGS_KEY = 'docwright.chat';

const setup = /** @type {HTMLFormElement} */ (document.getElementById('setup'));
const chatHost = /** @type {HTMLElement} */ (document.getElementById('chat'));
const actions = /** @type {HTMLElement} */ (document.getElementById('actions'));
const subtitle = /** @type {HTMLElement} */ (document.getElementById('subtitle'));
const mcpAddress = /** @type {HTMLElement} */ (document.getElementById('mcp-address'));
/** @type {ReturnType<typeof createChatView> | null} */
let view = null;

const initial = settingsFromAddress() ?? storedSettings();
if (initial) start(initial);
else showSetup(null);

setup.addEventListener('submit', (event) => {
  event.preventDefault();
  const data = new FormData(setup);
  const settings = {
    domain: String(data.get('domain') ?? '').trim(),
    key: String(data.get('key') ?? '').trim(),
    docs: String(data.get('docs') ?? '').trim() || null,
  };
  storeSettings(settings);
  start(settings);
});
document.getElementById('new-conversation')?.addEventListener('click', () => view?.reset());
document.getElementById('change-assistant')?.addEventListener('click', () => {
  const previous = storedSettings();
  storeSettings(null);
  showSetup(previous);
});

/**
 * Settings given in the address are kept for this tab and taken out of the address bar, so the key
 * does not linger in the history, in bookmarks or in a link someone copies.
 * @returns {Settings | null}
 */
function settingsFromAddress() {
  const params = new URLSearchParams(location.search);
  const domain = params.get('domain');
  const key = params.get('key');
  if (!domain || !key) return null;
  const settings = { domain, key, docs: params.get('docs') || null };
  storeSettings(settings);
  for (const name of ['domain', 'key', 'docs']) params.delete(name);
  const query = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${query ? `?${query}` : ''}${location.hash}`);
  return settings;
}

/** @returns {Settings | null} */
function storedSettings() {
  try {
    const stored = JSON.parse(sessionStorage.getItem(SETTINGS_KEY) ?? 'null');
    return stored?.domain && stored?.key ? stored : null;
  } catch {
    return null;
  }
}

/** @param {Settings | null} settings */
function storeSettings(settings) {
  try {
    if (settings) sessionStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
    else sessionStorage.removeItem(SETTINGS_KEY);
  } catch {
    // Storage blocked: the settings last as long as the page, which is still usable.
  }
}

/** @param {Settings} settings */
function start(settings) {
  setup.hidden = true;
  chatHost.hidden = false;
  actions.hidden = false;
  subtitle.textContent = `Answers from the ${settings.domain} documentation, with their sources.`;
  // The same docs for an agent (Claude Code, Cursor, VS Code): the domain's MCP server, to copy.
  const mcp = mcpEndpoint(new URL('.', location.href), settings.domain);
  mcpAddress.querySelector('code')?.replaceChildren(mcp);
  mcpAddress.querySelector('button')?.remove();
  mcpAddress.append(copyButton(document, 'Copy', () => mcp, 'button'));
  mcpAddress.title = 'The MCP server of these docs, for an agent';
  chatHost.replaceChildren();
  view = createChatView(chatHost, {
    // Relative to the page, so a server behind a path prefix works too.
    endpoint: messageEndpoint(new URL('.', location.href), settings.domain),
    apiKey: settings.key,
    fp: fingerprint(safeLocalStorage()),
    docsBase: settings.docs,
    linkTarget: '_blank',
    intro: `Ask anything about the ${settings.domain} documentation.`,
  });
  view.focus();
}

/** @param {Settings | null} previous */
function showSetup(previous) {
  view = null;
  chatHost.replaceChildren();
  chatHost.hidden = true;
  actions.hidden = true;
  setup.hidden = false;
  subtitle.textContent = 'Answers from the documentation, with their sources.';
  const domain = /** @type {HTMLInputElement} */ (setup.elements.namedItem('domain'));
  const docs = /** @type {HTMLInputElement} */ (setup.elements.namedItem('docs'));
  domain.value = previous?.domain ?? '';
  docs.value = previous?.docs ?? '';
  domain.focus();
}

/** Reading `localStorage` itself throws where storage is blocked. */
function safeLocalStorage() {
  try {
    return localStorage;
  } catch {
    return undefined;
  }
}
