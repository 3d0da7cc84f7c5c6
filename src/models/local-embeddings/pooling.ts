import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../core/errors.js';

/**
 * How token vectors become one sentence vector: the mean of the text's tokens (padding left out),
 * or the vector of its first token ([CLS]), as the model was trained to be read.
 */
export type Pooling = 'mean' | 'cls';

interface SentenceTransformersModule {
  path?: unknown;
  type?: unknown;
}

/**
 * The pooling a model folder asks for: sentence-transformers' pooling config (the folder that
 * modules.json names, `1_Pooling` by default) when the folder has one, else by name (`fallbackPooling`).
 */
export function folderPooling(folder: string): Pooling {
  const file = path.join(folder, poolingFolder(folder), 'config.json');
  if (!existsSync(file)) return fallbackPooling(path.basename(folder));
  const config = readJson(file) as Record<string, unknown>;
  const modes = Object.entries(config)
    .filter(([key, value]) => key.startsWith('pooling_mode_') && value === true)
    .map(([key]) => key.slice('pooling_mode_'.length));
  if (modes.length === 1 && modes[0] === 'cls_token') return 'cls';
  if (modes.length === 1 && modes[0] === 'mean_tokens') return 'mean';
  throw new ConfigError(
    `The embedding model's pooling (${modes.join(', ') || 'none'}, in ${file}) is not supported: docwright pools by cls_token or mean_tokens`,
  );
}

/**
 * The pooling of a model known only by name (a hub id, or a folder without a pooling config): the
 * BGE models are trained to be read at [CLS], as their authors say; the MiniLM, MPNet and E5
 * sentence models, and most others, by the mean of their tokens.
 */
export function fallbackPooling(name: string): Pooling {
  return /(^|[^a-z])bge([^a-z]|$)/i.test(name) ? 'cls' : 'mean';
}

function poolingFolder(folder: string): string {
  const modules = path.join(folder, 'modules.json');
  if (!existsSync(modules)) return '1_Pooling';
  const listed = readJson(modules);
  const pooling = Array.isArray(listed)
    ? (listed as SentenceTransformersModule[]).find(
        (module) => typeof module.type === 'string' && module.type.endsWith('.Pooling'),
      )
    : undefined;
  return typeof pooling?.path === 'string' ? pooling.path : '1_Pooling';
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * One unit-length vector per text from the encoder's token vectors (`hidden`, laid out
 * [texts, positions, dimensions]) and the attention mask ([texts, positions], 1 for a token of the
 * text, 0 for padding). Padding never counts: a text gets the same vector alone or in a batch.
 */
export function poolSentences(
  hidden: ArrayLike<number>,
  dims: readonly number[],
  mask: readonly (readonly number[])[],
  pooling: Pooling,
): number[][] {
  const [texts = 0, positions = 0, dimensions = 0] = dims;
  const vectors: number[][] = [];
  for (let text = 0; text < texts; text += 1) {
    const vector = new Float64Array(dimensions);
    const tokens = mask[text] ?? [];
    for (let position = 0; position < positions; position += 1) {
      if (!tokens[position]) continue;
      const offset = (text * positions + position) * dimensions;
      for (let dimension = 0; dimension < dimensions; dimension += 1)
        vector[dimension]! += hidden[offset + dimension]!;
      // [CLS] is the first token of the text, wherever padding puts it.
      if (pooling === 'cls') break;
    }
    vectors.push(unitLength(vector));
  }
  return vectors;
}

/**
 * The vector scaled to length 1 (a zero vector stays zero). A sum of token vectors points where
 * their mean does, so scaling the sum gives the normalised mean.
 */
function unitLength(vector: Float64Array): number[] {
  let squares = 0;
  for (const value of vector) squares += value * value;
  const norm = Math.sqrt(squares);
  return Array.from(vector, (value) => (norm > 0 ? value / norm : 0));
}
