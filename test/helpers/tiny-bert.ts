/**
 * A sentence-embedding model folder laid out as the Hugging Face hub lays out a transformers.js
 * model (config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx), with the real BERT
 * encoder architecture and WordPiece tokenizer but small and random: no retrieval model's weights
 * can be downloaded where the tests run, and what they check (loading, tokenizing, padding,
 * pooling, storing, searching) does not depend on the weights being trained.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeModel, FLOAT, INT64, type Graph, type Node, type Tensor } from './onnx-proto.js';

export interface TinyBertOptions {
  layers?: number;
  hidden?: number;
  heads?: number;
  intermediate?: number;
  maxPositions?: number;
  /** Whole words in the vocabulary besides single characters (lowercase). */
  words?: readonly string[];
  /** Seeds the random weights: the same seed gives the same model. */
  seed?: number;
  /** Writes sentence-transformers' 1_Pooling/config.json with this mode. */
  pooling?: 'cls' | 'mean';
  /** Writes the model as onnx/model_quantized.onnx only (as a folder of quantized weights has it). */
  quantizedFileOnly?: boolean;
}

/** The special tokens, first in every vocabulary, in BERT's order. */
export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const CHARACTERS = [...'abcdefghijklmnopqrstuvwxyz0123456789', ...'.,;:!?\'"()[]{}-_/\\@#$%&*+=<>|`~^'];

/** The tokens of the vocabulary, by id. */
export function tinyVocabulary(words: readonly string[] = []): string[] {
  const tokens = [...SPECIAL_TOKENS, ...CHARACTERS, ...CHARACTERS.map((character) => `##${character}`)];
  for (const word of words) if (!tokens.includes(word)) tokens.push(word);
  return tokens;
}

/** Writes the model folder into `folder` (created if missing) and returns it. */
export function writeTinyBertFolder(folder: string, options: TinyBertOptions = {}): string {
  const layers = options.layers ?? 2;
  const hidden = options.hidden ?? 32;
  const heads = options.heads ?? 2;
  const intermediate = options.intermediate ?? 64;
  const maxPositions = options.maxPositions ?? 512;
  const vocabulary = tinyVocabulary(options.words);
  writeModelFiles(folder, {
    config: {
      architectures: ['BertModel'],
      model_type: 'bert',
      hidden_size: hidden,
      num_attention_heads: heads,
      num_hidden_layers: layers,
      intermediate_size: intermediate,
      max_position_embeddings: maxPositions,
      vocab_size: vocabulary.length,
      type_vocab_size: 2,
      layer_norm_eps: 1e-12,
      pad_token_id: 0,
    },
    vocabulary,
    pooling: options.pooling,
  });
  const graph = bertGraph(
    { layers, hidden, heads, intermediate, maxPositions },
    vocabulary.length,
    options.seed ?? 1,
  );
  const file = options.quantizedFileOnly ? 'model_quantized.onnx' : 'model.onnx';
  writeFileSync(join(folder, 'onnx', file), encodeModel(graph, 17));
  return folder;
}

/**
 * The files of a model folder beside its ONNX graph: config.json, a WordPiece tokenizer.json
 * over `vocabulary` (which starts with the special tokens), tokenizer_config.json and, with
 * `pooling`, sentence-transformers' 1_Pooling/config.json. Creates the folder and its onnx/.
 */
export function writeModelFiles(
  folder: string,
  files: {
    /** config.json: its sizes are the tokenizer's longest input and the pooled vector's. */
    config: { hidden_size: number; max_position_embeddings: number } & Record<string, unknown>;
    vocabulary: string[];
    pooling?: 'cls' | 'mean';
  },
): void {
  mkdirSync(join(folder, 'onnx'), { recursive: true });
  writeJson(join(folder, 'config.json'), files.config);
  writeJson(join(folder, 'tokenizer.json'), tokenizerJson(files.vocabulary));
  writeJson(join(folder, 'tokenizer_config.json'), {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: files.config.max_position_embeddings,
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    mask_token: '[MASK]',
  });
  if (files.pooling) {
    mkdirSync(join(folder, '1_Pooling'), { recursive: true });
    writeJson(join(folder, '1_Pooling', 'config.json'), {
      word_embedding_dimension: files.config.hidden_size,
      pooling_mode_cls_token: files.pooling === 'cls',
      pooling_mode_mean_tokens: files.pooling === 'mean',
      pooling_mode_max_tokens: false,
      pooling_mode_mean_sqrt_len_tokens: false,
    });
  }
}

function writeJson(file: string, value: unknown): void {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** tokenizer.json as the `tokenizers` library writes it for bert-base-uncased. */
function tokenizerJson(vocabulary: string[]) {
  const special = (token: string) => ({
    id: vocabulary.indexOf(token),
    content: token,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const id = (token: string) => ({ id: token, ids: [vocabulary.indexOf(token)], tokens: [token] });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map(special),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: { '[CLS]': id('[CLS]'), '[SEP]': id('[SEP]') },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocabulary.map((token, index) => [token, index])),
    },
  };
}

interface Sizes {
  layers: number;
  hidden: number;
  heads: number;
  intermediate: number;
  maxPositions: number;
}

/** A small deterministic generator (mulberry32), so a seed always gives the same weights. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The ONNX graph of a BERT encoder (opset 17) as Hugging Face's exporter gives it: inputs
 * input_ids, attention_mask and token_type_ids ([batch, sequence], int64), output
 * last_hidden_state ([batch, sequence, hidden], float). Padding is masked out of attention by
 * adding -10000 to its scores, as BERT does.
 */
