import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { EmbeddingModel, LanguageModel } from 'ai';

/** Model providers' credentials, handed to the AI SDK providers (read by `loadConfig`). */
export interface ModelProviders {
  openai: { apiKey?: string | undefined; baseUrl?: string | undefined };
  anthropic: { apiKey?: string | undefined };
}

/** A model setting: `builtin`, `openai:<model>` or `anthropic:<model>`. */
export type ModelSpec = { provider: 'builtin' } | { provider: 'openai' | 'anthropic'; modelId: string };

export function parseModelSpec(spec: string): ModelSpec {
  if (spec === 'builtin') return { provider: 'builtin' };
  const match = /^(openai|anthropic):(.+)$/.exec(spec);
  if (!match?.[1] || !match[2])
    throw new Error(`Unknown model "${spec}": use builtin, openai:<model> or anthropic:<model>`);
  return { provider: match[1] as 'openai' | 'anthropic', modelId: match[2] };
}

/**
 * The AI SDK language model for a spec, or null for `builtin`. OpenAI models go through the Chat
 * Completions API, which OpenAI-compatible servers (Ollama, vLLM, LM Studio) speak too.
 */
export function languageModel(
  spec: string,
  providers: ModelProviders,
  fetchImpl?: typeof fetch,
): LanguageModel | null {
  const parsed = parseModelSpec(spec);
  if (parsed.provider === 'builtin') return null;
  if (parsed.provider === 'openai') {
    const { apiKey, baseUrl } = providers.openai;
    if (!apiKey && !baseUrl)
      throw new Error(`${spec} needs OPENAI_API_KEY (or OPENAI_BASE_URL for a compatible server)`);
    // Compatible servers often need no key; the SDK insists on one, so send a placeholder to them.
    return createOpenAI({ apiKey: apiKey ?? 'not-needed', baseURL: baseUrl, fetch: fetchImpl }).chat(
      parsed.modelId,
    );
  }
  if (!providers.anthropic.apiKey) throw new Error(`${spec} needs ANTHROPIC_API_KEY`);
  return createAnthropic({ apiKey: providers.anthropic.apiKey, fetch: fetchImpl })(parsed.modelId);
}

/**
 * The AI SDK embedding model of an `openai:<model>` spec (OpenAI, or a compatible server at
 * OPENAI_BASE_URL), for hybrid retrieval.
 */
export function embeddingModel(
  spec: string,
  providers: ModelProviders,
  fetchImpl?: typeof fetch,
): EmbeddingModel {
  const parsed = parseModelSpec(spec);
  if (parsed.provider !== 'openai') throw new Error(`Unknown embedding model "${spec}": use openai:<model>`);
  const { apiKey, baseUrl } = providers.openai;
  if (!apiKey && !baseUrl)
    throw new Error(`${spec} needs OPENAI_API_KEY (or OPENAI_BASE_URL for a compatible server)`);
  return createOpenAI({ apiKey: apiKey ?? 'not-needed', baseURL: baseUrl, fetch: fetchImpl }).embedding(
    parsed.modelId,
  );
}
