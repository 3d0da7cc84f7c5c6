/**
 * What the docs checks' findings mean for a run: blocking ones that are still there after the
 * repair rounds stop the commit (the job fails, in words); advisory ones are listed in the reply,
 * under the files the run changed.
 */
import { formatProblemsAsMarkdown, isBlocking, type CheckProblem } from '../checks/index.js';
import type { FileChange } from '../forge/types.js';

/** Longest list of files a reply spells out; the rest is counted. */
const LIST_LIMIT = 25;

/**
 * The error of a run whose change would break the site, or undefined when nothing blocks. A link
 * left pointing at a deleted page blocks only when the agent did not say so in its reply.
 */
export function blockingFailure(problems: readonly CheckProblem[], reply: string): string | undefined {
  const blocking = problems.filter(
    (problem) =>
      isBlocking(problem) &&
      !(
        problem.rule === 'deleted-page-linked' &&
        problem.target !== undefined &&
        reply.includes(problem.target)
      ),
  );
  if (blocking.length === 0) return undefined;
  const count = plural(blocking.length, 'problem');
  return (
    `Nothing was committed: the change would break the docs site (${count} the docs checks found ` +
    `after the agent's edits). Send a follow-up message to fix ${blocking.length === 1 ? 'it' : 'them'}.\n\n` +
    formatProblemsAsMarkdown(blocking)
  );
}

/** The agent's reply, then the files the run changed and the advisory findings, if any. */
export function runReply(
  reply: string,
  changes: readonly FileChange[],
  problems: readonly CheckProblem[],
): string {
  const parts = [reply.trimEnd()];
  if (changes.length > 0) {
    const items = changes.map((change) => `\`${change.path}\`${change.content === null ? ' (deleted)' : ''}`);
    parts.push(`**Files changed (${changes.length}):** ${shortList(items)}`);
  }
  const advisory = problems.filter((problem) => !isBlocking(problem));
  if (advisory.length > 0) {
    const files = new Set(advisory.map((problem) => problem.file)).size;
    parts.push(
      `**Docs checks:** ${plural(advisory.length, 'finding')} in ${plural(files, 'file')} to look at (they do not stop the change):\n\n${formatProblemsAsMarkdown(advisory)}`,
    );
  }
  return parts.join('\n\n');
}

function shortList(items: string[]): string {
  const shown = items.slice(0, LIST_LIMIT).join(', ');
  return items.length > LIST_LIMIT ? `${shown} and ${items.length - LIST_LIMIT} more` : shown;
}

function plural(count: number, noun: string): string {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}
