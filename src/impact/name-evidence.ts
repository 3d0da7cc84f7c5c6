import { STANDARD_LIBRARY_KEYS } from './common-names.js';
import type { DiffName } from './diff-names.js';
import type { ImpactEvidence } from './impact-types.js';
import { shapeSpecificity } from './name-shapes.js';
import { CHANGE_WEIGHT, CODE_ONLY_FACTOR, linesOfPage, rarity } from './name-weights.js';
import type { PageLine, PageVocabulary } from './page-vocabulary.js';

/** Page evidence, by page index in the vocabulary. */
export type PageEvidence = Map<number, ImpactEvidence[]>;

/** Lines after a name's line searched for its old default (a table row or the next sentence). */
const DEFAULT_WINDOW = 3;

/**
 * Evidence from the names the diff removed, renamed, re-defaulted or touched that pages still
 * write. Names of the standard library are left out (see STANDARD_LIBRARY_KEYS).
 */
export function nameEvidence(names: readonly DiffName[], vocabulary: PageVocabulary): PageEvidence {
  const evidence: PageEvidence = new Map();
  for (const name of names) {
    if (STANDARD_LIBRARY_KEYS.has(name.key)) continue;
    const lines = vocabulary.find(name.name);
    if (lines.length === 0) continue;
    const rare = rarity(vocabulary.pageCount(name.key), vocabulary.pages.length);
    const specificity = shapeSpecificity(name.name);
    for (const page of new Set(lines.map((at) => at.page))) {
      const onPage = linesOfPage(lines, page);
      const { line: best, saysOldValue } = bestLine(name, onPage, vocabulary);
      const codeOnly = onPage.every((at) => at.role === 'code');
      const weight = CHANGE_WEIGHT[name.change] * rare * defaultFactor(name, specificity, saysOldValue);
      add(evidence, page, {
        kind: 'name',
        name: name.name,
        change: name.change,
        ...(name.renamedTo === undefined ? {} : { renamedTo: name.renamedTo }),
        ...(name.oldValue === undefined ? {} : { oldValue: name.oldValue, newValue: name.newValue }),
        diffLine: name.at,
        pageLine: { line: best.line, text: vocabulary.text(best) },
        weight: weight * (codeOnly ? CODE_ONLY_FACTOR : 1),
      });
    }
  }
  return evidence;
}

/**
 * The specificity a name's evidence counts with. For a changed default it depends on the page:
 * one that states the old value beside the name (`timeout` ... `Default: 30`) says exactly what is
 * now wrong, even of a plain word; one that names it without the value may say nothing stale.
 */
function defaultFactor(name: DiffName, specificity: number, saysOldValue: boolean): number {
  if (name.change !== 'default-changed') return specificity;
  return saysOldValue
    ? Math.max(specificity, STATED_DEFAULT_SPECIFICITY)
    : specificity * UNSTATED_DEFAULT_FACTOR;
}

/** Specificity of any name whose old default the page states. */
const STATED_DEFAULT_SPECIFICITY = 0.85;
/**
 * Factor of a changed default the page does not state: the page names the option, maybe in
 * passing, and nothing it says is known to be wrong. 0.85 x 0.35 stays under the third a sign
 * needs to list a page (see page-scores.ts): such a page ranks high but is not listed on this alone.
 */
const UNSTATED_DEFAULT_FACTOR = 0.35;

/** The line to show: for a changed default, one near the old value; else the best documented one. */
function bestLine(
  name: DiffName,
  lines: PageLine[],
  vocabulary: PageVocabulary,
): { line: PageLine; saysOldValue: boolean } {
  const old = name.oldValue?.replace(/^['"`]|['"`]$/g, '');
  if (old) {
    const near = lines.find((at) => statesDefault(vocabulary.lines[at.page]!, at, old));
    if (near) return { line: near, saysOldValue: true };
  }
  return { line: lines[0]!, saysOldValue: false };
}

/** Values too common to recognise a default by: a page says `true` or `0` for many reasons. */
const PLAIN_VALUE = /^(?:true|false|null|none|nil|undefined|0|1|-1|)$/i;

/**
 * Whether a page states a name's old default near the line that names it: in the name's own
 * entry (its heading, list item or table row, and the lines below it), or in a sentence about
 * defaults around it when the value is distinctive enough not to be there by chance ("By default,
 * the "request-id" header is used").
 */
function statesDefault(lines: readonly string[], at: PageLine, value: string): boolean {
  if (at.role === 'defines')
    return lines.slice(at.line - 1, at.line + DEFAULT_WINDOW).some((text) => text.includes(value));
  if (PLAIN_VALUE.test(value)) return false;
  const around = lines.slice(Math.max(0, at.line - 1 - DEFAULT_WINDOW), at.line + DEFAULT_WINDOW).join('\n');
  return around.includes(value) && /\bdefaults?\b/i.test(around);
}

/** Adds an item to a page's evidence. */
export function add(evidence: PageEvidence, page: number, item: ImpactEvidence): void {
  const list = evidence.get(page);
  if (list) list.push(item);
  else evidence.set(page, [item]);
}
