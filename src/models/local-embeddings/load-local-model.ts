import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { boundedFetch, HubSilentError, HubStatusError } from './bounded-fetch.js';
import { LocalEmbeddingModel, TOKENS_PER_RUN } from './local-embedding-model.js';
import { fallbackPooling, folderPooling, type Pooling } from './pooling.js';
import {
  importTransformers,
  type Importer,
  type PretrainedOptions,
  type Transformers,
} from './transformers-import.js';

/** A model folder on this machine, or a model of the Hugging Face hub by id (`owner/name`). */
export type LocalModelSource = { folder: string } | { hubId: string };

export interface LocalModelOptions {
  /** Where models downloaded from the hub are kept, one folder per id. */
  cacheDir: string;
  /** Loads the optional packages (tests simulate a machine without them). */
  importer?: Importer;
  /** The hub's address; tests point it at a server on loopback. */
  hubUrl?: string;
  /** Gives up on the hub when it sends nothing for this long (milliseconds). */
  hubIdleMs?: number;
  /** Tokens per run of the encoder (see TOKENS_PER_RUN). */
  tokensPerRun?: number;
}

const HUB_URL = 'https://huggingface.co/';
/**
 * Silence after which the hub is given up: a slow link still sends something within it, a
 * firewall that drops packets never does.
 */
export const HUB_IDLE_MS = 30_000;
/** BERT-style encoders have 512 positions; docwright sends at most 2,000 characters a section. */
const MAX_TOKENS = 512;
/** transformers.js's LogLevel.ERROR: its warnings (and ONNX Runtime's) stay out of docwright's log. */
const LOG_ERRORS_ONLY = 40;

/**
 * Loads a sentence-embedding model to run in this process: checks a folder's files, imports
 * transformers.js (only now: the packages are optional), loads the tokenizer and the ONNX encoder
 * on the CPU and reads how the model pools. Everything that can be wrong (missing packages, a
 * folder without the model, a hub that does not answer) is a ConfigError with a sentence, at start.
 */
export async function loadLocalEmbeddingModel(
  name: string,
  source: LocalModelSource,
  options: LocalModelOptions,
): Promise<LocalEmbeddingModel> {
  // A hub model downloaded before is a complete model folder in the cache: loaded as a folder, it
  // needs no network, so a restart works where the hub cannot be reached.
  const hubId = 'hubId' in source ? source.hubId : undefined;
  const cached = hubId === undefined ? undefined : path.join(options.cacheDir, hubId);
  const folder = 'folder' in source ? source.folder : cached && isModelFolder(cached) ? cached : undefined;
  const folderModel = folder === undefined ? undefined : checkFolder(folder);
  const pooling: Pooling = folder === undefined ? fallbackPooling(hubId!) : folderPooling(folder);
  const transformers = await importTransformers(options.importer);
  // transformers.js keeps its settings for the whole process; one embedding model is loaded per
  // process, and each load sets all those it reads.
  transformers.env.logLevel = LOG_ERRORS_ONLY;
  const loaded =
    folder === undefined
      ? await download(transformers, hubId!, options)
      : await loadFolder(transformers, folder, folderModel!);
  const maxTokens = Math.min(
    loaded.tokenizer.model_max_length ?? Infinity,
    loaded.model.config?.max_position_embeddings ?? Infinity,
    MAX_TOKENS,
  );
  return new LocalEmbeddingModel(
    name,
    { transformers, ...loaded, pooling, maxTokens },
    options.tokensPerRun ?? TOKENS_PER_RUN,
  );
}

/** The model file's precision, from the files a folder has. */
interface FolderModel {
  dtype: 'fp32' | 'q8';
}

/** Files transformers.js reads from a model folder, besides the ONNX encoder. */
const REQUIRED_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json'];

