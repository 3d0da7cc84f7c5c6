/**
 * One request, several instructions: people write them one per line, or in one sentence joined by
 * `;`, `. Then`, `, then` or `and then`. Quoted text is never split, and the lines after an
 * instruction that takes a body (add a page, append a section) are that body, up to the next line
 * that is an instruction of its own.
 */
import type { Command } from './commands.js';
import { extractQuotes, restoreQuotes, type Quoted } from './quoted-text.js';
import { closesFence, openingFence } from '../../docs/page-syntax.js';

/** Where one instruction ends and the next begins, within a line (quotes already set aside). */
const SEPARATOR = /\s*;\s*|\.\s+(?=then\s)|,\s*(?=then\s)|\s+(?=and\s+then\s)/i;
/** What joins an instruction to the one before it, or marks it as an item of a list. */
const LEAD = /^\s*(?:(?:[-*•]|\d+[.)])\s+)?(?:(?:and\s+)?then\b[\s,:]*)?/i;

/**
 * Splits a request into instructions, in order, each as typed (quotes included). `parse` tells
 * whether a piece is an instruction the agent knows, and whether it takes a body.
 */
export function splitInstructions(request: string, parse: (text: string) => Command | undefined): string[] {
  const { skeleton, quotes } = extractQuotes(request.replace(/\r\n?/g, '\n').trim());
  const pieces: string[][] = [];
  let body = false;
  // The body's code block, while one is open: its lines are never instructions.
  let fence: string | undefined;
  for (const line of skeleton.split('\n')) {
    const opens = fence === undefined ? openingFence(line) : undefined;
    if (body && (fence !== undefined || opens !== undefined || !startsInstruction(line, quotes, parse))) {
      if (opens) fence = opens.marker;
      else if (fence !== undefined && closesFence(line, fence)) fence = undefined;
      pieces.at(-1)?.push(line);
      continue;
    }
    if (line.trim() === '') continue;
    for (const fragment of line.split(SEPARATOR)) {
      const text = fragment.replace(LEAD, '').trim();
      if (text !== '') pieces.push([text]);
    }
    const head = pieces.at(-1)?.[0];
    const kind = head === undefined ? undefined : parse(restoreQuotes(head, quotes))?.kind;
    body = kind === 'add-page' || kind === 'append-section';
  }
  return pieces.map((lines) => restoreQuotes(lines.join('\n'), quotes).trim());
}

/** Whether a line (after a body-taking instruction) starts an instruction of its own. */
function startsInstruction(
  line: string,
  quotes: Quoted[],
  parse: (text: string) => Command | undefined,
): boolean {
  const first = line.split(SEPARATOR)[0]?.replace(LEAD, '').trim() ?? '';
  return first !== '' && parse(restoreQuotes(first, quotes)) !== undefined;
}
