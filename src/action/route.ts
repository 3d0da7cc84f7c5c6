import { mayTrigger, parseSlashCommand } from '../github/index.js';
import { ActionError } from './action-error.js';
import type { ActionEvent, CommentEvent } from './event.js';
import type { RouteInputs } from './inputs.js';

/** What to do with an event, decided before any request is made. */
export type Route =
  | { kind: 'ignore'; reason: string }
  | { kind: 'comment'; event: CommentEvent; instruction: string }
  | { kind: 'prompt'; prompt: string; jobId: string | null };

/**
 * Routes an event: comments need the command on their first line, must be
 * new (an edit would run the same request twice) and not by a bot unless allowed; other events take
 * the `prompt` input. The commenter's permission is checked afterwards, since it needs GitHub.
 */
export function routeEvent(event: ActionEvent, inputs: RouteInputs): Route {
  if (event.kind === 'prompt') {
    const prompt = inputs.prompt.trim();
    if (prompt === '')
      throw new ActionError(
        `No prompt: on ${event.eventName} events the \`prompt\` input says what to change (with \`job-id\` for a follow-up).`,
      );
    return { kind: 'prompt', prompt, jobId: inputs.jobId };
  }
  const command = parseSlashCommand(event.comment.body, inputs.command);
  if (!command) return { kind: 'ignore', reason: `The comment does not start with ${inputs.command}.` };
  if (event.action !== 'created')
    return { kind: 'ignore', reason: `The comment was ${event.action}; only new comments are commands.` };
  const author = event.comment.author;
  if (!author) return { kind: 'ignore', reason: 'The comment has no author (a deleted account).' };
  if (!mayTrigger(author, inputs.allowedBots))
    return { kind: 'ignore', reason: `${author.login} is a bot that is not listed in \`allowed-bots\`.` };
  if (command.instruction === '')
    throw new ActionError(
      `The ${command.command} command has no instruction: write what to change after it, such as "${command.command} fix the quickstart link".`,
    );
  return { kind: 'comment', event, instruction: command.instruction };
}
