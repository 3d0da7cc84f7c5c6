/** The command the Action and the app answer to unless configured otherwise. */
export const DEFAULT_COMMAND = '/docs';

/** A recognised slash command: the instruction after it, possibly empty. */
export interface SlashCommand {
  command: string;
  instruction: string;
}

/**
 * Reads a slash command from a comment body. Only the first line can hold the command (so a quoted
 * or mentioned `/docs` further down never triggers work); the rest of that line and every later line
 * belong to the instruction. The command matches case-insensitively, like the `startsWith` filter
 * of a workflow's `if:`, and must be followed by whitespace or the end of the line (`/docsy` is not
 * `/docs`). Returns null when the comment is not a command.
 */
export function parseSlashCommand(body: string, command: string = DEFAULT_COMMAND): SlashCommand | null {
  const text = body.replace(/\r\n?/g, '\n').trimStart();
  const newline = text.indexOf('\n');
  const firstLine = newline === -1 ? text : text.slice(0, newline);
  const name = command.trim();
  if (name === '' || firstLine.slice(0, name.length).toLowerCase() !== name.toLowerCase()) return null;
  const rest = text.slice(name.length);
  if (rest !== '' && !/^\s/.test(rest)) return null;
  return { command: name, instruction: rest.trim() };
}

/** `/docs sync`: the command's whole instruction is the word, in any case. */
export function isSyncInstruction(instruction: string): boolean {
  return instruction.trim().toLowerCase() === 'sync';
}

/** The answer to `/docs sync` outside a pull request: there is no change to follow. */
export function syncOutsidePullRequestReply(login: string, command: string): string {
  return `@${login}, \`${command} sync\` brings the docs up to date with a code change, so it works in a pull request's conversation; nothing was started. In an issue, say what to change after \`${command}\`.`;
}
