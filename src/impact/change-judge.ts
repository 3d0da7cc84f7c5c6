import { diffFilePath, type DiffFile } from './diff-types.js';
import type { DiffName } from './diff-names.js';
import type { ImpactPage } from './impact-types.js';
import { logisticChance, type LogisticWeights } from './logistic.js';
import { nameShape } from './name-shapes.js';
import { evidenceSignal, type EvidenceSignal } from './page-scores.js';

/**
 * The first of the two questions the analysis answers apart: does this change need any docs
 * change at all? A fix inside a function, a refactor or a test touches documented names as often
 * as a new option does, so page evidence alone cannot tell them apart; what the change exposes
 * (new or removed public names, a changed default, a declaration file) and how strong the best
 * page's evidence is can. The answer is a chance from weights fitted on labelled real changes
 * (`judge-model.ts`); the second question, which pages, is the ranking, and a change judged to
 * need docs lists its best pages even when no page names the changed thing yet.
 */

/** The signs the judge reads, each a number near 0-3 so one weight scale serves them all. */
export const CHANGE_FEATURES = [
  /** The best page's score. */
  'top',
  /** The strongest of each evidence signal on the ten best pages. */
  'stale',
  'sibling',
  'family',
  'touched',
  'added',
  'word-gone',
  'file-name',
  'search',
  /** A declaration file changed (`.d.ts`, `.pyi`, a `types/` folder): the public surface did. */
  'declarations',
  /**
   * New names that are exported or tested, and not plain words, or declared as configuration
   * fields (log of 1 + how many).
   */
  'new-public',
  /** Removed or renamed names that were exported or tested (log of 1 + how many). */
  'gone-public',
  /** A default value changed. */
  'defaults',
  /** Declarations whose type or signature changed, the name kept (log of 1 + how many). */
  'declared',
  /** Added code marks something deprecated (`@deprecated`, `// Deprecated:`, a DeprecationWarning). */
  'deprecations',
  /**
   * Changed lines of code read an environment variable (`process.env.X`, `os.Getenv("X")`,
   * `os.environ["X"]`, `env::var("X")`): what users set is part of the interface.
   */
  'environment',
  /** Code files changed (log of 1 + how many). */
  'code-files',
  /** Tests changed with the code. */
  'tests',
  /** Changed lines of code (log of 1 + how many, over 5). */
  'size',
] as const;

type ChangeFeature = (typeof CHANGE_FEATURES)[number];
export type ChangeFeatures = Record<ChangeFeature, number>;

/** The judge: its weights, and how a judgement becomes listed pages. */
export interface JudgeModel extends LogisticWeights {
  /** Chance from which a change is judged to need docs. */
  threshold: number;
  /** Pages listed at most for a change judged to need docs (pages past SURE_SCORE come on top). */
  most: number;
  /** A page after the first is listed when its score is at least this share of the first's. */
  ratio: number;
  /**
   * A change to at least this many code files lists one page more than `most` (0: never): a
   * change that spans more of the code touches more of what the docs describe.
   */
  wide: number;
}

/** Pages whose evidence the judge reads: past the tenth, the ranking is guesswork. */
const PAGES_READ = 10;

/** How languages mark a deprecation: JSDoc/JavaDoc, Go's doc comment, Rust's attribute, warnings. */
const DEPRECATION =
  /@deprecated\b|^\s*\/\/\s*Deprecated:|#\[deprecated|\bDeprecationWarning\b|\bdeprecat(?:e|ed|ion)\s*\(/i;

