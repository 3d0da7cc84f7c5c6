import type { SiteMetadata } from './site-metadata.js';
import { parentUrlPath } from './url-path.js';

/**
 * The `currentPath` boost ("boosts that page and its neighbours"). A reader asking from a
 * page most likely asks about it, or about the pages next to it. The boost multiplies the bm25
 * score, so it reorders sections that already match the question and never lifts one that does not.
 */
const CURRENT_PAGE_BOOST = 1.3;
const NEIGHBOUR_BOOST = 1.1;

/** The pages of an index by URL path and by folder, for neighbourhood lookups. */
export class PageNeighbourhoods {
  private readonly idsByPath = new Map<string, number>();
  private readonly pathsByLowerCase = new Map<string, string>();
  private readonly pathsByFolder = new Map<string, string[]>();

  constructor(private readonly site: SiteMetadata) {}

  add(urlPath: string, pageId: number): void {
    this.idsByPath.set(urlPath, pageId);
    this.pathsByLowerCase.set(urlPath.toLowerCase(), urlPath);
    const folder = parentUrlPath(urlPath);
    const siblings = this.pathsByFolder.get(folder);
    if (siblings) siblings.push(urlPath);
    else this.pathsByFolder.set(folder, [urlPath]);
  }

  /** The indexed URL path a reader's path refers to; falls back to a case-insensitive match. */
  resolve(urlPath: string): string | undefined {
    return this.idsByPath.has(urlPath) ? urlPath : this.pathsByLowerCase.get(urlPath.toLowerCase());
  }

  /** The page id of an indexed URL path (see `resolve`). */
  pageId(urlPath: string): number | undefined {
    const path = this.resolve(urlPath);
    return path === undefined ? undefined : this.idsByPath.get(path);
  }

  /**
   * Score multipliers by page id around the page at `readerPath`: the page itself, its siblings in
   * the same folder, its folder's index page, its child pages, and the pages before and after it
   * in the navigation. Empty when the path is not a page of the index.
   */
  boosts(readerPath: string): Map<number, number> {
    const boosts = new Map<number, number>();
    const urlPath = this.resolve(readerPath);
    const currentId = urlPath === undefined ? undefined : this.idsByPath.get(urlPath);
    if (urlPath === undefined || currentId === undefined) return boosts;
    const folder = parentUrlPath(urlPath);
    // Top-level pages (changelog, pricing, quickstart) share no topic, so the root is no folder.
    const neighbours = [
      ...(folder === '/' ? [] : (this.pathsByFolder.get(folder) ?? [])),
      ...(urlPath === '/' ? [] : (this.pathsByFolder.get(urlPath) ?? [])),
      ...(folder === '/' ? [] : [folder]),
      ...this.site.navigationNeighbours(urlPath),
    ];
    for (const path of neighbours) {
      const id = this.idsByPath.get(path);
      if (id !== undefined) boosts.set(id, NEIGHBOUR_BOOST);
    }
    boosts.set(currentId, CURRENT_PAGE_BOOST);
    return boosts;
  }
}
