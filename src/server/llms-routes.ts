import { createHash } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { Assistant } from '../assistant/assistant.js';
import { notFound } from '../core/errors.js';
import {
  findReaderPage,
  llmsFullText,
  llmsText,
  type ReaderPage,
  type ReaderSite,
} from '../assistant/llms-text.js';
import type { ProjectRow, Store } from '../store/index.js';

export interface LlmsRouteDependencies {
  store: Store;
  assistant: Pick<Assistant, 'pages'>;
  /** Take the scheme and host of links from X-Forwarded-Proto and X-Forwarded-Host. */
  trustProxy: boolean;
}

/** The files change when the docs do; a few minutes of caching spares the index for readers' agents. */
const CACHE_CONTROL = 'public, max-age=300';

/**
 * llms.txt of each assistant domain (llmstxt.org), mounted at /llms: `/llms/<domain>/llms.txt`,
 * `llms-full.txt` and each page's Markdown at `/llms/<domain>/<page>.md`. Public, as the docs
 * site itself is: no key.
 */
export function llmsRoutes(deps: LlmsRouteDependencies) {
  const app = new Hono();
  const revisions = new WeakMap<ReaderSite, string>();
  const revisionOf = (site: ReaderSite) => {
    let revision = revisions.get(site);
    if (revision === undefined) {
      const hash = createHash('sha256');
      for (const page of site.pages) hash.update(`${page.markdownFile}\0${page.markdown}\0`);
      revision = hash.digest('hex').slice(0, 32);
      revisions.set(site, revision);
    }
    return revision;
  };

  const siteOf = async (c: Context) => {
    const domain = c.req.param('domain') ?? '';
    const project = await deps.store.projects.getByDomain(domain);
    if (!project || project.disabled_at)
      throw notFound(`No documentation site is published for the domain ${domain}`);
    const site = await deps.assistant.pages(project);
    const base = `${origin(c, deps.trustProxy)}/llms/${encodeURIComponent(domain)}/`;
    const options = {
      name: site.name ?? nameOf(project),
      linkOf: (page: ReaderPage) => base + encodePath(page.markdownFile),
    };
    return { site, options, revision: revisionOf(site), base };
  };

  app.get('/:domain/llms.txt', async (c) => {
    const { site, options, revision, base } = await siteOf(c);
    return send(c, etag(revision, `txt ${base}`), 'text/plain; charset=utf-8', llmsText(site, options));
  });

  app.get('/:domain/llms-full.txt', async (c) => {
    const { site, options, revision, base } = await siteOf(c);
    const pieces = llmsFullText(site, options);
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = pieces.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
    });
    return send(c, etag(revision, `full ${base}`), 'text/plain; charset=utf-8', stream);
  });

  app.get('/:domain/:path{.+\\.md}', async (c) => {
    const { site, revision } = await siteOf(c);
    const path = c.req.param('path');
    const page = site.pages.find((each) => each.markdownFile === path) ?? findReaderPage(site, path);
    if (!page) throw notFound(`No page of the documentation site is at ${path}`);
    return send(c, etag(revision, page.markdownFile), 'text/markdown; charset=utf-8', page.markdown);
  });

  return app;
}

/** A 304 when the client holds this version, else the body with its validators. */
function send(c: Context, tag: string, type: string, body: string | ReadableStream<Uint8Array>): Response {
  const headers = { ETag: tag, 'Cache-Control': CACHE_CONTROL };
  const held = c.req.header('if-none-match');
  if (held !== undefined && held.split(',').some((value) => value.trim() === tag))
    return c.body(null, 304, headers);
  return c.body(body, 200, { ...headers, 'Content-Type': type });
}

/** A strong validator: the docs' revision and which file of it (links differ by the address asked). */
function etag(revision: string, file: string): string {
  return `"${revision}-${createHash('sha256').update(file).digest('hex').slice(0, 12)}"`;
}

function origin(c: Context, trustProxy: boolean): string {
  const url = new URL(c.req.url);
  if (trustProxy) {
    const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim();
    const host = c.req.header('x-forwarded-host')?.split(',')[0]?.trim();
    if (host) return `${proto ?? url.protocol.replace(/:$/, '')}://${host}`;
  }
  return url.origin;
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** A site whose config names nothing is called by its domain. */
function nameOf(project: ProjectRow): string {
  return project.domain ?? project.id;
}
