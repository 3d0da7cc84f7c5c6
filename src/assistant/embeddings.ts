import { asError, DocwrightError } from '../core/errors.js';
import { createHash } from 'node:crypto';
import { embed, embedMany, type EmbeddingModel } from 'ai';
import { SectionVectors, type DocsIndex } from '../docs/index.js';
import type { SectionEmbeddingStore } from '../store/index.js';

/** Characters of a section sent to the embedding model: its opening says what it is about. */
const MAX_SECTION_CHARACTERS = 2000;
/** Requests to the embedding model in flight at once while an index is built. */
const MAX_PARALLEL_CALLS = 4;
/**
 * Texts per `embedMany`, stored before the next: four full OpenAI requests (2,048 inputs each), so
 * a model that fails halfway through a large site keeps what it already returned.
 */
const TEXTS_PER_ROUND = MAX_PARALLEL_CALLS * 2048;

/** What embedding one index cost, and what it left without a vector. */
export interface IndexEmbedding {
  /** The vectors attached to the index; undefined when no section has one. */
  vectors: SectionVectors | undefined;
  sections: number;
  /** Sections whose vector came from the store. */
  reused: number;
  /** Distinct texts sent to the model. */
  embedded: number;
  /** Sections left without a vector (the model failed): found by full-text search only. */
  withoutVector: number;
  /** Stored vectors of sections no longer in the docs, removed. */
  removed: number;
  /** The embedding model failed. */
  modelError?: Error;
  /** Reading, writing or pruning stored vectors failed; the index is embedded all the same. */
  storeError?: Error;
}

interface SectionText {
  id: number;
  text: string;
  hash: string;
}

/**
 * Hybrid retrieval's model side: gives the sections of a docs index their vectors once per build
 * and embeds each question (`embed`). With a store, a section text embedded before (by this
 * process, an earlier one or another replica) is read back instead of sent again, so a rebuild
 * costs only the text that changed. Optional: without an embedding model, retrieval is full-text
 * only, and a failing model only costs the vectors of the text it did not embed.
 */
export class SectionEmbedder {
  constructor(
    private readonly model: EmbeddingModel,
    private readonly name: string,
    private readonly store?: SectionEmbeddingStore,
  ) {}

  /** Gives every section of `index` its vector (stored, or from the model) and attaches them. */
  async embedIndex(index: DocsIndex, projectId: string, signal?: AbortSignal): Promise<IndexEmbedding> {
    const sections = index.sectionTexts().map(({ id, text }) => {
      const sent = text.slice(0, MAX_SECTION_CHARACTERS);
      return { id, text: sent, hash: contentHash(sent) };
    });
    const report: IndexEmbedding = {
      vectors: undefined,
      sections: sections.length,
      reused: 0,
      embedded: 0,
      withoutVector: 0,
      removed: 0,
    };
    const stored = await this.loadStored(projectId, report);
    const known = new Map(stored);
    const missing = textsWhere(sections, (section) => !known.has(section.hash));
    const freshDimensions = await this.embedTexts(projectId, missing, known, report, signal);
    const dimensions = freshDimensions ?? sharedDimensions(sections, known);
    // Every vector must have the model's dimensions: a model that changed them under the same name
    // (an OpenAI-compatible server now serving another model) has its stored vectors replaced.
    if (!report.modelError) {
      const other = textsWhere(sections, (section) => known.get(section.hash)?.length !== dimensions);
      await this.embedTexts(projectId, other, known, report, signal);
    }
    const vectors = new Map<number, Float32Array>();
    for (const section of sections) {
      const vector = known.get(section.hash);
      if (vector?.length !== dimensions) continue;
      vectors.set(section.id, vector);
      if (stored.get(section.hash) === vector) report.reused += 1;
    }
    report.withoutVector = sections.length - vectors.size;
    if (vectors.size > 0) {
      report.vectors = new SectionVectors(this.name, vectors, dimensions);
      index.attachVectors(report.vectors);
    }
    if (report.withoutVector === 0 && !report.storeError)
      await this.prune(projectId, new Set(sections.map((section) => section.hash)), report);
    return report;
  }

