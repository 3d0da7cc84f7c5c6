import { posix } from 'node:path';
import type { DocsTree } from '../docs/docs-tree.js';
import {
  readDocsSite,
  type DocsSiteFiles,
  type NavigationFile,
  type SiteNavigation,
} from '../docs/site-files.js';
import type { SiteLayout } from '../docs/site/frameworks.js';
import { normalizeUrlPath, urlPathFromFile } from '../docs/url-path.js';
import { pageAnchors, snippetImports } from './page-anchors.js';
import { scanPage, type ScannedPage } from '../docs/page-scan.js';

/** Stands for a `:name*` segment while a redirect pattern is built. */
const REST = '\u0000';

/**
 * What the checks know about a docs site, read from the docs model: which paths are pages (by file
 * and by the URL the framework serves them at), which are redirects, each page's anchors, and the
 * navigation. Pages are scanned once and cached, since a link check over a whole site asks for the
 * same targets many times.
 */
export class SiteMap {
  private readonly scans = new Map<string, Promise<ScannedPage>>();
  private readonly anchorSets = new Map<string, Promise<Set<string>>>();

  private constructor(
    readonly tree: DocsTree,
    readonly layout: SiteLayout,
    /**
     * Page file (relative to the pages folder) by its path as a link to the file names it
     * (`/guides/setup` for `guides/setup.md` or `guides/setup/index.mdx`); of two, the first.
     */
    readonly pages: Map<string, string>,
    /** Page file by the URL the framework serves it at (with the site's base, see PageRules). */
    private readonly urls: Map<string, string>,
    /** Mintlify's `docs.json`, whose redirects count as pages. */
    readonly mintlify: NavigationFile | undefined,
    readonly navigation: SiteNavigation,
    private readonly redirects: RegExp[],
    private readonly files: ReadonlySet<string>,
  ) {}

  /** The site map of a site read by the docs model, or of a folder of pages read as one. */
  static async load(site: DocsSiteFiles | DocsTree): Promise<SiteMap> {
    const model = 'layout' in site ? site : await readDocsSite(site);
    const pages = new Map<string, string>();
    const urls = new Map<string, string>();
    for (const [file, page] of model.pages) {
      const linkPath = urlPathFromFile(file);
      if (!pages.has(linkPath)) pages.set(linkPath, file);
      if (!urls.has(page.url)) urls.set(page.url, file);
    }
    return new SiteMap(
      model.tree,
      model.layout,
      pages,
      urls,
      model.navigation,
      model.siteNavigation,
      redirectPatterns(model.navigation?.resolved),
      new Set(model.tree.paths()),
    );
  }

  /**
   * The page file a link target names, if any: as a file path (`/guides/setup`, from the pages
   * folder), else as a URL on the built site, with or without the site's base written out.
   */
  pageAt(linkPath: string): string | undefined {
    const { siteBase } = this.layout;
    const underBase =
      siteBase === '/' ? undefined : normalizeUrlPath(`${siteBase}${linkPath.replace(/^\/+/, '')}`);
    return (
      this.pages.get(linkPath) ??
      this.urls.get(linkPath) ??
      (underBase === undefined ? undefined : this.urls.get(underBase))
    );
  }

  /** Whether a link target is served: a page, or the source of a redirect in the config. */
  serves(linkPath: string): boolean {
    return this.pageAt(linkPath) !== undefined || this.redirects.some((pattern) => pattern.test(linkPath));
  }

  /** A page's scan, read once. */
  scan(file: string): Promise<ScannedPage> {
    let scan = this.scans.get(file);
    if (!scan) {
      scan = this.tree.read(file).then((content) => scanPage(content, { mdx: isMdx(file) }));
      this.scans.set(file, scan);
    }
    return scan;
  }

  /** The anchors of the page at a URL path, or undefined when no page file is there (a redirect). */
  anchors(urlPath: string): Promise<Set<string>> | undefined {
    const file = this.pageAt(urlPath);
    return file === undefined ? undefined : this.fileAnchors(file);
  }

  /** A file's anchors, with those of the snippets it imports (their headings render in the page). */
  fileAnchors(file: string): Promise<Set<string>> {
    let anchors = this.anchorSets.get(file);
    if (!anchors) {
      anchors = this.readAnchors(file);
      this.anchorSets.set(file, anchors);
    }
    return anchors;
  }

  private async readAnchors(file: string): Promise<Set<string>> {
    const scan = await this.scan(file);
    const anchors = pageAnchors(scan, { mdx: isMdx(file) });
    for (const imported of snippetImports(scan)) {
      const snippet = imported.startsWith('/')
        ? posix.normalize(imported.slice(1))
        : posix.join(posix.dirname(file), imported);
      // One level: snippets rarely import snippets, and this way an import cycle cannot hang.
      if (!this.files.has(snippet) || snippet === file) continue;
      const snippetScan = await this.scan(snippet);
      for (const anchor of pageAnchors(snippetScan, { mdx: isMdx(snippet) })) anchors.add(anchor);
    }
    return anchors;
  }
}

/** Whether a page is MDX (stricter tag rules) rather than CommonMark, as the site's framework reads it. */
export function isMdx(file: string, layout?: SiteLayout): boolean {
  if (layout?.mdx === 'none') return false;
  if (layout?.mdx === 'all') return /\.mdx?$/i.test(file);
  return !/\.md$/i.test(file);
}

/**
 * The config's `redirects` sources as patterns over URL paths: `:name` matches one segment and
 * `:name*` any rest, the way Mintlify (like Next.js) writes them.
 */
function redirectPatterns(config: unknown): RegExp[] {
  const redirects = (config as { redirects?: unknown } | undefined)?.redirects;
  if (!Array.isArray(redirects)) return [];
  return redirects.flatMap((redirect) => {
    const source = (redirect as { source?: unknown } | null)?.source;
    if (typeof source !== 'string') return [];
    const pattern = normalizeUrlPath(source)
      .split('/')
      .map((segment) => {
        if (/^:\w+\*$/.test(segment)) return REST;
        if (/^:\w+$/.test(segment)) return '[^/]+';
        return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('/')
      // `/docs/:slug*` also matches `/docs` itself.
      .replace(`/${REST}`, '(?:/.*)?');
    return [new RegExp(`^${pattern}$`)];
  });
}
