import { readPullRequestChange } from '../github/pull-request-change.js';
import { formatSyncPrompt } from '../impact/index.js';
import type { CommandComment } from './comment-event.js';
import type { RepositoryClient } from './repository-clients.js';

/** `/docs sync`: the command's whole instruction is the word, in any case. */
export function isSyncInstruction(instruction: string): boolean {
  return instruction.trim().toLowerCase() === 'sync';
}

/** The answer to `/docs sync` outside a pull request: there is no change to follow. */
export function syncOutsidePullRequestReply(login: string, command: string): string {
  return `@${login}, \`${command} sync\` brings the docs up to date with a code change, so it works in a pull request's conversation; nothing was started. In an issue, say what to change after \`${command}\`.`;
}

/**
 * The prompt of a docs sync job for the pull request the command was written on: its link, title,
 * description and diff, read from GitHub as they are now (the payload of a comment has no diff).
 */
export async function pullRequestSyncPrompt(
  octokit: RepositoryClient,
  comment: CommandComment,
): Promise<string> {
  const { owner, repo, number } = comment.thread;
  const change = await readPullRequestChange(octokit, { owner, repo, number });
  return formatSyncPrompt({
    link: change.htmlUrl,
    title: change.title,
    body: change.body,
    diff: change.diff,
  });
}
