import { DocwrightError } from '../core/errors.js';
import { frameworkOption } from '../core/docs-frameworks.js';
import { DocsIndex, openDocsSite, readerPages, type ReaderSite } from '../docs/index.js';
import type { Forge, Snapshot } from '../forge/types.js';
import type { Logger } from '../core/logger.js';
import type { ProjectRow } from '../store/index.js';
import type { SectionEmbedder } from './embeddings.js';

interface Entry {
  commit: string;
  index: DocsIndex;
  /** The same docs as pages to list and read whole (the MCP server, llms.txt). */
  pages: ReaderSite;
  checkedAt: number;
}

export interface DocsIndexesOptions {
  forge: Forge;
  logger: Logger;
  /** How long a built index is trusted before the base branch is looked at again. */
  recheckMs?: number;
  now?: () => number;
  /**
   * With an embedding model configured: gives each index's sections their vectors for hybrid
   * retrieval (reusing those its store kept from earlier builds).
   */
  embedder?: SectionEmbedder;
}

/**
 * One FTS5 index per project, built from the docs at the head of the project's base branch and
 * rebuilt when that head moves (checked at most every `recheckMs`, or at once after `invalidate`,
 * which jobs and pushes call). Concurrent requests share one build.
 */
export class DocsIndexes {
  private readonly entries = new Map<string, Entry>();
  private readonly building = new Map<string, Promise<Entry>>();
  private readonly now: () => number;

  constructor(private readonly options: DocsIndexesOptions) {
    this.now = options.now ?? Date.now;
  }

  async get(project: ProjectRow): Promise<DocsIndex> {
    return (await this.current(project)).index;
  }

  /** The project's pages, from the same revision of its docs as its index. */
  async pages(project: ProjectRow): Promise<ReaderSite> {
    return (await this.current(project)).pages;
  }

  private async current(project: ProjectRow): Promise<Entry> {
    const entry = this.entries.get(project.id);
    if (entry && this.now() - entry.checkedAt < (this.options.recheckMs ?? 10_000)) return entry;
    const pending = this.building.get(project.id);
    if (pending) return pending;
    const build = this.refresh(project, entry).finally(() => this.building.delete(project.id));
    this.building.set(project.id, build);
    return build;
  }

  /** The project's docs may have changed: look again on the next request. */
  invalidate(projectId: string): void {
    const entry = this.entries.get(projectId);
    if (entry) entry.checkedAt = Number.NEGATIVE_INFINITY;
  }

  close(): void {
    for (const entry of this.entries.values()) entry.index.close();
    this.entries.clear();
  }

  /**
   * Adds embedding vectors to a new index: stored ones for text embedded before (on any replica),
   * the model's for the rest. A failing model leaves the sections it did not embed to full-text
   * search, never an unusable index.
   */
  private async embed(project: ProjectRow, index: DocsIndex): Promise<void> {
    if (!this.options.embedder) return;
    const started = performance.now();
    const { vectors, modelError, storeError, ...counts } = await this.options.embedder.embedIndex(
      index,
      project.id,
    );
    const fields = { project: project.id, ...counts, ms: Math.round(performance.now() - started) };
    const { logger } = this.options;
    if (storeError)
      logger.warn(
        { ...fields, error: storeError.message },
        'the stored section embeddings could not be read or updated',
      );
    if (modelError)
      logger.warn(
        { ...fields, error: modelError.message },
        'embedding the docs failed; sections without a stored vector are searched full-text only',
      );
    else logger.info({ ...fields, model: vectors?.model }, 'docs index embedded');
  }

  private async refresh(project: ProjectRow, entry: Entry | undefined): Promise<Entry> {
    const commit = await this.options.forge.resolveRef(project.repository, project.base_ref);
    if (!commit)
      throw new DocwrightError(
        'not_found',
        `The base branch "${project.base_ref}" of project ${project.id} does not exist`,
        { retryable: false },
      );
    if (entry?.commit === commit) {
      entry.checkedAt = this.now();
      return entry;
    }
    const snapshot = await this.options.forge.snapshot(project.repository, commit);
    try {
      const site = await openDocsSite(snapshot, project.docs_root, frameworkOption(project.docs_framework));
      const index = DocsIndex.fromSite(site);
      this.options.logger.info({ project: project.id, commit, ...index.stats }, 'docs index built');
      await this.embed(project, index);
      const built = { commit, index, pages: readerPages(site), checkedAt: this.now() };
      this.entries.set(project.id, built);
      entry?.index.close();
      return built;
    } finally {
      snapshot.close?.();
    }
  }
}

/**
 * Reads the docs site the docs root names in a snapshot (of whichever framework, the declared one
 * if any) and indexes it: pages cited at the URLs their framework serves them at.
 */
export async function buildIndex(
  snapshot: Snapshot,
  docsRoot: string,
  framework: string | null = null,
): Promise<DocsIndex> {
  return DocsIndex.fromSite(await openDocsSite(snapshot, docsRoot, frameworkOption(framework)));
}
