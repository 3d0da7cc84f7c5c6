/** Matchers for the instruction forms that act on one page: add, append a section, remove, move. */
import type { AddPageCommand, Command } from './commands.js';
import { isPathLike } from './instruction-parts.js';
import type { InstructionParts } from './instruction-parts.js';
import { PLACEHOLDER_SOURCE, argumentValue } from './quoted-text.js';

const Q = PLACEHOLDER_SOURCE;
/** Words that start the next clause of "add a page": an unquoted value stops before them. */
const CLAUSE_START =
  '(?:titled|entitled|called|named|described|with|containing|saying|in|into|under|after|below)';
/** A clause value: one quoted string, or unquoted words up to the next clause or the end. */
const VALUE = `(${Q}|.+?)(?=$|[\\s,;]+(?:and\\s+)?${CLAUSE_START}\\b)`;
const LEAD = '^[\\s,;]*(?:and\\s+)?';

type ClauseName = 'title' | 'description' | 'group' | 'after' | 'body';

/** Clauses of "add a page", tried in this order: "with the title" before the plain "with" body. */
const CLAUSES: Array<[ClauseName, RegExp]> = [
  ['title', new RegExp(`${LEAD}(?:titled|entitled|called|named|with\\s+(?:the\\s+)?title)\\s+${VALUE}`, 'i')],
  ['description', new RegExp(`${LEAD}(?:described\\s+as|with\\s+(?:the\\s+)?description)\\s+${VALUE}`, 'i')],
  ['group', new RegExp(`${LEAD}(?:in|into|under)\\s+(?:the\\s+)?(?:navigation\\s+)?group\\s+${VALUE}`, 'i')],
  ['group', new RegExp(`${LEAD}(?:in|into|under)\\s+(?:the\\s+)?(${Q}|\\S+)\\s+group\\b`, 'i')],
  ['after', new RegExp(`${LEAD}(?:after|below)\\s+(?:the\\s+)?(?:page\\s+)?${VALUE}`, 'i')],
  // A body runs to the end of the line unless it is quoted (then more clauses may follow).
  [
    'body',
    new RegExp(
      `${LEAD}(?:with|containing|saying)(?:\\s+(?:the\\s+)?(?:body|content|text))?\\s+(${Q}(?=$|[\\s,;])|.+$)`,
      'i',
    ),
  ],
];

/** Joins an inline body and the body given on the following lines. */
function joinBody(inline: string | undefined, following: string): string {
  return [inline?.trim() ?? '', following].filter((part) => part !== '').join('\n\n');
}

function parseClauses(
  rest: string,
  parts: InstructionParts,
): Partial<Record<ClauseName, string>> | undefined {
  const found: Partial<Record<ClauseName, string>> = {};
  let remaining = rest;
  while (remaining.trim() !== '') {
    const clause = CLAUSES.find(([, pattern]) => pattern.test(remaining));
    if (!clause) return undefined;
    const match = clause[1].exec(remaining);
    if (!match) return undefined;
    found[clause[0]] = argumentValue(match[1] ?? '', parts.quotes);
    remaining = remaining.slice(match[0].length);
  }
  return found;
}

const ADD_PAGE =
  /^(?:add|create|write|make)\s+(?:a\s+|an\s+|the\s+)?(?:new\s+)?(?:docs?\s+)?(?:page|doc|document)(?:\s+(?:called|named|at))?\s+(\S+)(.*)$/i;

/** `add a page guides/webhooks titled "Webhooks" described as "..." with "body"`. */
export function parseAddPage(parts: InstructionParts): Command | undefined {
  const match = ADD_PAGE.exec(parts.line);
  if (!match) return undefined;
  const clauses = parseClauses(match[2] ?? '', parts);
  if (!clauses) return undefined;
  const command: AddPageCommand = { kind: 'add-page', path: argumentValue(match[1] ?? '', parts.quotes) };
  if (clauses.title !== undefined) command.title = clauses.title;
  if (clauses.description !== undefined) command.description = clauses.description;
  if (clauses.group !== undefined) command.group = clauses.group;
  if (clauses.after !== undefined) command.after = clauses.after;
  const body = joinBody(clauses.body, parts.body);
  if (body !== '') command.body = body;
  return command;
}

