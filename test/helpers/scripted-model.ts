import type { LanguageModelV3GenerateResult, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';

/** One scripted model step: tool calls, or the final text. */
export type Step = { calls: [string, Record<string, unknown>][] } | { text: string };

const USAGE = {
  inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 20, text: 20, reasoning: undefined },
};

/** A MockLanguageModelV3 that plays `steps` in order and records every prompt it is given. */
export function scriptedModel(steps: Step[]) {
  const prompts: LanguageModelV3Prompt[] = [];
  let callId = 0;
  const model = new MockLanguageModelV3({
    doGenerate: (options) => {
      prompts.push(options.prompt);
      const step = steps[prompts.length - 1];
      if (!step) throw new Error(`the script has no step ${prompts.length}`);
      const result: LanguageModelV3GenerateResult =
        'text' in step
          ? {
              content: [{ type: 'text', text: step.text }],
              finishReason: { unified: 'stop', raw: 'stop' },
              usage: USAGE,
              warnings: [],
            }
          : {
              content: step.calls.map(([toolName, input]) => ({
                type: 'tool-call' as const,
                toolCallId: `call-${++callId}`,
                toolName,
                input: JSON.stringify(input),
              })),
              finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
              usage: USAGE,
              warnings: [],
            };
      return Promise.resolve(result);
    },
  });
  return { model, prompts };
}
