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
  const sharedItems: PageEvidence = new Map();
  for (const name of names) {
    if (STANDARD_LIBRARY_KEYS.has(name.key)) continue;
    const lines = vocabulary.find(name.name);
    if (lines.length === 0) continue;
    const rare = rarity(vocabulary.pageCount(name.key), vocabulary.pages.length);
    const specificity = shapeSpecificity(name.name);
    const onPages = new Set(lines.map((at) => at.page));
    const shared =
      name.change === 'removed' || name.change === 'renamed'
        ? sharedBySiblings(
            new Set(lines.filter((at) => at.role === 'defines').map((at) => at.page)),
            vocabulary,
          )
        : new Set<number>();
    for (const page of onPages) {
      const onPage = linesOfPage(lines, page);
      if (name.change === 'type-changed') {
        add(evidence, page, declarationItem(name, onPage, vocabulary, rare, specificity));
        continue;
      }
      const { line: best, saysOldValue } = bestLine(name, onPage, vocabulary);
      const codeOnly = onPage.every((at) => at.role === 'code');
      const weight = CHANGE_WEIGHT[name.change] * rare * defaultFactor(name, specificity, saysOldValue);
      const item: ImpactEvidence = {
        kind: 'name',
        name: name.name,
        change: name.change,
        ...(name.renamedTo === undefined ? {} : { renamedTo: name.renamedTo }),
        ...(name.oldValue === undefined ? {} : { oldValue: name.oldValue, newValue: name.newValue }),
        diffLine: name.at,
        pageLine: { line: best.line, text: vocabulary.text(best) },
        weight: weight * (codeOnly ? CODE_ONLY_FACTOR : 1),
      };
      if (!shared.has(page)) add(evidence, page, item);
      else sharedItems.set(page, [...(sharedItems.get(page) ?? []), item]);
    }
  }
  // The shared members a page writes say one thing together (it documents a sibling that has
  // them too): the strongest of them counts, at SHARED_MEMBER_FACTOR.
  for (const [page, items] of sharedItems) {
    const strongest = items.reduce((best, item) => (item.weight > best.weight ? item : best));
    add(evidence, page, { ...strongest, weight: strongest.weight * SHARED_MEMBER_FACTOR });
  }
  return evidence;
}

/**
 * Sibling pages (one folder) that each document a name as an entry of their own (its heading, list
 * item or table row) each describe their own member of that name: every metrics backend has its
 * `pushInterval`, every provider its `endpoint`. When such a name goes, it went from one of them
 * (the backend removed), and the name alone cannot say which; the page that also writes the names
 * only the removed one had keeps its evidence from those.
 */
const SHARED_SIBLINGS = 3;
const SHARED_MEMBER_FACTOR = 0.5;

/** The pages among `pages` whose folder holds at least SHARED_SIBLINGS of them. */
function sharedBySiblings(pages: ReadonlySet<number>, vocabulary: PageVocabulary): Set<number> {
  const byFolder = new Map<string, number[]>();
  for (const page of pages) {
    const path = vocabulary.pages[page]!.path;
    const folder = path.slice(0, path.lastIndexOf('/') + 1);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), page]);
  }
  return new Set([...byFolder.values()].filter((group) => group.length >= SHARED_SIBLINGS).flat());
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

/**
 * The evidence of a name whose declaration changed (`staticDir?: string;` -> `staticDir?: string |
 * string[];`). A page that quotes the old declaration states what is no longer true, as a page
 * that states an old default does: it is `type-changed`, counted as a stated default is (and as
 * surely in a code block: a verbatim declaration is no local variable that shares a name). A page
 * that only names it says nothing known to be wrong: the change is in its area, `changed`, weighed
 * as any name the diff touched.
 */
function declarationItem(
  name: DiffName,
  onPage: PageLine[],
  vocabulary: PageVocabulary,
  rare: number,
  specificity: number,
): ImpactEvidence {
  const quoted = onPage.find((at) =>
    quotesDeclaration(vocabulary.lines[at.page]![at.line - 1] ?? '', name.oldValue!, name.newValue!),
  );
  const at = quoted ?? onPage[0]!;
  const codeOnly = onPage.every((line) => line.role === 'code');
  return {
    kind: 'name',
    name: name.name,
    change: quoted ? 'type-changed' : 'changed',
    ...(quoted ? { oldValue: name.oldValue, newValue: name.newValue } : {}),
    diffLine: name.at,
    pageLine: { line: at.line, text: vocabulary.text(at) },
    weight: quoted
      ? CHANGE_WEIGHT['type-changed'] * rare * Math.max(specificity, STATED_DEFAULT_SPECIFICITY)
      : CHANGE_WEIGHT.changed * rare * specificity * (codeOnly ? CODE_ONLY_FACTOR : 1),
  };
}

/** Words a declaration may open with that a page quoting it often leaves out. */
const DECLARATION_PREFIX = /^(?:(?:export|default|declare|pub(?:\([\w:]+\))?|public|async)\s+)+/;
/** The word before a signature, also often left out (`render(page: Page): string`). */
const SIGNATURE_WORD = /^(?:function|def|fn|func)\s+(?=[\w$]+\s*[(<])/;

/**
 * Whether a page line quotes a declaration as it was and not as it is: the old code (whole, or
 * without its `export` and its closing `;`, `,` or `{`) stands on the line as a whole, with no more
 * of the declaration after it (`staticDir?: string` is no quote of `staticDir?: string | null`), and
 * the new code does not (a page already showing `staticDir?: string | string[]` holds the old text
 * as its start).
 */
function quotesDeclaration(line: string, oldCode: string, newCode: string): boolean {
  const text = squash(line);
  const shown = (code: string) =>
    declarationForms(code).some((form) => {
      for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) {
        const before = text[at - 1] ?? '';
        const after = text.slice(at + form.length).trimStart();
        if (!/[\w$.]/.test(before) && /^(?:$|[;,{)}\]`'"]|\/\/|#|\*\/)/.test(after)) return true;
      }
      return false;
    });
  return shown(oldCode) && !shown(newCode);
}

/**
 * The ways a page writes a declaration: as the code has it, without its closing mark (`;`, `,`,
 * `{`, Python's `:`), without
 * `export` and the like, without `function` before a signature. A form that is a bare name would
 * find every mention of it: each keeps a space or a mark of a type or signature.
 */
function declarationForms(code: string): string[] {
  const whole = squash(code);
  const bare = whole.replace(/\s*[;,{:]$/, '');
  const unprefixed = bare.replace(DECLARATION_PREFIX, '');
  return [...new Set([whole, bare, unprefixed, unprefixed.replace(SIGNATURE_WORD, '')])].filter((form) =>
    /[\s:(<[|=]/.test(form),
  );
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
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
