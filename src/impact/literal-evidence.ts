import { lexLine } from './code-tokens.js';
import { diffFilePath, type DiffFile, type DiffLine } from './diff-types.js';
import { linePairs } from './line-pairs.js';
import { hunkSpans } from './markup-spans.js';
import { add, type PageEvidence } from './name-evidence.js';
import { CHANGE_WEIGHT, rarity } from './name-weights.js';
import type { PageInput } from './page-vocabulary.js';

/**
 * Evidence from values the code no longer has that a page quotes verbatim: a default URL
 * (`https://cdn.example/redoc@next/...`), a glob (`**\/__tests__/**\/*.[jt]s?(x)`), a path or a
 * `host:port`. Such a value often sits on a line that names no option (the value of a parameter
 * declared lines above, an entry of a defaults array), so no changed name leads to the page; but
 * a page that writes the old value character for character states what is no longer true.
 */

/** Quoted values shorter than this are too likely to be written anywhere (`a.b`, `/tmp`). */
const MIN_LENGTH = 8;
const MAX_LENGTH = 300;
/**
 * Pages at most that may quote a value for it to say which page is stale: a value every page
 * shows (a domain, a base path) is the site's, not an option's.
 */
const MAX_PAGES = 5;
/** Removed values read at most: a file deleted whole is not a list of changed values. */
const MAX_VALUES = 200;

/** What makes a string a value a reader would copy: a separator of paths, hosts, URLs or globs. */
const VALUE_SHAPE = /[./:]/;
/** Module paths of imports are the code's own layout, not values a reader uses. */
const IMPORT_LINE = /^\s*(?:import\b|from\s+\S+\s+import\b|export\s.*\sfrom\s)|\brequire\s*\(|\bimport\s*\(/;

interface RemovedValue {
  value: string;
  replacement?: string;
  line: DiffLine;
  file: string;
}

/** The pages that quote a string value the change removed, with the value and its replacement. */
export function literalEvidence(codeFiles: readonly DiffFile[], pages: readonly PageInput[]): PageEvidence {
  const evidence: PageEvidence = new Map();
  const removed = removedValues(codeFiles);
  for (const found of removed) {
    const quoting: number[] = [];
    pages.forEach((page, index) => {
      if (page.text.includes(found.value)) quoting.push(index);
    });
    if (quoting.length === 0 || quoting.length > MAX_PAGES) continue;
    const rare = rarity(quoting.length, pages.length);
    for (const index of quoting) {
      const lines = pages[index]!.text.split('\n');
      const at = lines.findIndex((text) => text.includes(found.value));
      add(evidence, index, {
        kind: 'name',
        name: found.value,
        change: found.replacement === undefined ? 'removed' : 'default-changed',
        ...(found.replacement === undefined
          ? {}
          : { oldValue: `'${found.value}'`, newValue: `'${found.replacement}'` }),
        diffLine: { file: found.file, line: found.line.oldLine ?? 0, text: found.line.text.trim() },
        pageLine: { line: at + 1, text: lines[at]!.trim() },
        weight: CHANGE_WEIGHT['default-changed'] * rare,
      });
    }
  }
  return evidence;
}

/**
 * String values on removed lines of code that no added line of code has, shaped like values a
 * reader copies; with the string that took a value's place on its edited line, if one did.
 */
function removedValues(codeFiles: readonly DiffFile[]): RemovedValue[] {
  const added = new Set<string>();
  const removed: RemovedValue[] = [];
  for (const file of codeFiles)
    for (const hunk of file.hunks) {
      const spans = hunkSpans(diffFilePath(file), hunk);
      const strings = (line: DiffLine) =>
        IMPORT_LINE.test(line.text)
          ? []
          : lexLine(line.text, spans.get(line))
              .filter((token) => token.kind === 'string' && !token.prose)
              .map((token) => token.text);
      const partner = new Map(linePairs(hunk).map((pair) => [pair.removed, pair.added]));
      for (const line of hunk.lines) {
        if (line.kind === 'added') strings(line).forEach((text) => added.add(text));
        if (line.kind !== 'removed') continue;
        const paired = partner.get(line);
        const before = strings(line);
        const after = paired ? strings(paired).filter((text) => !before.includes(text)) : [];
        for (const value of before)
          if (isValue(value) && removed.length < MAX_VALUES)
            removed.push({
              value,
              ...(after.length === 1 ? { replacement: after[0] } : {}),
              line,
              file: diffFilePath(file),
            });
      }
    }
  const seen = new Set<string>();
  return removed.filter((found) => {
    if (added.has(found.value) || seen.has(found.value)) return false;
    seen.add(found.value);
    return true;
  });
}

function isValue(text: string): boolean {
  return (
    text.length >= MIN_LENGTH &&
    text.length <= MAX_LENGTH &&
    !/\s/.test(text) &&
    VALUE_SHAPE.test(text) &&
    /[a-z]/i.test(text) &&
    !/^\.\.?\//.test(text)
  );
}
