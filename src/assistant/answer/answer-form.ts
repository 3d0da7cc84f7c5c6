/**
 * What an answer to a question looks like, from the question's form: "how do I install" is
 * answered by a command, "how do I" by steps, "can I" by yes or no with its condition, "which
 * port" by a value, "what is" by a definition, "X never plays" by the condition it fails under and
 * the fix. The offline answer prefers units of that form among those that hold the question's words.
 */
import { openingFence } from '../../docs/page-syntax.js';
import { textUnits, type TextUnit } from './sentences.js';

export type AnswerForm =
  | 'command'
  | 'requirements'
  | 'steps'
  | 'yes-no'
  | 'value'
  | 'default'
  | 'place'
  | 'definition'
  | 'trouble'
  | 'any';

const COMMAND =
  /\b(install|what command|which command|command to|commands? for|run the tests?|test suite|start the server)\b/i;
/** A question asking what must be in place first: a page's requirements section answers it. */
const REQUIREMENTS =
  /\b(what (do|does|will|would) (i|we|you|it) need|what('s| is| are) (needed|required)|prerequisites?|requirements?|before (i|we|you) (start|begin))\b/i;
/** Headings of the section that lists what must be in place first. */
const REQUIREMENTS_HEADING =
  /^(requirements|prerequisites|before you (begin|start)|what you('ll| will)? need|things you('ll| will)? need)\b/i;
const STEPS = /^\s*how (do|can|should|would|to)\b|\bsteps?\b/i;
const YES_NO = /^\s*(can|could|does|do|is|are|will|should|may|must|am)\b/i;
const VALUE =
  /\b(which|what)( \w+)? (port|version|default|limit|value|size|timeout|url|address)\b|\bhow (many|much|long|often)\b/i;
const DEFINITION = /^\s*what(?:'s| is| are| does)\b/i;
/**
 * A question about what holds when the reader sets nothing ("which theme do code blocks use out of
 * the box").
 */
const DEFAULT =
  /\b(defaults?|by default|out of the box|if (i|you|we) (don't|do not|never) (set|change|configure|pick|choose|give|pass|specify|provide|select)|if (i|you|we) leave it)\b/i;
/**
 * A yes-or-no question put after what it is about ("strangers commenting on my repo, will it run
 * their request?", "the disk filled up, will it lose jobs?"): its last clause opens with the verb.
 */
const TRAILING_YES_NO =
  /[,;:\u2014-]\s*(can|could|does|do|is|are|will|would|should|may|must)\s+(i|we|you|it|they|this|that|there|[\p{L}\p{N}_-]+)\b[^,;:]*\?\s*$/iu;
/**
 * A reader reporting that something goes wrong ("my background sound never plays", "nginx rejects
 * the webhooks", "getting 429 from the widget"): the answer is the condition it fails under and
 * what to do, not what the thing is.
 */
const TROUBLE =
  /\b(doesn'?t|does not|don'?t|didn'?t|isn'?t|won'?t|can'?t|cannot|never|not (work|working|showing|loading|found)|fails?|failed|failing|errors?|crash(es|ed|ing)?|broken|rejects?|rejected|refuses?|refused|ignores?|ignored|stuck|missing|getting \d{3}|\d{3} errors?)\b/i;
/**
 * A question asking where something is: a place in a product or a file ("where do I find the
 * project id").
 */
const PLACE =
  /^\s*(where|in which|which (file|folder|page|menu|tab|setting))\b|\bwhere (do|does|did|can|is|are|should|would)\b/i;

/**
 * The form an answer to `question` takes, as retrieval reads it (it looks for the section of the
 * form); `any` when its words do not say. Never `default` or `place`: see `quotedForm`.
 */
export function answerForm(question: string): AnswerForm {
  if (COMMAND.test(question)) return 'command';
  if (REQUIREMENTS.test(question)) return 'requirements';
  if (VALUE.test(question)) return 'value';
  if (YES_NO.test(question)) return 'yes-no';
  if (DEFINITION.test(question)) return 'definition';
  if (STEPS.test(question)) return 'steps';
  return 'any';
}

/**
 * The form of the units an answer quotes first: `answerForm`, except that a question about a
 * default or a place asks for the sentence stating it, whatever else its words say ("does it use
 * dark mode by default?", "where do I find the project id?"). Retrieval goes on reading such a
 * question by `answerForm`: the sentence is in whichever section the question's words find.
 */
export function quotedForm(question: string): AnswerForm {
  const form = answerForm(question);
  if (form === 'command' || form === 'requirements' || form === 'value') return form;
  if (DEFAULT.test(question)) return 'default';
  if (PLACE.test(question)) return 'place';
  if (form === 'any' && TRAILING_YES_NO.test(question)) return 'yes-no';
  // A report of a fault asked without a question word is answered by the condition and the fix;
  // "how do I…" and "can I…" keep their own forms.
  if (form === 'any' && TROUBLE.test(question)) return 'trouble';
  return form;
}

/** "Which regions…", "what events…": the thing a question asks to be named or listed. */
const ASKED_FOR = /^\s*(?:which|what)\s+([\p{L}][\p{L}\p{N}_-]*)/iu;
/** Words after "which" or "what" that are not the thing asked for. */
const NOT_ASKED_FOR =
  /^(is|are|was|were|do|does|did|can|could|should|would|will|may|must|has|have|happens?|if|about|kind|sort|type|of|the|a|an|i|we|you|it|this|that|these|those|my|our|your)$/i;

/** The word naming what a "which"/"what" question asks for ("regions"), if it has one. */
export function askedFor(question: string): string | undefined {
  const word = ASKED_FOR.exec(question)?.[1];
  return word === undefined || NOT_ASKED_FOR.test(word) ? undefined : word;
}

/** Whether a text states what holds when nothing is set ("defaults to", a table's default column). */
export function statesDefault(text: string): boolean {
  return STATES_DEFAULT.test(text);
}

/** Whether a section's heading says it lists what must be in place first. */
export function listsRequirements(heading: string): boolean {
  return REQUIREMENTS_HEADING.test(heading.trim());
}

/** A code block a reader types at a shell: its fence names a shell, or its lines start with a tool. */
const SHELL_INFO = /^\s*(sh|bash|shell|console|zsh|powershell|cmd)\b/i;
const SHELL_LINE =
  /^\s*(\$ )?(npm|npx|pnpm|yarn|pip|pipx|uv|brew|apt(-get)?|git|curl|docker|make|go|cargo)\s/m;
/** Lines that install or start a program. */
const INSTALL_LINE =
  /^\s*(\$ )?(npm (ci|i|install)|pnpm (add|i|install)|yarn (add|install)|pip3? install|pipx install|uv (add|pip install)|brew install|apt(-get)? install|go install|cargo install)/m;
/** Words of a sentence that states a condition: a yes or no with when it holds. */
const CONDITION =
  /\b(only|unless|if|when|without|not|never|must|requires?|needs?|cannot|can't|by default)\b/i;
const DIGIT = /\d/;
/**
 * Words of a sentence that says under what condition something fails, or what to do about it:
 * the answer to a reader reporting a fault.
 */
const REMEDY =
  /\b(if|unless|only|must|make sure|ensure|check|verify|instead|requires?|needs? to|should|do not|don't|never|cannot|can't|not)\b/i;
/** A sentence that states what holds when nothing is set. */
const STATES_DEFAULT =
  /\b(defaults?|defaulted|by default|unless|otherwise|if (not|none|unset|omitted))\b|\bunset\b/i;
/**
 * A sentence that says where something is: a path through a product's menus ("**Settings** >
 * **General**", "Settings → Webhooks"), an instruction to go somewhere, or a file's path.
 */
const STATES_PLACE =
  /(\*\*|\w)\s*(>|→|›|->)\s*(\*\*|\w)|\b(navigate to|go to|found (in|on|under)|located (in|on|under)|under \*\*|in your \*\*)|`[^`\s]*[./][^`\s]*`/i;
const DEFINES = /\b(is|are) (a|an|the|one)\b/i;
/**
 * A list item or sentence that names a term and then says what it is ("**RESET_WITH_SUMMARY**: The
 * context is cleared but…", "`idle_timeout` — seconds before…", a field's name joined to its
 * description): a glossary entry, the shape of a definition.
 */
const DEFINED_TERM = /^(\*\*|`)[^*`\n]{1,60}(\1\s*(:|\u2014|\u2013|-)|:\1)\s/;

/** Whether a code block is a shell command (`command` answers quote one first). */
export function isCommand(unit: TextUnit): boolean {
  if (unit.kind !== 'code') return false;
  const fence = openingFence(unit.text.split('\n', 1)[0] ?? '');
  return (fence !== undefined && SHELL_INFO.test(fence.info)) || SHELL_LINE.test(unit.text);
}

/** Whether a section's text holds a code block that installs something. */
export function holdsInstallCommand(body: string): boolean {
  return textUnits(body).some((unit) => isCommand(unit) && INSTALL_LINE.test(unit.text));
}

/**
 * What a unit's score gains for being of the answer's form. A unit of the form that holds none of
 * the question's words gains nothing, except a command that installs for a question about
 * installing: the command never names what it answers ("npm ci && npm start" for "how do I
 * install it?").
 */
export function formBonus(unit: TextUnit, form: AnswerForm, score: number): number {
  switch (form) {
    case 'command':
      if (!isCommand(unit)) return 0;
      return INSTALL_LINE.test(unit.text) ? 1 : score > 0 ? 0.5 : 0;
    case 'steps':
      return score > 0 && unit.kind === 'item' && unit.ordered === true ? 0.3 : 0;
    case 'yes-no':
      return score > 0 && unit.kind === 'sentence' && CONDITION.test(unit.text) ? 0.3 : 0;
    case 'default':
      return score > 0 && unit.kind !== 'code' && STATES_DEFAULT.test(unit.text) ? 0.3 : 0;
    case 'place':
      return score > 0 && unit.kind !== 'code' && STATES_PLACE.test(unit.text) ? 0.3 : 0;
    case 'value':
      return score > 0 && (unit.kind === 'sentence' || unit.kind === 'item') && DIGIT.test(unit.text)
        ? 0.3
        : 0;
    case 'trouble':
      return score > 0 && unit.kind !== 'code' && REMEDY.test(unit.text) ? 0.3 : 0;
    case 'definition':
      return score > 0 &&
        ((unit.kind === 'sentence' && DEFINES.test(unit.text)) ||
          ((unit.kind === 'item' || unit.kind === 'sentence') && DEFINED_TERM.test(unit.text)))
        ? 0.3
        : 0;
    default:
      return 0;
  }
}