/** Checks a model folder before anything is loaded, so what is missing is named. */
function checkFolder(folder: string): FolderModel {
  const hint = 'a folder with config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx';
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new ConfigError(`The embedding model folder ${folder} does not exist: give ${hint}`);
  for (const file of REQUIRED_FILES)
    if (!existsSync(path.join(folder, file)))
      throw new ConfigError(`The embedding model folder ${folder} has no ${file}: give ${hint}`);
  const full = path.join(folder, 'onnx', 'model.onnx');
  const quantized = path.join(folder, 'onnx', 'model_quantized.onnx');
  const file = existsSync(full) ? full : existsSync(quantized) ? quantized : undefined;
  if (!file)
    throw new ConfigError(
      `The embedding model folder ${folder} has no onnx/model.onnx (nor onnx/model_quantized.onnx): give ${hint}`,
    );
  if (isLfsPointer(file))
    throw new ConfigError(
      `${file} is a Git LFS pointer, not the model: run \`git lfs install && git lfs pull\` in ${folder}`,
    );
  return { dtype: file === full ? 'fp32' : 'q8' };
}

/** A repository cloned without Git LFS has small text files in place of its large ones. */
function isLfsPointer(file: string): boolean {
  const bytes = Buffer.alloc(64);
  const descriptor = openSync(file, 'r');
  try {
    const read = readSync(descriptor, bytes, 0, bytes.length, 0);
    return bytes.subarray(0, read).toString('latin1').startsWith('version https://git-lfs');
  } finally {
    closeSync(descriptor);
  }
}

function isModelFolder(folder: string): boolean {
  try {
    checkFolder(folder);
    return true;
  } catch {
    return false;
  }
}

async function loadFolder(transformers: Transformers, folder: string, model: FolderModel) {
  const { env } = transformers;
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  env.useFSCache = false;
  try {
    return await loadPair(transformers, folder, { local_files_only: true, dtype: model.dtype });
  } catch (error) {
    throw new ConfigError(`Cannot load the embedding model in ${folder}: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

/**
 * A hub model not in the cache yet: downloaded by transformers.js into `cacheDir` (one folder per
 * id), giving up when the hub stays silent.
 */
async function download(transformers: Transformers, hubId: string, options: LocalModelOptions) {
  const { env } = transformers;
  const hubUrl = options.hubUrl ?? HUB_URL;
  env.allowLocalModels = false;
  env.allowRemoteModels = true;
  env.remoteHost = hubUrl;
  env.cacheDir = options.cacheDir;
  env.useFSCache = true;
  let hubFailure: Error | undefined;
  let unreachable: Error | undefined;
  const bounded = boundedFetch(globalThis.fetch, options.hubIdleMs ?? HUB_IDLE_MS, (error) => {
    hubFailure ??= error;
    if (!(error instanceof HubStatusError)) unreachable ??= error;
  });
  // Once the hub could not be reached, the files still wanted fail at once: the bound holds for
  // the whole load, not for each of its requests.
  env.fetch = (input, init) => (unreachable ? Promise.reject(unreachable) : bounded(input, init));
  try {
    return await loadPair(transformers, hubId, {});
  } catch (error) {
    // The first request that failed says why, better than what transformers.js made of it.
    const reason = describeFetchError(unreachable ?? hubFailure ?? error);
    throw new ConfigError(
      `Cannot download the embedding model ${hubId} from ${hubUrl} (${reason}). On a machine that cannot ` +
        `reach the hub, copy the model's folder to it and set DOCWRIGHT_EMBEDDING_MODEL=local:/path/to/folder`,
      { cause: error },
    );
  }
}

async function loadPair(transformers: Transformers, id: string, options: PretrainedOptions) {
  const tokenizer = await transformers.AutoTokenizer.from_pretrained(id, options);
  // The CPU: onnxruntime-node's bundled build, the one installed without GPU libraries.
  const model = await transformers.AutoModel.from_pretrained(id, { device: 'cpu', ...options });
  return { tokenizer, model };
}

/** fetch's "fetch failed" says nothing; its cause (ENOTFOUND, ECONNREFUSED, …) does. */
function describeFetchError(error: unknown): string {
  if (error instanceof HubSilentError) return error.message;
  const cause = (error as { cause?: unknown } | null)?.cause;
  const detail = cause instanceof Error ? `: ${cause.message}` : '';
  return `${messageOf(error)}${detail}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
