/**
 * Light Markdown for streamed answers: paragraphs, headings, lists, tables, fenced code, quotes, and
 * inline `code`, **strong**, *emphasis*, [links](url) and citation markers `[1]` (the answer's
 * sources, in the order they arrived). Model text never goes through innerHTML: every piece becomes
 * a text node or an element built here, so markup in an answer shows as text.
 */

/* global URL -- browser globals (web/ runs in browsers) */
import { link } from './dom.js';

/**
 * @typedef {{
 *   resolveHref: (href: string) => string | null,
 *   linkTarget?: string,
 *   citation?: (number: number) => { title: string, href: string | null } | null,
 * }} MarkdownOptions
 */

/**
 * Renders Markdown into a fragment of the given document.
 * @param {string} markdown
 * @param {Document} doc
 * @param {MarkdownOptions} options
 * @returns {DocumentFragment}
 */
export function renderMarkdown(markdown, doc, options) {
  const fragment = doc.createDocumentFragment();
  for (const block of parseBlocks(markdown.replace(/\r\n?/g, '\n').split('\n'))) {
    fragment.append(renderBlock(block, doc, options));
  }
  return fragment;
}

/**
 * @typedef {{ kind: 'paragraph' | 'quote', text: string }
 *   | { kind: 'heading', level: number, text: string }
 *   | { kind: 'code', text: string, language: string }
 *   | { kind: 'list', ordered: boolean, items: string[] }
 *   | { kind: 'table', header: string[], rows: string[][] }} Block
 */

const FENCE = /^\s*(```|~~~)\s*([\w+-]*)/;
const HEADING = /^(#{1,6})\s+(.*)$/;
const LIST_ITEM = /^\s*(?:([-*+])|(\d{1,9})[.)])\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

/**
 * @param {string[]} lines
 * @returns {Block[]}
 */
function parseBlocks(lines) {
  /** @type {Block[]} */
  const blocks = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    const fence = FENCE.exec(line);
    if (!line.trim()) {
      index += 1;
    } else if (fence) {
      // An unclosed fence (mid-stream) runs to the end, so code never flickers into paragraphs.
      const close = lines.findIndex((next, at) => at > index && next.trim().startsWith(fence[1] ?? '```'));
      const end = close < 0 ? lines.length : close;
      blocks.push({ kind: 'code', language: fence[2] ?? '', text: lines.slice(index + 1, end).join('\n') });
      index = end + 1;
    } else if (HEADING.test(line)) {
      const [, hashes = '#', text = ''] = HEADING.exec(line) ?? [];
      blocks.push({ kind: 'heading', level: hashes.length, text });
      index += 1;
    } else if (TABLE_ROW.test(line) && TABLE_RULE.test(lines[index + 1] ?? '')) {
      const rows = takeWhile(lines, index + 2, (next) => TABLE_ROW.test(next));
      blocks.push({ kind: 'table', header: tableCells(line), rows: rows.map(tableCells) });
      index += 2 + rows.length;
    } else if (LIST_ITEM.test(line)) {
      index = parseList(lines, index, blocks);
    } else if (QUOTE.test(line)) {
      const quoted = takeWhile(lines, index, (next) => QUOTE.test(next));
      blocks.push({ kind: 'quote', text: quoted.map((next) => QUOTE.exec(next)?.[1] ?? '').join('\n') });
      index += quoted.length;
    } else {
      const rest = takeWhile(lines, index + 1, (next) => Boolean(next.trim()) && !startsBlock(next));
      blocks.push({ kind: 'paragraph', text: [line, ...rest].join('\n') });
      index += 1 + rest.length;
    }
  }
  return blocks;
}

/**
 * A list: its items, each with the indented lines that continue it.
 * @param {string[]} lines
 * @param {number} start
 * @param {Block[]} blocks
 * @returns {number} the index after the list
 */
