/**
 * A run's commit carries its job and run as git trailers. The run trailer is what makes a resumed
 * run idempotent: if the branch head already has it, the edit landed before a crash and is not
 * made again. The body keeps the agent's reply, so the resumed run can still report it.
 */
export const JOB_TRAILER = 'Docwright-Job';
export const RUN_TRAILER = 'Docwright-Run';

export function formatCommitMessage(input: {
  title: string;
  reply: string;
  jobId: string;
  runKey: string;
}): string {
  const title = oneLine(withoutControls(input.title), 72);
  // A model's reply often opens with the very line that became the title: not twice.
  const reply = withoutControls(input.reply).trim();
  const [first = '', ...rest] = reply.split('\n');
  const body = first.trim() === input.title.trim() ? rest.join('\n').trim() : reply;
  return `${title}\n\n${body ? `${body}\n\n` : ''}${JOB_TRAILER}: ${input.jobId}\n${RUN_TRAILER}: ${input.runKey}\n`;
}

/** Git refuses a commit message with a NUL byte; other control characters only garble the log. */
function withoutControls(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  return text.replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, '\uFFFD');
}

export interface ParsedCommitMessage {
  title: string;
  reply: string;
  trailers: Record<string, string>;
}

export function parseCommitMessage(message: string): ParsedCommitMessage {
  const lines = message.replace(/\s+$/, '').split('\n');
  const trailers: Record<string, string> = {};
  let end = lines.length;
  while (end > 1) {
    const match = /^([A-Za-z][A-Za-z0-9-]*): (.*)$/.exec(lines[end - 1] ?? '');
    if (!match?.[1] || match[2] === undefined) break;
    trailers[match[1]] = match[2];
    end -= 1;
  }
  return { title: lines[0] ?? '', reply: lines.slice(1, end).join('\n').trim(), trailers };
}

export function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}
