import { mayTrigger, parseSlashCommand } from '../github/index.js';
import { ActionError } from './action-error.js';
import type { ActionEvent, CommentEvent, PullRequestEvent } from './event.js';
import type { RouteInputs } from './inputs.js';

/** What to do with an event, decided before any request is made. */
export type Route =
  | { kind: 'ignore'; reason: string }
  | { kind: 'comment'; event: CommentEvent; instruction: string }
  | { kind: 'prompt'; prompt: string; jobId: string | null }
  | { kind: 'docs-check'; event: PullRequestEvent };

/** The routes that become a job (or nothing); the docs check runs without one. */
export type JobRoute = Exclude<Route, { kind: 'docs-check' }>;

/** The pull request actions that change what it holds or bring it (back) up for review. */
const CHECKED_ACTIONS = new Set(['opened', 'synchronize', 'reopened', 'ready_for_review']);

/**
 * Routes an event: comments need the command on their first line, must be
 * new (an edit would run the same request twice) and not by a bot unless allowed; other events take
 * the `prompt` input. A pull request event without a `prompt` gets the docs check, as the App's
 * pull requests do; with one, it makes a job as any other event does, so workflows written before
 * the check keep working. The commenter's permission is checked afterwards, since it needs GitHub.
 */
export function routeEvent(event: ActionEvent, inputs: RouteInputs): Route {
  if (event.kind === 'pull_request' && inputs.prompt.trim() === '') {
    if (CHECKED_ACTIONS.has(event.action)) return { kind: 'docs-check', event };
    return {
      kind: 'ignore',
      reason: `The ${event.eventName} event's action is ${event.action}: the docs check runs when a pull request is opened, pushed to, reopened or marked ready for review.`,
    };
  }
  if (event.kind === 'prompt' || event.kind === 'pull_request') {
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
