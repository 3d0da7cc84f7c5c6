import { parseSyncPrompt } from '../../impact/index.js';
import { nothingAffectedReply, pagesWithEvidence, syncPlan } from '../sync-context.js';
import type { AgentRunInput } from '../types.js';

/** The run's instructions for the model, or the reply when a sync has nothing to do. */
export type SyncBrief = { instructions: string[] } | { reply: string };

/**
 * A sync request hands the model the diff and the pages the analysis found, with their evidence
 * and the renames the diff proves, so it starts where the evidence is instead of searching the
 * site. A run whose only request is a sync that affects no page asks the model nothing.
 */
export async function briefSyncRequests(input: AgentRunInput): Promise<SyncBrief> {
  const instructions: string[] = [];
  const quiet: string[] = [];
  for (const instruction of input.instructions) {
    const request = parseSyncPrompt(instruction);
    if (!request) {
      instructions.push(instruction);
      continue;
    }
    const plan = await syncPlan(request, input.files, input.policy);
    if (plan.pages.length === 0) {
      quiet.push(nothingAffectedReply(request));
      continue;
    }
    const renames = [...plan.renames].flatMap(([page, list]) =>
      list.map((rename) => `- \`${rename.from}\` → \`${rename.to}\` on \`${page}\``),
    );
    instructions.push(
      [
        instruction,
        'The pages of the docs this change makes stale, found by analysing the diff against the docs (paths relative to the docs folder, most affected first, with the diff line and the page line that link them):',
        pagesWithEvidence(plan.pages),
        ...(renames.length > 0
          ? [
              'Names the diff renames (both names come from the diff), to rename on those pages:',
              renames.join('\n'),
            ]
          : []),
        'Update these pages so that they describe the code as it is after the change: read each one, change what the diff makes wrong, and leave a page unchanged if on reading it is still right. Do not edit pages the change does not affect. In your report, list each page you changed and each listed page you left as it was, and why.',
      ].join('\n\n'),
    );
  }
  if (instructions.length === 0) return { reply: quiet.join('\n\n') };
  return { instructions };
}
