import { createWriteStream } from 'node:fs';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type { DeclaredDocsFramework } from '../core/docs-frameworks.js';
import { llmsFullText, llmsText } from '../assistant/llms-text.js';
import { folderWithSurroundings, openDocsSite, readerPages, type ReaderPage } from '../docs/index.js';
import { UsageError } from './exit-codes.js';

export interface LlmsCommandOptions {
  /** The docs folder: the pages' folder or the framework's config folder. */
  docs: string;
  /** Where the written folder is served: llms.txt links each page's Markdown under it. */
  siteUrl: string;
  out: string;
  /** The H1 of llms.txt when the site's config names none (default: the docs folder's name). */
  name?: string;
  docsFramework?: DeclaredDocsFramework;
}

/**
 * `docwright llms`: writes llms.txt, llms-full.txt and each page's Markdown (`<page>.md`) for a
 * docs site on disk, of any framework docwright reads, into a folder to publish beside the site.
 */
export async function writeLlmsFiles(
  options: LlmsCommandOptions,
  cwd = process.cwd(),
): Promise<{ pages: number; out: string }> {
  const root = path.resolve(cwd, options.docs);
  if (!(await stat(root).catch(() => undefined))?.isDirectory())
    throw new UsageError(`${root} is not a folder`);
  const base = siteUrlOf(options.siteUrl);
  const { repository, docsRoot } = folderWithSurroundings(root);
  const site = readerPages(
    await openDocsSite(
      repository,
      docsRoot,
      options.docsFramework ? { framework: options.docsFramework } : {},
    ),
  );
  const out = path.resolve(cwd, options.out);
  const llms = {
    name: site.name ?? options.name ?? path.basename(root),
    linkOf: (page: ReaderPage) =>
      new URL(page.markdownFile.split('/').map(encodeURIComponent).join('/'), base).href,
  };
  await mkdir(out, { recursive: true });
  for (const page of site.pages) {
    const file = path.join(out, page.markdownFile);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, page.markdown);
  }
  await writeFile(path.join(out, 'llms.txt'), llmsText(site, llms));
  const full = createWriteStream(path.join(out, 'llms-full.txt'));
  for (const piece of llmsFullText(site, llms))
    if (!full.write(piece)) await new Promise<void>((resolve) => full.once('drain', () => resolve()));
  full.end();
  await finished(full);
  return { pages: site.pages.length, out };
}

/** The site's address as a base for relative links: absolute, ending in a slash. */
function siteUrlOf(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `--site-url must be an absolute address such as https://docs.example.com/, not ${value}`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(`--site-url must be an http or https address, not ${value}`);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}
