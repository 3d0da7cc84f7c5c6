import { redactSecrets } from '../../core/redact.js';
import type { AgentResult } from '../types.js';

/** Longest PR title kept (the commit subject is cut there too). */
const TITLE_LIMIT = 72;

export interface ReplyInput {
  /** The model's final message; empty when the run ended before it wrote one. */
  text: string;
  /** The changes the tools made, one line each (`edited guides/setup.mdx`). */
  log: readonly string[];
  /** Why the run stopped early, e.g. `the step budget (40 model steps)`. */
  stoppedBy?: string;
}

/**
 * The job's reply and PR title from the model's final message (its first line is the summary the
 * prompt asks for). When the run ended early, the reply says so and lists what was done, since the
 * model had no chance to. Secrets are redacted from both: they are posted back to the thread.
 */
export function composeReply(input: ReplyInput): Pick<AgentResult, 'reply' | 'title'> {
  const text = redactSecrets(input.text.trim());
  const parts: string[] = [];
  if (input.stoppedBy !== undefined) {
    parts.push(`I stopped before finishing: the run reached ${input.stoppedBy}.`);
    if (text !== '') parts.push(text);
    parts.push(describeLog(input.log));
  } else {
    parts.push(text !== '' ? text : describeLog(input.log));
  }
  const reply = parts.join('\n\n');
  const title = titleOf(text) ?? (input.log.length > 0 ? summarizeLog(input.log) : undefined);
  return title === undefined ? { reply } : { reply, title };
}

function describeLog(log: readonly string[]): string {
  if (log.length === 0) return 'No files were changed.';
  return `Changes made:\n${log.map((line) => `- ${line}`).join('\n')}`;
}

/** The first line of the model's report, without Markdown heading or emphasis markers. */
function titleOf(text: string): string | undefined {
  const first = text.split('\n').find((line) => line.trim() !== '');
  if (first === undefined) return undefined;
  const line = first
    .replace(/^#+\s*/, '')
    .replace(/^(?:title|summary)\s*:\s*/i, '')
    .replace(/^(\*\*|__)(.*)\1$/, '$2')
    .trim();
  if (line === '') return undefined;
  return line.length <= TITLE_LIMIT ? line : `${line.slice(0, TITLE_LIMIT - 1).trimEnd()}…`;
}

/** `edited guides/setup.mdx (+2 more changes)` when the model wrote no report. */
function summarizeLog(log: readonly string[]): string {
  const first = log[0] ?? '';
  const more = log.length - 1;
  const text = more > 0 ? `${first} (+${more} more ${more === 1 ? 'change' : 'changes'})` : first;
  return text.charAt(0).toUpperCase() + text.slice(1);
}
