import { parseSyncPrompt } from '../../impact/index.js';
import type { Agent, AgentResult, AgentRunInput } from '../types.js';
import type { Command } from './commands.js';
import { DocsSite } from './docs-site.js';
import type { EditOutcome } from './edit-outcome.js';
import { addPage } from './edits/add-page.js';
import { appendSection } from './edits/append-section.js';
import { movePage } from './edits/move-page.js';
import { removePage } from './edits/remove-page.js';
import { repointLinks } from './edits/repoint-links.js';
import { replaceText } from './edits/replace-text.js';
import { FORMS_LIST, notUnderstoodReply } from './instruction-forms.js';
import { parseInstruction } from './parse-instruction.js';
import { splitInstructions } from './split-instructions.js';
import { syncDocs } from './edits/sync-docs.js';

/** Longest title kept whole; longer ones (several edits) are shortened to the first and a count. */
const TITLE_LIMIT = 72;

/**
 * The offline agent (model `builtin`): deterministic, mechanical docs edits from a few instruction
 * forms (see ./instruction-forms.ts). Instructions apply in order; one that is not understood, or
 * cannot be applied, changes nothing and says why, while the others still apply.
 */
export class BuiltinAgent implements Agent {
  readonly model = 'builtin';

  async run(input: AgentRunInput): Promise<AgentResult> {
    const site = new DocsSite(input.files, input.policy);
    // A sync request is one instruction as a whole: its diff must not be split into sentences.
    const instructions = input.instructions.flatMap((request) =>
      parseSyncPrompt(request) ? [request] : splitInstructions(request, parseInstruction),
    );
    const outcomes: Outcome[] = [];
    for (const instruction of instructions) {
      input.signal.throwIfAborted();
      const sync = parseSyncPrompt(instruction);
      if (sync) {
        const outcome = await syncDocs(site, sync);
        input.logger.debug(
          { jobId: input.jobId, command: 'sync', changed: outcome.changed },
          'builtin agent instruction',
        );
        outcomes.push({ ...outcome, understood: true });
        continue;
      }
      const command = parseInstruction(instruction);
      const outcome: Outcome = command
        ? { ...(await applyCommand(site, command)), understood: true }
        : { changed: false, reply: notUnderstoodReply(instruction), understood: false };
      input.logger.debug(
        { jobId: input.jobId, command: command?.kind ?? 'not-understood', changed: outcome.changed },
        'builtin agent instruction',
      );
      outcomes.push(outcome);
    }
    const result: AgentResult = { reply: combineReplies(instructions, outcomes) };
    const title = summaryTitle(outcomes);
    if (title !== undefined) result.title = title;
    return result;
  }
}

/** Runs the edit for one parsed command. */
function applyCommand(site: DocsSite, command: Command): Promise<EditOutcome> {
  switch (command.kind) {
    case 'replace-text':
      return replaceText(site, command);
    case 'add-page':
      return addPage(site, command);
    case 'append-section':
      return appendSection(site, command);
    case 'remove-page':
      return removePage(site, command);
    case 'move-page':
      return movePage(site, command);
    case 'repoint-links':
      return repointLinks(site, command);
  }
}

/** What one instruction came to, and whether it was understood at all. */
type Outcome = EditOutcome & { understood: boolean };

/**
 * One reply: alone as it is, or (for several instructions) one line each, in order: done, not
 * understood, or not possible and why. Details (file lists, warnings) follow under the
 * instruction's number, and the forms the agent understands are listed once.
 */
function combineReplies(instructions: string[], outcomes: Outcome[]): string {
  if (outcomes.length === 1) return outcomes[0]?.reply ?? '';
  // Prose over several lines (a gap's questions, a description) is one request none of whose
  // lines is an edit: one answer says so, instead of a line per sentence of it.
  if (outcomes.every((outcome) => !outcome.understood))
    return `I did not understand the request ("${shorten(instructions[0] ?? '')}" and ${instructions.length - 1} more line${instructions.length === 2 ? '' : 's'}): none of its lines is an edit I can make, so I changed nothing.\n\n${FORMS_LIST}`;
  const lines: string[] = [];
  const details: string[] = [];
  outcomes.forEach((outcome, index) => {
    const number = index + 1;
    if (!outcome.understood) {
      lines.push(
        `${number}. Not understood: "${shorten(instructions[index] ?? '')}"; nothing changed for it.`,
      );
      return;
    }
    const [first = '', ...rest] = outcome.reply.split(/\n\s*\n/);
    const summary = first.replace(/\s+/g, ' ').replace(/^Nothing changed: /, '');
    lines.push(`${number}. ${outcome.changed ? 'Done' : 'Not possible'}: ${summary}`);
    if (rest.length > 0) details.push(`**${number}.**\n\n${rest.join('\n\n')}`);
  });
  const parts = [lines.join('\n'), ...details];
  if (outcomes.some((outcome) => !outcome.understood)) parts.push(FORMS_LIST);
  return parts.join('\n\n');
}

function shorten(instruction: string): string {
  const line = instruction.trim().replace(/\s+/g, ' ');
  return line.length > 100 ? `${line.slice(0, 97)}...` : line;
}

/** One line for the commit and PR: the edit's title, or the first of several and how many more. */
function summaryTitle(outcomes: Outcome[]): string | undefined {
  const titles = outcomes.flatMap((outcome) => (outcome.changed && outcome.title ? [outcome.title] : []));
  const [first] = titles;
  if (first === undefined) return undefined;
  const joined = titles.join('; ');
  if (joined.length <= TITLE_LIMIT) return joined;
  return titles.length === 1
    ? first
    : `${first} (+${titles.length - 1} more ${titles.length === 2 ? 'edit' : 'edits'})`;
}
