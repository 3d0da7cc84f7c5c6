import { UnrecoverableError } from '../errors.js';
import { BuiltinAgent } from './builtin/index.js';
import type { Agent } from './types.js';

/**
 * Picks the agent for a job's model. `builtin` works offline; model providers come through the
 * Vercel AI SDK (the model-driven agent).
 */
export function createAgentResolver(): (model: string) => Agent {
  const builtin = new BuiltinAgent();
  return (model) => {
    if (model === 'builtin') return builtin;
    throw new UnrecoverableError(
      `The model "${model}" is not available in this version of docwright; set DOCWRIGHT_MODEL=builtin or leave it unset`,
    );
  };
}