  /** The embedding of a question. */
  async embedQuery(text: string, signal?: AbortSignal): Promise<number[]> {
    const { embedding } = await embed({ model: this.model, value: text, abortSignal: signal });
    return embedding;
  }

  private async loadStored(projectId: string, report: IndexEmbedding): Promise<Map<string, Float32Array>> {
    if (!this.store) return new Map();
    try {
      return await this.store.load(projectId, this.name);
    } catch (error) {
      report.storeError = asError(error);
      return new Map();
    }
  }

  /**
   * Embeds `texts` (by hash) in rounds, each stored before the next; a failure ends the rounds.
   * Returns the dimensions of the vectors the model gave, if it gave any.
   */
  private async embedTexts(
    projectId: string,
    texts: ReadonlyMap<string, string>,
    known: Map<string, Float32Array>,
    report: IndexEmbedding,
    signal: AbortSignal | undefined,
  ): Promise<number | undefined> {
    const entries = [...texts];
    let dimensions: number | undefined;
    for (let start = 0; start < entries.length; start += TEXTS_PER_ROUND) {
      const round = entries.slice(start, start + TEXTS_PER_ROUND);
      let fresh: Map<string, Float32Array>;
      try {
        const { embeddings } = await embedMany({
          model: this.model,
          values: round.map(([, text]) => text),
          maxParallelCalls: MAX_PARALLEL_CALLS,
          abortSignal: signal,
        });
        if (embeddings.length !== round.length)
          throw new DocwrightError(
            'internal_error',
            `The embedding model returned ${embeddings.length} vectors for ${round.length} texts`,
          );
        // Rounded to float32 here, as stored: an index built from the store ranks exactly alike.
        fresh = new Map(round.map(([hash], position) => [hash, Float32Array.from(embeddings[position]!)]));
      } catch (error) {
        report.modelError = asError(error);
        return dimensions;
      }
      report.embedded += round.length;
      for (const [hash, vector] of fresh) known.set(hash, vector);
      dimensions ??= fresh.values().next().value?.length;
      await this.save(projectId, fresh, report);
    }
    return dimensions;
  }

  private async save(
    projectId: string,
    fresh: Map<string, Float32Array>,
    report: IndexEmbedding,
  ): Promise<void> {
    try {
      await this.store?.save(projectId, this.name, fresh);
    } catch (error) {
      report.storeError = asError(error);
    }
  }

  /** Drops the stored vectors of text no longer in the docs, so the table follows the docs, not their history. */
  private async prune(
    projectId: string,
    current: ReadonlySet<string>,
    report: IndexEmbedding,
  ): Promise<void> {
    try {
      report.removed = (await this.store?.removeExcept(projectId, this.name, current)) ?? 0;
    } catch (error) {
      report.storeError = asError(error);
    }
  }
}

/** SHA-256 (hex) of the exact text sent to the model: the key of its stored vector. */
export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The texts (by hash, each once) of the sections `wanted` picks. */
function textsWhere(
  sections: readonly SectionText[],
  wanted: (section: SectionText) => boolean,
): Map<string, string> {
  const texts = new Map<string, string>();
  for (const section of sections) if (wanted(section)) texts.set(section.hash, section.text);
  return texts;
}

/** The dimensions most of the sections' stored vectors have, when the model was not asked. */
function sharedDimensions(
  sections: readonly SectionText[],
  known: ReadonlyMap<string, Float32Array>,
): number {
  const counts = new Map<number, number>();
  for (const section of sections) {
    const length = known.get(section.hash)?.length;
    if (length) counts.set(length, (counts.get(length) ?? 0) + 1);
  }
  let best = 0;
  for (const [length, count] of counts) if (count > (counts.get(best) ?? 0)) best = length;
  return best;
}
