import { ConfigError } from '../../core/errors.js';

/**
 * The versions of the pair that runs `local:` embedding models, as tested. They are optional peers
 * of docwright (about 470 MB with the ONNX runtimes), so the default install stays light.
 */
export const LOCAL_EMBEDDING_PACKAGES = [
  '@huggingface/transformers@4.3.1',
  'onnxruntime-node@1.30.0',
] as const;

/**
 * How to install the pair in docwright's folder. `ONNXRUNTIME_NODE_INSTALL=skip` keeps
 * onnxruntime-node's bundled CPU build instead of downloading GPU libraries; npm 11 installs a
 * package that is only an optional peer of the project it runs in when it is named with
 * `--save-dev`, and `--no-save` leaves package.json as it is.
 */
export const LOCAL_EMBEDDING_INSTALL_COMMAND = `ONNXRUNTIME_NODE_INSTALL=skip npm install --no-save --save-dev ${LOCAL_EMBEDDING_PACKAGES.join(' ')}`;

/** What a tensor is to the code here: transformers.js's Tensor, read-only. */
export interface TensorLike {
  readonly data: ArrayLike<number>;
  readonly dims: readonly number[];
}

/** The options of `from_pretrained` used here. */
export interface PretrainedOptions {
  local_files_only?: boolean;
  dtype?: string;
  device?: string;
}

/** A tokenizer called on a batch without padding or tensors: one array per text. */
export interface Tokenizer {
  (
    texts: string[],
    options: { truncation: boolean; max_length: number; return_tensor: false },
  ): { input_ids: number[][]; attention_mask: number[][]; token_type_ids?: number[][] };
  readonly pad_token_id?: number | null;
  readonly padding_side?: string;
  readonly model_max_length?: number;
}

export interface EncoderModel {
  (inputs: Record<string, unknown>): Promise<Record<string, TensorLike>>;
  readonly config?: { max_position_embeddings?: number };
  dispose(): Promise<unknown>;
}

/**
 * The part of `@huggingface/transformers` docwright uses. Declared here rather than imported, so
 * the project type-checks whether or not the optional packages are installed.
 */
export interface Transformers {
  env: {
    allowRemoteModels: boolean;
    allowLocalModels: boolean;
    remoteHost: string;
    cacheDir: string | null;
    useFSCache: boolean;
    fetch: (input: string | URL, init?: RequestInit) => Promise<Response>;
    logLevel: number;
  };
  AutoTokenizer: { from_pretrained(id: string, options?: PretrainedOptions): Promise<Tokenizer> };
  AutoModel: { from_pretrained(id: string, options?: PretrainedOptions): Promise<EncoderModel> };
  Tensor: new (type: 'int64', data: BigInt64Array, dims: number[]) => TensorLike;
}

/** Loads a module by name; tests pass one that resolves as a machine without the packages would. */
export type Importer = (specifier: string) => Promise<unknown>;

const defaultImporter: Importer = (specifier) => import(specifier);

const PACKAGE_NAMES = LOCAL_EMBEDDING_PACKAGES.map((name) => name.slice(0, name.lastIndexOf('@')));

/**
 * transformers.js, imported only when a `local:` model is configured. A missing package becomes
 * a sentence naming the command that installs it; any other failure to load (a native library that
 * does not load on this machine) is reported in words too, with the error kept as its cause.
 */
export async function importTransformers(importer: Importer = defaultImporter): Promise<Transformers> {
  try {
    // onnxruntime-node first: transformers.js loads it as it is imported, and a missing runtime
    // should be named as such.
    await importer('onnxruntime-node');
    return (await importer('@huggingface/transformers')) as Transformers;
  } catch (error) {
    if (isMissingPackage(error))
      throw new ConfigError(
        `DOCWRIGHT_EMBEDDING_MODEL=local:… runs the model in this process with ${PACKAGE_NAMES.join(' and ')}, ` +
          `which are not installed (about 470 MB, left out of the default install): run ` +
          `\`${LOCAL_EMBEDDING_INSTALL_COMMAND}\` in docwright's folder, then start again`,
        { cause: error },
      );
    throw new ConfigError(
      `${PACKAGE_NAMES.join(' and ')} are installed but could not be loaded: ${messageOf(error)}`,
      { cause: error },
    );
  }
}

/** Node's "cannot find" errors (ESM and CommonJS) for one of the pair, not for what they import. */
function isMissingPackage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const message = messageOf(error);
  return PACKAGE_NAMES.some((name) => message.includes(`'${name}'`));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
