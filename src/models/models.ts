import path from 'node:path';
import type { EmbeddingModel, LanguageModel } from 'ai';
import { ConfigError } from '../core/errors.js';
import { parseModelSpec } from '../core/model-spec.js';
import { lazyLanguageModel, missingProviderSettings } from './language-models.js';
import {
  loadLocalEmbeddingModel,
  type LocalModelOptions,
  type LocalModelSource,
} from './local-embeddings/load-local-model.js';
import type { ModelProviders } from './provider-settings.js';

export { modelProvidersFrom, providerSecrets, type ModelProviders } from './provider-settings.js';

/**
 * The AI SDK language model for a spec, or null for `builtin`. A spec that cannot work (an unknown
 * provider, a missing credential) throws a sentence naming what to set, before anything is sent;
 * the provider's package is imported on the model's first call.
 */
export function languageModel(
  spec: string,
  providers: ModelProviders,
  fetchImpl?: typeof fetch,
): LanguageModel | null {
  const parsed = parseModelSpec(spec);
  if (parsed.provider === 'builtin') return null;
  const missing = missingProviderSettings(spec, parsed.provider, providers);
  if (missing) throw new ConfigError(missing);
  return lazyLanguageModel(parsed.provider, parsed.modelId, providers, fetchImpl);
}

/**
 * Asks the credential sources a model's provider finds at run time, where that can be asked before
 * any work: a `bedrock:` model that signs with the AWS credential chain resolves it now (a short
 * wait), and a chain that finds nothing throws a sentence naming the ways to give credentials.
 */
export async function checkModelCredentials(spec: string, providers: ModelProviders): Promise<void> {
  const parsed = parseModelSpec(spec);
  if (parsed.provider !== 'bedrock' || !providers.bedrock?.credentialChain) return;
  const { checkAwsCredentials } = await import('./aws-credential-chain.js');
  await checkAwsCredentials(spec, providers.bedrock);
}

/** An embedding model setting: `openai:<model>`, or `local:<folder or hub id>` run in this process. */
export type EmbeddingSpec =
  { provider: 'openai'; modelId: string } | { provider: 'local'; source: LocalModelSource };

/**
 * Parses DOCWRIGHT_EMBEDDING_MODEL. After `local:`, a path (`/…`, `./…`, `../…`, relative to the
 * current folder) is a model folder; anything else is a hub id (`owner/name`).
 */
export function parseEmbeddingSpec(spec: string): EmbeddingSpec {
  const openai = /^openai:(.+)$/.exec(spec);
  if (openai?.[1]) return { provider: 'openai', modelId: openai[1] };
  const local = /^local:(.+)$/.exec(spec)?.[1];
  if (!local)
    throw new ConfigError(
      `Unknown embedding model "${spec}": use openai:<model> or local:<model folder or hub id>`,
    );
  if (path.isAbsolute(local) || local === '.' || local === '..' || /^\.\.?\//.test(local))
    return { provider: 'local', source: { folder: path.resolve(local) } };
  if (/^[\w.-]+(\/[\w.-]+)?$/.test(local)) return { provider: 'local', source: { hubId: local } };
  throw new ConfigError(
    `The embedding model "${spec}" is neither a folder (local:/path or local:./path) nor a hub id (local:owner/name)`,
  );
}

export interface EmbeddingModelOptions {
  fetch?: typeof fetch;
  /**
   * For `local:` models: where hub downloads are kept (default: `models` in the default data dir),
   * and the test seams of the loader.
   */
  local?: LocalModelOptions;
}

/**
 * The AI SDK embedding model of a spec, for hybrid retrieval: an OpenAI model (or one of a
 * compatible server at OPENAI_BASE_URL), or a sentence-embedding model run in this process by
 * transformers.js, loaded now so that a model that cannot run stops the start in words.
 */
export async function embeddingModel(
  spec: string,
  providers: ModelProviders,
  options: EmbeddingModelOptions = {},
): Promise<EmbeddingModel> {
  const parsed = parseEmbeddingSpec(spec);
  if (parsed.provider === 'local') {
    // transformers.js is imported by the loader, only now: nothing of it is loaded otherwise.
    const local = options.local ?? { cacheDir: path.resolve('.docwright', 'models') };
    return loadLocalEmbeddingModel(spec, parsed.source, local);
  }
  const { apiKey, baseUrl } = providers.openai;
  if (!apiKey && !baseUrl)
    throw new ConfigError(`${spec} needs OPENAI_API_KEY (or OPENAI_BASE_URL for a compatible server)`);
  const { createOpenAI } = await import('@ai-sdk/openai');
  return createOpenAI({ apiKey: apiKey ?? 'not-needed', baseURL: baseUrl, fetch: options.fetch }).embedding(
    parsed.modelId,
  );
}
