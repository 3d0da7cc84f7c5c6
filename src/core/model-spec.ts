/**
 * The grammar of a model setting, shared by every place a model is named (the CLI's `--model`,
 * DOCWRIGHT_MODEL, `model:` in .github/docwright.yml, the Action's `model` input), so that a
 * string means the same thing wherever it is written. The providers behind the names live in
 * src/models.
 */
import { badRequest } from './errors.js';

/** The providers a model setting may name before its colon, in the order people are told them. */
export const MODEL_PROVIDERS = [
  'openai',
  'anthropic',
  'bedrock',
  'google',
  'vertex',
  'azure',
  'ollama',
  'openai-compatible',
] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** A model setting: `builtin`, or `<provider>:<model>`. */
export type ModelSpec = { provider: 'builtin' } | { provider: ModelProvider; modelId: string };

/** How a model setting is written, for the sentences that refuse one. */
const MODEL_SPEC_FORMS = `builtin or <provider>:<model>, with provider one of ${MODEL_PROVIDERS.join(', ')}`;

/** The sentence that refuses a model setting, or null when it is well formed. */
export function modelSpecProblem(spec: string): string | null {
  if (spec === 'builtin') return null;
  const colon = spec.indexOf(':');
  const provider = colon > 0 ? spec.slice(0, colon) : '';
  if (!(MODEL_PROVIDERS as readonly string[]).includes(provider))
    return `Unknown model "${spec}": use ${MODEL_SPEC_FORMS}`;
  if (spec.slice(colon + 1).trim() === '')
    return `The model "${spec}" names no model after "${provider}:", e.g. ${provider}:<model>`;
  return null;
}

/** Parses a model setting; a malformed one throws the sentence of `modelSpecProblem`. */
export function parseModelSpec(spec: string): ModelSpec {
  const problem = modelSpecProblem(spec);
  if (problem) throw badRequest(problem);
  if (spec === 'builtin') return { provider: 'builtin' };
  const colon = spec.indexOf(':');
  return { provider: spec.slice(0, colon) as ModelProvider, modelId: spec.slice(colon + 1) };
}