/** An environment variable read by name, in the common languages. */
const ENVIRONMENT_READ =
  /\b(?:process\.env\.[A-Za-z_]\w*|process\.env\[['"]|os\.(?:Getenv|LookupEnv)\(|os\.environ(?:\.get)?[[(]|os\.getenv\(|env::var(?:_os)?\(|System\.getenv\(|ENV\[['"])/;

const DECLARATION_FILE = /\.d\.[cm]?ts$|\.pyi$|(?:^|\/)(?:types?|typings)\//;

/** The judge's features of a change, from its names and files and the ranked pages. */
export function changeFeatures(
  names: readonly DiffName[],
  code: readonly DiffFile[],
  tests: readonly DiffFile[],
  ranked: readonly ImpactPage[],
): ChangeFeatures {
  const strongest = new Map<EvidenceSignal, number>();
  for (const page of ranked.slice(0, PAGES_READ)) {
    const missing = new Map<EvidenceSignal, number>();
    for (const item of page.evidence) {
      const signal = evidenceSignal(item);
      missing.set(signal, (missing.get(signal) ?? 1) * (1 - Math.min(1, Math.max(0, item.weight))));
    }
    for (const [signal, left] of missing)
      strongest.set(signal, Math.max(strongest.get(signal) ?? 0, 1 - left));
  }
  const publicName = (name: DiffName) => name.exported || name.tested;
  const changedLines = code.reduce(
    (sum, file) =>
      sum +
      file.hunks.reduce(
        (lines, hunk) => lines + hunk.lines.filter((line) => line.kind !== 'context').length,
        0,
      ),
    0,
  );
  return {
    top: ranked[0]?.score ?? 0,
    stale: strongest.get('stale') ?? 0,
    sibling: strongest.get('sibling') ?? 0,
    family: strongest.get('family') ?? 0,
    touched: strongest.get('touched') ?? 0,
    added: strongest.get('added') ?? 0,
    'word-gone': strongest.get('word-gone') ?? 0,
    'file-name': strongest.get('file-name') ?? 0,
    search: strongest.get('search') ?? 0,
    declarations: code.some((file) => DECLARATION_FILE.test(diffFilePath(file))) ? 1 : 0,
    'new-public': Math.log1p(
      names.filter(
        (name) =>
          name.change === 'added' && ((publicName(name) && nameShape(name.name) !== 'word') || name.option),
      ).length,
    ),
    'gone-public': Math.log1p(
      names.filter((name) => (name.change === 'removed' || name.change === 'renamed') && publicName(name))
        .length,
    ),
    defaults: names.some((name) => name.change === 'default-changed') ? 1 : 0,
    declared: Math.log1p(names.filter((name) => name.change === 'type-changed').length),
    deprecations: code.some((file) =>
      file.hunks.some((hunk) =>
        hunk.lines.some((line) => line.kind === 'added' && DEPRECATION.test(line.text)),
      ),
    )
      ? 1
      : 0,
    environment: code.some((file) =>
      file.hunks.some((hunk) =>
        hunk.lines.some((line) => line.kind !== 'context' && ENVIRONMENT_READ.test(line.text)),
      ),
    )
      ? 1
      : 0,
    'code-files': Math.log1p(code.length),
    tests: tests.length > 0 ? 1 : 0,
    size: Math.log1p(changedLines) / 5,
  };
}

/** The judgement on a change: whether it needs docs, and how sure. */
export interface ChangeJudgement {
  needsDocs: boolean;
  /** The judge's chance that the change needs a docs change, 0-1. */
  chance: number;
}

export function judgeChange(model: JudgeModel, features: ChangeFeatures): ChangeJudgement {
  const chance = logisticChance(model, features);
  return { needsDocs: chance >= model.threshold, chance: Math.round(chance * 1000) / 1000 };
}

/**
 * The ranked pages with `affected` set: the pages past SURE_SCORE (already set), and, for a change
 * judged to need docs, its best page and the next ones whose score is near the best's. The
 * `unlisted` pages (release notes, generated pages) keep their rank but are never listed.
 */
export function listPages(
  ranked: readonly ImpactPage[],
  judgement: ChangeJudgement,
  model: Pick<JudgeModel, 'most' | 'ratio'>,
  unlisted: ReadonlySet<string> = new Set(),
): ImpactPage[] {
  const current = ranked.filter((page) => !unlisted.has(page.path));
  const top = current[0]?.score ?? 0;
  const chosen = new Set(
    judgement.needsDocs
      ? current.filter(
          (page, index) => index === 0 || (index < model.most && page.score >= model.ratio * top),
        )
      : [],
  );
  return ranked.map((page) => {
    const affected = !unlisted.has(page.path) && (page.affected || chosen.has(page));
    return affected === page.affected ? page : { ...page, affected };
  });
}