const APPEND_SECTION = new RegExp(
  '^(?:append|add)\\s+(?:a\\s+|an\\s+|the\\s+)?(?:new\\s+)?section\\s+(?:(?:called|titled|named|headed|entitled)\\s+)?' +
    '(.+?)\\s+(?:to|at\\s+the\\s+end\\s+of|on|in|into)\\s+(?:the\\s+)?(?:page\\s+)?(.+?)(?:\\s+page)?' +
    '(?:[\\s,;]+(?:with|containing|saying)(?:\\s+(?:the\\s+)?(?:body|content|text))?\\s+(.+))?$',
  'i',
);

/** `append a section "Rate limits" to quickstart with "text"` (or the text on later lines). */
export function parseAppendSection(parts: InstructionParts): Command | undefined {
  const match = APPEND_SECTION.exec(parts.line);
  if (!match) return undefined;
  const inline = match[3] === undefined ? undefined : argumentValue(match[3], parts.quotes);
  return {
    kind: 'append-section',
    heading: argumentValue(match[1] ?? '', parts.quotes),
    page: argumentValue(match[2] ?? '', parts.quotes),
    body: joinBody(inline, parts.body),
  };
}

const REMOVE_PAGE =
  /^(?:remove|delete|drop)\s+(?:the\s+)?(?:(page|file|doc)\s+)?(?:(?:titled|called|named|at)\s+)?(.+?)(?:\s+(page))?$/i;

/** `remove the page guides/old`; without the word "page" only a path-like target counts. */
export function parseRemovePage(parts: InstructionParts): Command | undefined {
  const redirect = LINKS_TO.exec(parts.line);
  const line = redirect ? parts.line.slice(0, redirect.index) : parts.line;
  const match = REMOVE_PAGE.exec(line);
  if (!match) return undefined;
  const page = argumentValue(match[2] ?? '', parts.quotes);
  const saysPage = match[1] !== undefined || match[3] !== undefined;
  if (!saysPage && !isPathLike(page)) return undefined;
  const linksTo = redirect ? argumentValue(redirect[1] ?? '', parts.quotes) : undefined;
  return linksTo ? { kind: 'remove-page', page, linksTo } : { kind: 'remove-page', page };
}

/** `... and point its links to /guides/new`, `, repointing links to X`, `(links go to X)`. */
const LINKS_TO =
  /[\s,;(]+(?:and\s+)?(?:re)?(?:point|pointing|send|sending|redirect|redirecting|move|moving)\s+(?:its\s+|the\s+|all\s+|any\s+)*links?(?:\s+to\s+it)?\s+(?:to|at)\s+(.+?)\)?$/i;

const MOVE_PAGE =
  /^(move|rename|relocate)\s+(?!(?:the\s+)?section\b)(?:the\s+)?(?:(page|file|doc)\s+)?(?:(?:titled|called|named|at)\s+)?(.+?)\s+(?:to|as|into|->|→)\s+(.+?)(?:\s+page)?$/i;

/** `move page guides/setup to guides/getting-started`; "rename" needs the word "page". */
export function parseMovePage(parts: InstructionParts): Command | undefined {
  const match = MOVE_PAGE.exec(parts.line);
  if (!match) return undefined;
  // "rename X to Y" without "page" is a text rename (./parse-instruction.ts decides).
  if (match[1]?.toLowerCase() === 'rename' && match[2] === undefined) return undefined;
  return {
    kind: 'move-page',
    from: argumentValue(match[3] ?? '', parts.quotes),
    to: argumentValue(match[4] ?? '', parts.quotes),
  };
}
