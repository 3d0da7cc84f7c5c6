import { embed, embedMany, type EmbeddingModel } from 'ai';
import { SectionVectors, type DocsIndex } from '../docs/index.js';

/** Characters of a section sent to the embedding model: its opening says what it is about. */
const MAX_SECTION_CHARACTERS = 2000;
/** Requests to the embedding model in flight at once while an index is built. */
const MAX_PARALLEL_CALLS = 4;

/**
 * Hybrid retrieval's model side: embeds the sections of a docs index once per build (AI SDK
 * `embedMany`, batched to the model's limit) and each question (`embed`). Optional: without an
 * embedding model, retrieval is full-text only, and a failing model only costs the vectors.
 */
export class SectionEmbedder {
  constructor(
    private readonly model: EmbeddingModel,
    private readonly name: string,
  ) {}

  /** Embeds every section of `index` and attaches the vectors to it. */
  async embedIndex(index: DocsIndex, signal?: AbortSignal): Promise<SectionVectors> {
    const sections = index.sectionTexts();
    const { embeddings } = await embedMany({
      model: this.model,
      values: sections.map((section) => section.text.slice(0, MAX_SECTION_CHARACTERS)),
      maxParallelCalls: MAX_PARALLEL_CALLS,
      abortSignal: signal,
    });
    const dimensions = embeddings[0]?.length ?? 0;
    const vectors = new SectionVectors(
      this.name,
      new Map(sections.map((section, position) => [section.id, embeddings[position] ?? []])),
      dimensions,
    );
    index.attachVectors(vectors);
    return vectors;
  }

  /** The embedding of a question. */
  async embedQuery(text: string, signal?: AbortSignal): Promise<number[]> {
    const { embedding } = await embed({ model: this.model, value: text, abortSignal: signal });
    return embedding;
  }
}
