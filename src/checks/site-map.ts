import { posix } from 'node:path';
import type { DocsTree } from '../docs/docs-tree.js';
import { readNavigation, type NavigationFile } from '../docs/site-files.js';
import { isDocsPagePath, normalizeUrlPath, urlPathFromFile } from '../docs/url-path.js';
import { pageAnchors, snippetImports } from './page-anchors.js';
import { scanPage, type ScannedPage } from './page-scan.js';

/** Stands for a `:name*` segment while a redirect pattern is built. */
const REST = '\u0000';

/**
 * What the checks know about a docs site: which URL paths are pages (or redirects), each page's
 * anchors, and the navigation config. Pages are scanned once and cached, since a link check over
 * a whole site asks for the same targets many times.
 */
export class SiteMap {
  private readonly scans = new Map<string, Promise<ScannedPage>>();
  private readonly anchorSets = new Map<string, Promise<Set<string>>>();

  private constructor(
    readonly tree: DocsTree,
    /** Page file (relative to the docs root) by URL path; of two files for one path, the first. */
    readonly pages: Map<string, string>,
    readonly navigation: NavigationFile | undefined,
    private readonly redirects: RegExp[],
    private readonly files: ReadonlySet<string>,
  ) {}

  /** Reads the file list and the navigation config of a tree. */
  static async load(tree: DocsTree): Promise<SiteMap> {
    const paths = tree.paths();
    const pages = new Map<string, string>();
    for (const file of paths) {
      if (!isDocsPagePath(file)) continue;
      const urlPath = urlPathFromFile(file);
      if (!pages.has(urlPath)) pages.set(urlPath, file);
    }
    const navigation = await readNavigation(tree);
    return new SiteMap(tree, pages, navigation, redirectPatterns(navigation?.resolved), new Set(paths));
  }

  /** Whether a URL path is served: a page, or the source of a redirect in the config. */
  serves(urlPath: string): boolean {
    return this.pages.has(urlPath) || this.redirects.some((pattern) => pattern.test(urlPath));
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
    const file = this.pages.get(urlPath);
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

/** Whether a page is MDX (stricter tag rules) rather than CommonMark. */
export function isMdx(file: string): boolean {
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