function parseList(lines, start, blocks) {
  const ordered = Boolean(LIST_ITEM.exec(lines[start] ?? '')?.[2]);
  /** @type {string[]} */
  const items = [];
  let index = start;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    const item = LIST_ITEM.exec(line);
    if (item && Boolean(item[2]) === ordered) items.push(item[3] ?? '');
    else if (!item && /^\s+\S/.test(line) && items.length) items[items.length - 1] += `\n${line.trim()}`;
    else break;
    index += 1;
  }
  blocks.push({ kind: 'list', ordered, items });
  return index;
}

/**
 * The cells of a table row; `\|` is a pipe inside a cell.
 * @param {string} line
 */
function tableCells(line) {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** @param {string} line */
function startsBlock(line) {
  return (
    FENCE.test(line) || HEADING.test(line) || LIST_ITEM.test(line) || QUOTE.test(line) || TABLE_ROW.test(line)
  );
}

/**
 * @param {string[]} lines
 * @param {number} start
 * @param {(line: string) => boolean} predicate
 */
function takeWhile(lines, start, predicate) {
  const taken = [];
  for (let index = start; index < lines.length && predicate(lines[index] ?? ''); index += 1) {
    taken.push(lines[index] ?? '');
  }
  return taken;
}

/**
 * @param {Block} block
 * @param {Document} doc
 * @param {MarkdownOptions} options
 * @returns {HTMLElement}
 */
function renderBlock(block, doc, options) {
  switch (block.kind) {
    case 'code': {
      const pre = doc.createElement('pre');
      const code = pre.appendChild(doc.createElement('code'));
      if (block.language) code.dataset.language = block.language;
      code.textContent = block.text;
      return pre;
    }
    case 'heading': {
      // Answers sit under the page's own headings, so their headings start two levels down.
      const element = doc.createElement(`h${Math.min(block.level + 2, 6)}`);
      element.append(renderInline(block.text, doc, options));
      return element;
    }
    case 'list': {
      const list = doc.createElement(block.ordered ? 'ol' : 'ul');
      for (const item of block.items) {
        list.appendChild(doc.createElement('li')).append(renderInline(item, doc, options));
      }
      return list;
    }
    case 'table':
      return renderTable(block, doc, options);
    case 'quote': {
      const quote = doc.createElement('blockquote');
      quote.append(renderMarkdown(block.text, doc, options));
      return quote;
    }
    default: {
      const paragraph = doc.createElement('p');
      paragraph.append(renderInline(block.text, doc, options));
      return paragraph;
    }
  }
}

/**
 * @param {{ header: string[], rows: string[][] }} table
 * @param {Document} doc
 * @param {MarkdownOptions} options
 * @returns {HTMLElement}
 */
function renderTable(table, doc, options) {
  // The wrapper scrolls sideways, so a wide table does not widen a narrow panel.
  const wrapper = doc.createElement('div');
  wrapper.className = 'dw-table';
  const element = wrapper.appendChild(doc.createElement('table'));
  const head = element.appendChild(doc.createElement('thead')).appendChild(doc.createElement('tr'));
  for (const cell of table.header)
    head.appendChild(doc.createElement('th')).append(renderInline(cell, doc, options));
  const body = element.appendChild(doc.createElement('tbody'));
  for (const row of table.rows) {
    const line = body.appendChild(doc.createElement('tr'));
    for (const cell of row)
      line.appendChild(doc.createElement('td')).append(renderInline(cell, doc, options));
  }
  return wrapper;
}

// One alternation, so the leftmost token wins; `code` comes first so nothing inside it is read.
const INLINE = new RegExp(
  [
    /`([^`\n]+)`/.source, // code
    /\[([^\]\n]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/.source, // [label](href "title")
    /\[(\d{1,3})\](?!\()/.source, // citation [n]
    /\*\*([^*\n]+)\*\*/.source, // strong
    /__([^_\n]+)__/.source,
    /\*([^*\s][^*\n]*)\*/.source, // emphasis
    /\b_([^_\n]+)_\b/.source,
  ].join('|'),
  'g',
);

/**
 * @param {string} text
 * @param {Document} doc
 * @param {MarkdownOptions} options
 * @returns {DocumentFragment}
 */
function renderInline(text, doc, options) {
  const fragment = doc.createDocumentFragment();
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const at = match.index ?? 0;
    appendText(fragment, text.slice(last, at), doc);
    fragment.append(renderToken(match, doc, options));
    last = at + match[0].length;
  }
  appendText(fragment, text.slice(last), doc);
  return fragment;
}

/**
 * @param {RegExpMatchArray} match
 * @param {Document} doc
 * @param {MarkdownOptions} options
 * @returns {Node}
 */
function renderToken(match, doc, options) {
  const [whole, code, label, href, cited, strong, strongUnderscore, emphasis, emphasisUnderscore] = match;
  if (code !== undefined) {
    const element = doc.createElement('code');
    element.textContent = code;
    return element;
  }
  if (label !== undefined && href !== undefined) {
    const resolved = options.resolveHref(href);
    if (!resolved) return renderInline(label, doc, options);
    const anchor = link(doc, resolved, options.linkTarget);
    anchor.append(renderInline(label, doc, options));
    return anchor;
  }
  const source = cited === undefined ? null : (options.citation?.(Number(cited)) ?? null);
  if (source) return renderCitation(Number(cited), source, doc, options);
  const strongText = strong ?? strongUnderscore;
  if (strongText !== undefined) {
    const element = doc.createElement('strong');
    element.append(renderInline(strongText, doc, options));
    return element;
  }
  const emphasisText = emphasis ?? emphasisUnderscore;
  if (emphasisText !== undefined) {
    const element = doc.createElement('em');
    element.append(renderInline(emphasisText, doc, options));
    return element;
  }
  return doc.createTextNode(whole);
}

/**
 * A citation marker as a small numbered link to its source (or a plain marker when sources cannot
 * be linked), named for screen readers by the source's title.
 * @param {number} number
 * @param {{ title: string, href: string | null }} source
 * @param {Document} doc
 * @param {MarkdownOptions} options
 * @returns {Node}
 */
function renderCitation(number, source, doc, options) {
  const marker = doc.createElement('sup');
  marker.className = 'dw-cite';
  const label = source.href ? link(doc, source.href, options.linkTarget) : doc.createElement('span');
  label.title = source.title;
  label.setAttribute('aria-label', `Source ${number}: ${source.title}`);
  label.textContent = String(number);
  marker.append(label);
  return marker;
}

/**
 * Text with its line breaks kept (a soft break inside a paragraph is shown as one).
 * @param {DocumentFragment} fragment
 * @param {string} text
 * @param {Document} doc
 */
function appendText(fragment, text, doc) {
  text.split('\n').forEach((line, index) => {
    if (index > 0) fragment.append(doc.createElement('br'));
    if (line) fragment.append(doc.createTextNode(line));
  });
}

/**
 * A link target that is safe to follow: http(s) and mailto URLs, and paths of the docs site joined
 * to `docsBase` when there is one. Anything else (javascript:, data:) is refused.
 * @param {string} href
 * @param {string | null | undefined} docsBase
 * @returns {string | null}
 */
export function safeHref(href, docsBase) {
  if (!/^[a-z][a-z\d+.-]*:/i.test(href) && !href.startsWith('//')) {
    return docsBase ? docsUrl(href, docsBase) : null;
  }
  try {
    const url = new URL(href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * A docs page path on the docs site. Paths are relative to the site root, which may itself sit
 * under a prefix (`https://example.com/docs`), so they are joined rather than resolved as URLs.
 * @param {string} path e.g. `/quickstart#install`
 * @param {string} docsBase e.g. `https://docs.example.com`
 * @returns {string | null}
 */
export function docsUrl(path, docsBase) {
  try {
    const base = new URL(docsBase);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') return null;
    const root = base.href.replace(/[?#].*$/, '').replace(/\/+$/, '');
    return new URL(`${root}/${path.replace(/^\/+/, '')}`).href;
  } catch {
    return null;
  }
}
