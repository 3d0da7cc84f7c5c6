import type { GitHubUser } from '../github-api/types.js';

/** Bots that may trigger work: none by default, some by login, or every bot (`*`). */
export type AllowedBots = { all: true } | { all: false; logins: ReadonlySet<string> };

/** Whether a user is a bot: GitHub Apps have type `Bot` and a `[bot]` suffix. */
export function isBot(user: GitHubUser): boolean {
  return user.type === 'Bot' || user.login.toLowerCase().endsWith('[bot]');
}

/**
 * Reads an allow list of bots: logins separated by commas or new lines, with or without the
 * `[bot]` suffix (`renovate` and `renovate[bot]` are the same bot), or `*` for all of them.
 */
export function parseAllowedBots(text: string): AllowedBots {
  const logins = text
    .split(/[\s,]+/)
    .map((login) => login.trim())
    .filter((login) => login !== '');
  if (logins.includes('*')) return { all: true };
  return { all: false, logins: new Set(logins.map(botName)) };
}

/** Whether comments by `user` may trigger work: people always (permission is checked apart), bots only when allowed. */
export function mayTrigger(user: GitHubUser, allowed: AllowedBots): boolean {
  if (!isBot(user)) return true;
  return allowed.all || allowed.logins.has(botName(user.login));
}

function botName(login: string): string {
  return login.toLowerCase().replace(/\[bot\]$/, '');
}
