import type { Command } from './commands.js';
import {
  parseAddPage,
  parseAppendSection,
  parseMovePage,
  parseRemovePage,
} from './parse-page-instruction.js';
import { isPathLike, splitPair } from './instruction-parts.js';
import type { InstructionParts } from './instruction-parts.js';
import { argumentValue, extractQuotes, isQuoted, PLACEHOLDER_SOURCE, restoreQuotes } from './quoted-text.js';

type FormParser = (parts: InstructionParts) => Command | undefined;

/**
 * Reads one instruction into a command, or undefined when it is none of the forms the built-in
 * agent knows. Forgiving about case, quote style, a leading "please", a trailing period and a
 * leftover `/docs` prefix; exact about the quoted text itself.
 */
export function parseInstruction(instruction: string): Command | undefined {
  const { skeleton, quotes } = extractQuotes(instruction.trim());
  const newline = skeleton.indexOf('\n');
  const head = newline === -1 ? skeleton : skeleton.slice(0, newline);
  const rest = newline === -1 ? '' : skeleton.slice(newline + 1);
  const parts: InstructionParts = {
    line: normalizeLine(head),
    body: trimBlankLines(restoreQuotes(rest, quotes)),
    quotes,
  };
  // Most specific first: "replace links from ..." is a repoint, "add a section" is no page.
  const parsers: FormParser[] = [
    parseRepointLinks,
    parseAppendSection,
    parseAddPage,
    parseMovePage,
    parseRemovePage,
    parseRename,
    parseReplace,
  ];
  for (const parse of parsers) {
    const command = parse(parts);
    if (command) return command;
  }
  return undefined;
}

function normalizeLine(line: string): string {
  return line
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\/docs\b\s*/i, '')
    .replace(/^(?:(?:can|could|would|will)\s+you\s+)?(?:(?:please|pls|kindly)\b)?[\s,:]*/i, '')
    .replace(/(?:[\s,]+please)?[\s.!?]*$/i, '');
}

/** Drops blank lines around a body, keeping its inner layout (lists, code blocks) intact. */
function trimBlankLines(text: string): string {
  return text.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd();
}

/** Scope words people add at the end ("... everywhere", "... in all pages") change nothing. */
const SCOPE_SUFFIX =
  /\s+(?:everywhere|throughout(?:\s+the\s+(?:docs|site))?|across\s+(?:all\s+)?(?:the\s+)?(?:docs|pages|site|documentation)|in\s+(?:all\s+)?(?:the\s+)?(?:docs|pages|site|documentation|files))$/i;

const TEXT_NOUN =
  /^(?:all\s+|every\s+)?(?:(?:occurrences?|instances?|mentions?)\s+of\s+)?(?:(?:the\s+)?(?:text|word|phrase|string|name)\s+)?/i;

function parseReplace({ line, quotes }: InstructionParts): Command | undefined {
  const verb = /^(replace|change|swap|substitute)\s+(.+)$/i.exec(line);
  if (!verb) return undefined;
  const rest = (verb[2] ?? '').replace(SCOPE_SUFFIX, '').replace(TEXT_NOUN, '');
  const separators = verb[1]?.toLowerCase() === 'change' ? ['to', 'into', 'with'] : ['with', 'by', 'to'];
  const pair = splitPair(rest, separators);
  if (!pair || !pair.every(isWholeArgument)) return undefined;
  return { kind: 'replace-text', from: argumentValue(pair[0], quotes), to: argumentValue(pair[1], quotes) };
}

/**
 * A side of "replace X with Y" is one quoted string or plain words: a quoted string ends at its
 * closing quote, so text after it is not swallowed into the replacement (it is not understood).
 */
function isWholeArgument(piece: string): boolean {
  return isQuoted(piece) || !new RegExp(PLACEHOLDER_SOURCE).test(piece);
}

/** `rename "X" to "Y"` renames text; `rename guides/a to guides/b` (a bare path) moves a page. */
function parseRename({ line, quotes }: InstructionParts): Command | undefined {
  const verb = /^rename\s+(?!(?:the\s+)?(?:page|file|doc)\b)(.+)$/i.exec(line);
  if (!verb) return undefined;
  const rest = (verb[1] ?? '').replace(SCOPE_SUFFIX, '').replace(TEXT_NOUN, '');
  const pair = splitPair(rest, ['to', 'as', 'into']);
  if (!pair || !pair.every(isWholeArgument)) return undefined;
  const [from, to] = [argumentValue(pair[0], quotes), argumentValue(pair[1], quotes)];
  if (!isQuoted(pair[0]) && isPathLike(from)) return { kind: 'move-page', from, to };
  return { kind: 'replace-text', from, to };
}

const LINK_VERB = '(?:re-?point|redirect|update|change|fix|repair|point|rewrite|retarget|replace|move)';
const LINKS = '(?:all\\s+)?(?:the\\s+)?(?:internal\\s+|broken\\s+|dead\\s+|old\\s+)?links?';
const POINTING = '(?:to|pointing\\s+(?:to|at)|that\\s+point\\s+(?:to|at)|for|at)';
const REPOINT_EXPLICIT = new RegExp(
  `^${LINK_VERB}\\s+${LINKS}\\s+(?:from|${POINTING})\\s+(\\S+)\\s+(?:to|at|with|into|->|→)\\s+(\\S+)$`,
  'i',
);
const REPOINT_TO_MATCH = new RegExp(`^${LINK_VERB}\\s+${LINKS}\\s+${POINTING}\\s+(\\S+)$`, 'i');

function parseRepointLinks({ line, quotes }: InstructionParts): Command | undefined {
  const explicit = REPOINT_EXPLICIT.exec(line);
  if (explicit) {
    return {
      kind: 'repoint-links',
      from: argumentValue(explicit[1] ?? '', quotes),
      to: argumentValue(explicit[2] ?? '', quotes),
    };
  }
  const toMatch = REPOINT_TO_MATCH.exec(line);
  if (toMatch) return { kind: 'repoint-links', from: argumentValue(toMatch[1] ?? '', quotes) };
  return undefined;
}
