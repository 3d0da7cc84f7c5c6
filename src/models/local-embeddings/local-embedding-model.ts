import type { EmbeddingModel } from 'ai';
import { ConfigError } from '../../core/errors.js';
import { poolSentences, type Pooling } from './pooling.js';
import type { EncoderModel, Tokenizer, Transformers } from './transformers-import.js';

/** The AI SDK's embedding model interface as `ai` declares it (the one `@ai-sdk/openai` returns). */
type EmbeddingModelV3 = Extract<EmbeddingModel, { specificationVersion: 'v3' }>;
type DoEmbedOptions = Parameters<EmbeddingModelV3['doEmbed']>[0];
type DoEmbedResult = Awaited<ReturnType<EmbeddingModelV3['doEmbed']>>;

/**
 * Texts per `doEmbed`: the AI SDK splits a large `embedMany` into calls of this size. Enough for
 * sorting by length to leave little padding, few enough that an abort is noticed between calls.
 */
const TEXTS_PER_CALL = 256;

/**
 * Tokens (padding included) per run of the encoder. A run's attention scores take texts × heads ×
 * length² floats per layer: at 4,096 tokens of 512-token texts, a 12-head model holds about 100 MB
 * of them, whatever the number of texts.
 */
export const TOKENS_PER_RUN = 4096;

/** What was loaded for a model: its tokenizer and encoder, how to pool, where to cut a text. */
export interface LocalEncoder {
  transformers: Pick<Transformers, 'Tensor'>;
  tokenizer: Tokenizer;
  model: EncoderModel;
  pooling: Pooling;
  /** Tokens kept of a text (its special tokens included); the rest is cut off. */
  maxTokens: number;
}

/**
 * A sentence-embedding model run in this process by transformers.js (ONNX Runtime on the CPU), as
 * an AI SDK embedding model: `SectionEmbedder`, the stored vectors and the benchmarks use it as they
 * use OpenAI's. Each text gets one unit-length vector, pooled from its token vectors as the model
 * asks; padding never changes a text's vector.
 */
export class LocalEmbeddingModel implements EmbeddingModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = 'local';
  readonly maxEmbeddingsPerCall = TEXTS_PER_CALL;
  // One encoder on the machine's cores: parallel calls would only share them, and multiply memory.
  readonly supportsParallelCalls = false;

  constructor(
    readonly modelId: string,
    private readonly encoder: LocalEncoder,
    private readonly tokensPerRun = TOKENS_PER_RUN,
  ) {}

  get pooling(): Pooling {
    return this.encoder.pooling;
  }

  async doEmbed({ values, abortSignal }: DoEmbedOptions): Promise<DoEmbedResult> {
    abortSignal?.throwIfAborted();
    if (values.length === 0) return { embeddings: [], usage: { tokens: 0 }, warnings: [] };
    const encoded = this.encoder.tokenizer(values, {
      truncation: true,
      max_length: this.encoder.maxTokens,
      return_tensor: false,
    });
    const lengthOf = (index: number) => encoded.input_ids[index]!.length;
    // Shortest first, so the texts of a run have nearly the same length and little padding.
    const order = values.map((_, index) => index).sort((a, b) => lengthOf(a) - lengthOf(b));
    const embeddings: number[][] = new Array<number[]>(values.length);
    let tokens = 0;
    for (const run of runsOf(order, lengthOf, this.tokensPerRun)) {
      abortSignal?.throwIfAborted();
      const vectors = await this.encode(run, encoded);
      run.forEach((index, position) => {
        embeddings[index] = vectors[position]!;
        tokens += lengthOf(index);
      });
    }
    return { embeddings, usage: { tokens }, warnings: [] };
  }

  /** One run of the encoder over the texts `run` (indexes into `encoded`), padded to the longest. */
  private async encode(run: number[], encoded: ReturnType<Tokenizer>): Promise<number[][]> {
    const { Tensor } = this.encoder.transformers;
    const width = Math.max(...run.map((index) => encoded.input_ids[index]!.length));
    const padId = BigInt(this.encoder.tokenizer.pad_token_id ?? 0);
    const padLeft = this.encoder.tokenizer.padding_side === 'left';
    const ids = new BigInt64Array(run.length * width).fill(padId);
    const attention = new BigInt64Array(run.length * width);
    const types = encoded.token_type_ids ? new BigInt64Array(run.length * width) : undefined;
    const mask: number[][] = [];
    run.forEach((index, row) => {
      const textIds = encoded.input_ids[index]!;
      const offset = padLeft ? width - textIds.length : 0;
      const start = row * width + offset;
      const rowMask = new Array<number>(width).fill(0);
      textIds.forEach((id, position) => {
        ids[start + position] = BigInt(id);
        attention[start + position] = 1n;
        rowMask[offset + position] = 1;
        const type = encoded.token_type_ids?.[index]?.[position];
        if (types && type) types[start + position] = BigInt(type);
      });
      mask.push(rowMask);
    });
    const dims = [run.length, width];
    const inputs: Record<string, unknown> = {
      input_ids: new Tensor('int64', ids, dims),
      attention_mask: new Tensor('int64', attention, dims),
    };
    if (types) inputs.token_type_ids = new Tensor('int64', types, dims);
    const outputs = await this.encoder.model(inputs);
    // Hugging Face's exports name the token vectors last_hidden_state; sentence-transformers' own
    // ONNX exports name them token_embeddings.
    const hidden = outputs.last_hidden_state ?? outputs.token_embeddings;
    if (!hidden || hidden.dims.length !== 3)
      throw new ConfigError(
        `The embedding model ${this.modelId} gave no token vectors (its outputs: ${Object.keys(outputs).join(', ')})`,
      );
    return poolSentences(hidden.data, hidden.dims, mask, this.encoder.pooling);
  }
}

/**
 * Splits texts sorted by length into runs of at most `budget` tokens once padded (at least one
 * text per run, however long).
 */
export function runsOf(order: number[], lengthOf: (index: number) => number, budget: number): number[][] {
  const runs: number[][] = [];
  let current: number[] = [];
  for (const index of order) {
    // Sorted shortest first: the new text is the longest, so the run pads to its length.
    if (current.length > 0 && (current.length + 1) * lengthOf(index) > budget) {
      runs.push(current);
      current = [];
    }
    current.push(index);
  }
  if (current.length > 0) runs.push(current);
  return runs;
}
