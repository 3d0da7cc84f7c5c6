import type { ActionContext, ActionResult } from './context.js';
import { followJob, startJob } from './follow-job.js';
import { StatusSink } from './status-sink.js';

/**
 * `workflow_dispatch`, `schedule`, `push` and the rest: the `prompt` input becomes a job, or a
 * follow-up to `job-id`. There is no thread, so no status comment: the outputs and the job summary
 * carry the result.
 */
export async function handlePrompt(
  context: ActionContext,
  prompt: string,
  jobId: string | null,
): Promise<ActionResult> {
  const started = await startJob(context, prompt, jobId);
  return { kind: 'job', run: await followJob(context, started, new StatusSink(context, null)) };
}
