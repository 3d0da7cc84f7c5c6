import { DocsIndex, openDocsSite } from '../../docs/index.js';
import { isMissingModule } from '../../core/sqlite.js';
import type { Overlay } from '../../forge/overlay.js';
import type { PathGuard } from './path-guard.js';

/** Hits returned per search. */
const SEARCH_LIMIT = 8;

/**
 * `search_docs` over the job's docs: a full-text index (the assistant's FTS5 index, in better-sqlite3 or Node's own SQLite) built from the
 * overlay on the first search and reused after, so it shows the docs as they were when the run
 * first searched. `close()` frees it (the next search builds a fresh one).
 */
export class DocsSearch {
  private index: { docs: DocsIndex; files: Map<string, string> } | undefined;

  constructor(
    private readonly files: Overlay,
    private readonly guard: PathGuard,
  ) {}

  async search(query: string): Promise<string> {
    let built;
    try {
      built = await this.build();
    } catch (error) {
      // The index lives in SQLite; where neither better-sqlite3 nor node:sqlite loads (the Action's
      // bundle on Node 20), the model still lists and reads.
      if (!isMissingModule(error)) throw error;
      return 'Full-text search is not available here: use list_files and read_file to find the pages.';
    }
    const { docs, files } = built;
    const hits = docs.search(query, { limit: SEARCH_LIMIT });
    if (hits.length === 0) return `Nothing in the docs matches "${query}".`;
    return hits
      .map((hit, number) => {
        const file = files.get(hit.urlPath) ?? hit.urlPath;
        const where = hit.anchor ? `${file}#${hit.anchor}` : file;
        const heading = [hit.pageTitle, ...hit.headings].join(' > ');
        return `${number + 1}. ${where} (${heading})\n   ${hit.snippet.replace(/\s+/g, ' ')}`;
      })
      .join('\n');
  }

  close(): void {
    this.index?.docs.close();
    this.index = undefined;
  }

  private async build(): Promise<{ docs: DocsIndex; files: Map<string, string> }> {
    if (this.index) return this.index;
    // The site as the assistant and the checks read it, through its framework: its pages, their URLs.
    const site = await openDocsSite(this.files, this.guard.root);
    const files = new Map<string, string>();
    for (const [file, page] of site.pages) files.set(page.url, file);
    this.index = { docs: DocsIndex.fromSite(site), files };
    return this.index;
  }
}
