import { UnrecoverableError } from '../core/errors.js';
import { languageModel, type ModelProviders } from '../models/models.js';
import { BuiltinAgent } from './builtin/index.js';
import { LlmAgent, type LlmAgentOptions } from './llm/index.js';
import type { Agent } from './types.js';

/** Settings of the model-driven agents a resolver creates (step, token and time budgets). */
export type ModelAgentSettings = Pick<LlmAgentOptions, 'budgets'>;

/**
 * Picks the agent for a job's model. `builtin` works offline; `<provider>:<model>` gets the
 * model-driven agent through the Vercel AI SDK, with the providers' credentials from the
 * configuration. One agent per model, created on first use.
 */
export function createAgentResolver(
  providers: ModelProviders = { openai: {}, anthropic: {} },
  settings: ModelAgentSettings = {},
): (model: string) => Agent {
  const builtin = new BuiltinAgent();
  const agents = new Map<string, Agent>();
  return (model) => {
    if (model === 'builtin') return builtin;
    let agent = agents.get(model);
    if (!agent) {
      agent = new LlmAgent({ ...settings, model: modelFor(model, providers), name: model });
      agents.set(model, agent);
    }
    return agent;
  };
}

/** The AI SDK model of a spec; a spec that cannot work (unknown, no key) fails the job in words. */
function modelFor(model: string, providers: ModelProviders) {
  try {
    const resolved = languageModel(model, providers);
    if (resolved) return resolved;
  } catch (error) {
    throw new UnrecoverableError(error instanceof Error ? error.message : String(error));
  }
  throw new UnrecoverableError(`The model "${model}" has no language model behind it`);
}
