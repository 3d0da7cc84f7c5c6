/**
 * What an answer to a question looks like, from the question's form: "how do I install" is
 * answered by a command, "how do I" by steps, "can I" by yes or no with its condition, "which
 * port" by a value, "what is" by a definition. The offline answer prefers units of that form among
 * those that hold the question's words.
 */
import { openingFence } from '../../docs/page-syntax.js';
import { textUnits, type TextUnit } from './sentences.js';

export type AnswerForm = 'command' | 'steps' | 'yes-no' | 'value' | 'definition' | 'any';

const COMMAND =
  /\b(install|what command|which command|command to|commands? for|run the tests?|test suite|start the server)\b/i;
const STEPS = /^\s*how (do|can|should|would|to)\b|\bsteps?\b/i;
const YES_NO = /^\s*(can|could|does|do|is|are|will|should|may|must|am)\b/i;
const VALUE =
  /\b(which|what)( \w+)? (port|version|default|limit|value|size|timeout|url|address)\b|\bhow (many|much|long|often)\b/i;
const DEFINITION = /^\s*what(?:'s| is| are| does)\b/i;

/** The form an answer to `question` takes; `any` when its words do not say. */
export function answerForm(question: string): AnswerForm {
  if (COMMAND.test(question)) return 'command';
  if (VALUE.test(question)) return 'value';
  if (YES_NO.test(question)) return 'yes-no';
  if (DEFINITION.test(question)) return 'definition';
  if (STEPS.test(question)) return 'steps';
  return 'any';
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
const DEFINES = /\b(is|are) (a|an|the|one)\b/i;

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
    case 'value':
      return score > 0 && (unit.kind === 'sentence' || unit.kind === 'item') && DIGIT.test(unit.text) ? 0 : 0;
    case 'definition':
      return score > 0 && unit.kind === 'sentence' && DEFINES.test(unit.text) ? 0.3 : 0;
    default:
      return 0;
  }
}
