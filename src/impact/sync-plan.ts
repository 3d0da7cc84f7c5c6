import { analyzeImpact } from './analyze-impact.js';
import type { ImpactPage } from './impact-types.js';
import { nameShape, nameWords } from './name-shapes.js';
import type { PageInput } from './page-vocabulary.js';

/** A rename both of whose names the diff holds: the old on a removed line, the new on an added one. */
export interface ProvenRename {
  from: string;
  to: string;
}

/** What a docs sync does to one docs tree: the pages to bring up to date, and the renames it may apply. */
export interface SyncPlan {
  /** The pages the change makes stale, most affected first, with their evidence. */
  pages: ImpactPage[];
  /** For each page, the renames its evidence proves (page path -> renames). */
  renames: Map<string, ProvenRename[]>;
}

/**
 * Analyses the change against the pages and picks the edits that need no judgement: a name the
 * diff renamed, on a page the analysis lists as affected by that very rename. A page that only
 * mentions the name in passing (a changelog, a migration guide) is not listed, so it is not edited.
 */
export function planDocsSync(diff: string, pages: readonly PageInput[]): SyncPlan {
  const affected = analyzeImpact({ diff, pages }).pages.filter((page) => page.affected);
  const renames = new Map<string, ProvenRename[]>();
  for (const page of affected) {
    const proven: ProvenRename[] = [];
    for (const item of page.evidence) {
      if (item.kind !== 'name' || item.change !== 'renamed' || !item.renamedTo) continue;
      if (proven.some((rename) => rename.from === item.name)) continue;
      proven.push({ from: item.name, to: item.renamedTo });
    }
    if (proven.length > 0) renames.set(page.path, proven);
  }
  return { pages: affected, renames };
}

/**
 * Applies renames to a page's text. A name of several words is replaced wherever it stands as a
 * whole name, in each of its usual spellings turned into the same spelling of the new name
 * (`max-retries` -> `retry-limit`, `MAX_RETRIES` -> `RETRY_LIMIT`); a name of one word is also
 * an English word, so it is replaced only where the page writes it as code (between backticks).
 */
export function applyRenames(
  text: string,
  renames: readonly ProvenRename[],
): { text: string; count: number } {
  let count = 0;
  let result = text;
  for (const rename of renames) {
    for (const [from, to] of spellings(rename)) {
      const pattern =
        nameWords(rename.from).length > 1 || nameShape(rename.from) !== 'word'
          ? new RegExp(`(?<!\\w|\\w-)${escape(from)}(?!\\w|-\\w)`, 'g')
          : new RegExp(`(?<=\`)${escape(from)}(?=\`)`, 'g');
      result = result.replace(pattern, () => {
        count += 1;
        return to;
      });
    }
  }
  return { text: result, count };
}

/** The old name as written, and its other spellings, each with the new name in the same spelling. */
function spellings(rename: ProvenRename): [string, string][] {
  const pairs = new Map<string, string>([[rename.from, rename.to]]);
  const from = nameWords(rename.from);
  const to = nameWords(rename.to);
  if (from.length < 2 || to.length === 0) return [...pairs];
  const styles: ((words: string[]) => string)[] = [
    (words) => words.map((word, index) => (index === 0 ? word : capital(word))).join(''),
    (words) => words.map(capital).join(''),
    (words) => words.join('-'),
    (words) => words.join('_'),
    (words) => words.join('_').toUpperCase(),
  ];
  for (const style of styles) if (!pairs.has(style(from))) pairs.set(style(from), style(to));
  return [...pairs];
}

function capital(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
