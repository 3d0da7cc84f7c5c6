import { GAPS_ISSUE_TITLE, neutralizeMarkers, renderStatusComment } from '../github/index.js';
import { type PermissionLevel } from '../github-api/permission.js';
import { SETTINGS_FILE, type RepositorySettings } from '../github/settings.js';

/** Markdown-safe inline code for a login, a path or a command. */
const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;

/** The one polite reply to someone without the access the repository requires. */
export function permissionReply(login: string, required: PermissionLevel, actual: PermissionLevel): string {
  const has = actual === 'none' ? 'no access to it' : `**${actual}** access`;
  return [
    `@${login}, only people with **${required}** access (or more) to this repository can ask docwright for docs changes, and you have ${has}, so nothing was started.`,
    'A maintainer can run the command for you.',
  ].join(' ');
}

/** A command with nothing after it. */
export function emptyInstructionReply(login: string, command: string): string {
  return `@${login}, tell docwright what to change after the command, e.g. ${code(`${command} fix the broken link in the quickstart`)}. Lines after the first one are part of the request too.`;
}

/** A command on the pull request of an archived job. */
export function closedPullRequestReply(jobId: string, command: string): string {
  return `This pull request is closed, so its docwright job ${code(jobId)} is archived and takes no more changes. Ask in an issue with ${code(`${command} …`)} to start a new job.`;
}

/** The repository's `.github/docwright.yml` cannot be used. */
export function settingsReply(reason: string): string {
  return `docwright could not read its settings, so nothing was started: ${neutralizeMarkers(reason)}. Fix the file on the default branch and ask again.`;
}

/** The request could not even become a job: the status comment says why, in words. */
export function failedBeforeJobReply(reason: string): string {
  return renderStatusComment({ state: 'failed', jobId: null, reason });
}

/** The agent's prompt: the instruction, and for a review comment the file and line it is on. */
export function agentPrompt(
  instruction: string,
  location: { path: string; line: number | null } | null,
): string {
  if (!location) return instruction;
  const where =
    location.line === null ? code(location.path) : `${code(location.path)}, line ${location.line}`;
  // After the instruction, not before: the built-in agent reads the instruction from its start.
  return `${instruction}\n\n(This request is a review comment on ${where}.)`;
}

/** `/docs gaps` in a repository whose settings do not ask for the issue. */
export function gapsOffReply(login: string, command: string): string {
  return [
    `@${login}, the "${GAPS_ISSUE_TITLE}" issue is off for this repository, so nothing was written.`,
    `To turn it on, add this to \`.github/${SETTINGS_FILE}\` on the default branch, then ask again with ${code(`${command} gaps`)}:`,
    '',
    '```yaml',
    'gaps:',
    '  issue: true',
    '```',
  ].join('\n');
}

/** The gaps issue was written. */
export function gapsRefreshedReply(
  login: string,
  refreshed: { kind: 'created' | 'updated'; issueNumber: number; gaps: number },
): string {
  const done = refreshed.kind === 'created' ? 'opened' : 'updated';
  return `@${login}, docwright ${done} the "${GAPS_ISSUE_TITLE}" issue, #${refreshed.issueNumber}: it lists ${refreshed.gaps} gap(s).`;
}

/** `/docs fill <id>` with an id no gap of the period has. */
export function unknownGapReply(login: string, gapId: string, settings: RepositorySettings): string {
  const id = code(neutralizeMarkers(gapId.slice(0, 100)));
  return `@${login}, there is no gap ${id} in readers' questions of the last ${settings.gaps.since}, so nothing was started: it may be mistyped, or its questions left the period. ${code(`${settings.command} gaps`)} lists the current gaps with their ids.`;
}
