import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { DocwrightError } from '../core/errors.js';

/**
 * The chat page and the embeddable widget: static files from
 * `web/`, read once when the routes are built. The same relative URL finds `web/` from `src/server`
 * (tests, tsx) and from `lib/server` (the built package).
 */
const WEB_DIR = new URL('../../web/', import.meta.url);

/** Served path -> file in `web/`. */
const FILES: Record<string, string> = {
  '/': 'chat.html',
  '/chat.js': 'chat.js',
  '/chat-core.js': 'chat-core.js',
  '/chat-ui.js': 'chat-ui.js',
  '/chat-answer.js': 'chat-answer.js',
  '/dom.js': 'dom.js',
  '/markdown.js': 'markdown.js',
  '/widget.js': 'widget.js',
  '/chat.css': 'chat.css',
  '/page.css': 'page.css',
  '/widget.css': 'widget.css',
  '/favicon.svg': 'favicon.svg',
};

const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

/**
 * The page runs only its own files and talks only to this server; model text is never markup, so
 * nothing inline is needed. `frame-ancestors 'none'`: the page holds a key, so it is not framable.
 */
const CHAT_PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** Headers of the page: never cached without a check, and the key-bearing address never sent on. */
const PAGE_HEADERS = {
  'cache-control': 'no-cache',
  'content-security-policy': CHAT_PAGE_CSP,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/**
 * Headers of scripts, styles and the icon. Docs sites on other origins load them (the widget
 * imports the chat modules, and module scripts are fetched with CORS); names are not hashed, so
 * they are cached briefly and revalidated by ETag.
 */
const ASSET_HEADERS = {
  'cache-control': 'public, max-age=300, must-revalidate',
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
  'x-content-type-options': 'nosniff',
};

interface WebFile {
  body: string;
  headers: Record<string, string>;
}

/** Routes for `GET /` (the chat page) and the files it and the widget load. */
export function webRoutes(): Hono {
  const app = new Hono();
  for (const [route, file] of Object.entries(FILES)) {
    const served = readWebFile(file);
    app.get(route, (c) => {
      if (etagMatches(c.req.header('if-none-match'), served.headers.etag)) {
        return c.body(null, 304, served.headers);
      }
      return c.body(served.body, 200, served.headers);
    });
  }
  return app;
}

function readWebFile(file: string): WebFile {
  const body = readFileSync(new URL(file, WEB_DIR), 'utf8');
  const extension = file.slice(file.lastIndexOf('.') + 1);
  const contentType = CONTENT_TYPES[extension];
  if (!contentType)
    throw new DocwrightError('internal_error', `web/${file}: no content type for .${extension}`, {
      retryable: false,
    });
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  const headers = extension === 'html' ? PAGE_HEADERS : ASSET_HEADERS;
  return { body, headers: { ...headers, 'content-type': contentType, etag } };
}

/** `If-None-Match` may list several tags, or `*`; weak tags (`W/`) compare equal here (RFC 9110). */
function etagMatches(header: string | undefined, etag: string | undefined): boolean {
  if (!header || !etag) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}