function bertGraph(sizes: Sizes, vocabularySize: number, seed: number): Graph {
  const { layers, hidden, heads, intermediate, maxPositions } = sizes;
  const headSize = hidden / heads;
  const next = random(seed);
  const initializers: Tensor[] = [];
  const nodes: Node[] = [];
  const weights = (name: string, dims: number[], scale: number) => {
    const data = new Float32Array(dims.reduce((product, dim) => product * dim, 1));
    for (let index = 0; index < data.length; index += 1) data[index] = (next() * 2 - 1) * scale;
    initializers.push({ name, dims, data });
    return name;
  };
  const filled = (name: string, dims: number[], value: number) => {
    const data = new Float32Array(dims.reduce((product, dim) => product * dim, 1)).fill(value);
    initializers.push({ name, dims, data });
    return name;
  };
  const integers = (name: string, values: number[], dims: number[] = [values.length]) => {
    initializers.push({ name, dims, data: BigInt64Array.from(values.map(BigInt)) });
    return name;
  };
  let counter = 0;
  const op = (type: string, inputs: string[], attributes?: Node['attributes']) => {
    const output = `${type.toLowerCase()}_${(counter += 1)}`;
    nodes.push({ op: type, inputs, outputs: [output], attributes });
    return output;
  };
  const linear = (input: string, name: string, from: number, to: number) =>
    op('Add', [
      op('MatMul', [input, weights(`${name}.weight`, [from, to], 0.5)]),
      weights(`${name}.bias`, [to], 0.1),
    ]);
  const layerNorm = (input: string, name: string) =>
    op(
      'LayerNormalization',
      [input, filled(`${name}.gamma`, [hidden], 1), filled(`${name}.beta`, [hidden], 0)],
      {
        axis: -1,
        epsilon: { float: 1e-12 },
      },
    );

  // Embeddings: word + position (0 .. sequence - 1) + token type, normalised.
  const sequence = op('Gather', [op('Shape', ['input_ids']), integers('one_index', [1], [])], { axis: 0 });
  const positions = op('Range', [integers('zero', [0], []), sequence, integers('one', [1], [])]);
  const embedded = op('Add', [
    op('Add', [
      op('Gather', [weights('word_embeddings', [vocabularySize, hidden], 1), 'input_ids']),
      op('Gather', [weights('position_embeddings', [maxPositions, hidden], 0.3), positions]),
    ]),
    op('Gather', [weights('token_type_embeddings', [2, hidden], 0.3), 'token_type_ids']),
  ]);
  let state = layerNorm(embedded, 'embeddings.norm');

  // [batch, sequence] mask -> [batch, 1, 1, sequence] added to every head's scores.
  const maskFloat = op('Cast', ['attention_mask'], { to: FLOAT });
  const maskAdd = op('Mul', [
    op('Sub', [filled('one_float', [], 1), maskFloat]),
    filled('masked', [], -10000),
  ]);
  const scoresMask = op('Unsqueeze', [maskAdd, integers('mask_axes', [1, 2])]);
  const splitShape = integers('split_heads', [0, 0, heads, headSize]);
  const joinShape = integers('join_heads', [0, 0, hidden]);
  const scale = filled('scale', [], 1 / Math.sqrt(headSize));

  for (let layer = 0; layer < layers; layer += 1) {
    const name = `layer.${layer}`;
    const split = (input: string, perm: number[]) =>
      op('Transpose', [op('Reshape', [input, splitShape])], { perm });
    const query = split(linear(state, `${name}.query`, hidden, hidden), [0, 2, 1, 3]);
    const key = split(linear(state, `${name}.key`, hidden, hidden), [0, 2, 3, 1]);
    const value = split(linear(state, `${name}.value`, hidden, hidden), [0, 2, 1, 3]);
    const scores = op('Add', [op('Mul', [op('MatMul', [query, key]), scale]), scoresMask]);
    const context = op('MatMul', [op('Softmax', [scores], { axis: -1 }), value]);
    const joined = op('Reshape', [op('Transpose', [context], { perm: [0, 2, 1, 3] }), joinShape]);
    const attended = layerNorm(
      op('Add', [linear(joined, `${name}.output`, hidden, hidden), state]),
      `${name}.attention.norm`,
    );
    // GELU as BERT computes it: x * 0.5 * (1 + erf(x / sqrt(2))).
    const inner = linear(attended, `${name}.intermediate`, hidden, intermediate);
    const erf = op('Erf', [op('Div', [inner, filled(`${name}.sqrt2`, [], Math.SQRT2)])]);
    const gelu = op('Mul', [
      op('Mul', [inner, filled(`${name}.half`, [], 0.5)]),
      op('Add', [erf, filled(`${name}.one`, [], 1)]),
    ]);
    state = layerNorm(
      op('Add', [linear(gelu, `${name}.ffn_output`, intermediate, hidden), attended]),
      `${name}.output.norm`,
    );
  }
  nodes.push({ op: 'Identity', inputs: [state], outputs: ['last_hidden_state'] });
  const batchAndSequence = ['batch_size', 'sequence_length'];
  return {
    name: 'tiny-bert',
    nodes,
    initializers,
    inputs: ['input_ids', 'attention_mask', 'token_type_ids'].map((name) => ({
      name,
      type: INT64,
      dims: batchAndSequence,
    })),
    outputs: [{ name: 'last_hidden_state', type: FLOAT, dims: [...batchAndSequence, hidden] }],
  };
}
