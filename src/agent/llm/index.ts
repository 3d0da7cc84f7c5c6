/** The model-driven agent: a tool loop through the Vercel AI SDK over a job's overlay. */
export { LlmAgent, type LlmAgentOptions } from './llm-agent.js';
