import { DocwrightError } from '../core/errors.js';
import type { ActionContext, ActionResult } from './context.js';
import type { ActionEvent } from './event.js';
import { handleComment } from './handle-comment.js';
import { handlePrompt } from './handle-prompt.js';
import { routeEvent, type JobRoute } from './route.js';

/** One run of the Action, from the event to the job's outcome, with every dependency passed in. */
export function runAction(context: ActionContext, event: ActionEvent): Promise<ActionResult> {
  const route = routeEvent(event, context.inputs);
  // main.ts runs the docs check before a job's inputs and clients exist: it never reaches here.
  if (route.kind === 'docs-check')
    return Promise.reject(
      new DocwrightError('internal_error', 'A pull request event runs the docs check, not a job.', {
        retryable: false,
      }),
    );
  return runRoute(context, route);
}

/** Carries out a routed event: nothing for an ignored one, else a comment or a prompt request. */
export async function runRoute(context: ActionContext, route: JobRoute): Promise<ActionResult> {
  switch (route.kind) {
    case 'ignore':
      context.log.info(route.reason);
      return { kind: 'ignored', reason: route.reason };
    case 'comment':
      return handleComment(context, route.event, route.instruction);
    case 'prompt':
      return handlePrompt(context, route.prompt, route.jobId);
  }
}
