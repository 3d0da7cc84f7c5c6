import { DocsIndex, isDocsPagePath, urlPathFromFile, type DocsFile } from '../../docs/index.js';
import { NAVIGATION_FILES } from '../../docs/navigation.js';
import type { Overlay } from '../../forge/overlay.js';
import type { PathGuard } from './path-guard.js';

/** Hits returned per search. */
const SEARCH_LIMIT = 8;

/**
 * `search_docs` over the job's docs: a full-text index (the assistant's FTS5 index) built from the
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
    const { docs, files } = await this.build();
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
    const pages: DocsFile[] = [];
    const files = new Map<string, string>();
    for (const file of this.files.list(this.guard.root)) {
      const docsPath = this.guard.docsPath(file);
      if (docsPath === undefined || !isDocsPagePath(docsPath)) continue;
      pages.push({ path: docsPath, content: await this.files.read(file) });
      files.set(urlPathFromFile(docsPath), docsPath);
    }
    const navigation = await readDocsJson(this.files, this.guard.root);
    this.index = { docs: DocsIndex.build(pages, { navigation }), files };
    return this.index;
  }
}

/** The parsed navigation config at the docs root (`docs.json`, else `mint.json`), or undefined. */
async function readDocsJson(files: Overlay, root: string): Promise<unknown> {
  for (const name of NAVIGATION_FILES) {
    const file = root === '' ? name : `${root}/${name}`;
    if (!files.exists(file)) continue;
    try {
      return JSON.parse(await files.read(file)) as unknown;
    } catch {
      // A broken config still lets search work, without navigation groups.
      return undefined;
    }
  }
  return undefined;
}
