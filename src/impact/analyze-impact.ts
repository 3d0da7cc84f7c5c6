import { isDocsPagePath } from '../docs/index.js';
import { diffFilePath, type DiffFile, type ParsedDiff } from './diff-types.js';
import { diffNames, type DiffName } from './diff-names.js';
import { nameWords } from './name-shapes.js';
import { fileStem } from './search-evidence.js';
import { familyEvidence } from './family-evidence.js';
import { fileNameEvidence } from './file-name-evidence.js';
import { fileRole } from './file-roles.js';
import {
  changeFeatures,
  judgeChange,
  listPages,
  type ChangeFeatures,
  type JudgeModel,
} from './change-judge.js';
import type { ImpactPage, ImpactResult } from './impact-types.js';
import { JUDGE_MODEL } from './judge-model.js';
import { literalEvidence } from './literal-evidence.js';
import { nameEvidence } from './name-evidence.js';
import { newPublicNames } from './new-names.js';
import { isGeneratedPage, isHistoricalPage, pageCopies } from './page-kinds.js';
import { scorePages } from './page-scores.js';
import { PageVocabulary, type PageInput } from './page-vocabulary.js';
import { parseUnifiedDiff } from './parse-unified-diff.js';
import { searchEvidence } from './search-evidence.js';
import { siblingEvidence } from './sibling-evidence.js';

export interface ImpactInput {
  /** Unified diff text (`git diff`, `diff -u`), or an already parsed diff. */
  diff: string | ParsedDiff;
  /**
   * The docs pages, paths relative to the docs root. Files that are not pages (`isDocsPagePath`:
   * not `.md`/`.mdx`, READMEs, snippets, dot- and underscore-folders) are ignored, and so are
   * translations and old-version copies of another page (see `pageCopies`).
   */
  pages: readonly PageInput[];
  /** Pages returned at most, most affected first; default all with any evidence. */
  limit?: number;
}

/**
 * Ranks the docs pages a code change makes stale, each with its evidence, and lists those that
 * need an update: the change is judged first (does it need any docs change?), and a change judged
 * to need docs lists its best pages. Pure: no file system, no network (the docs search runs in an
 * in-memory SQLite database that is closed on return). Only code files count; tests, lockfiles,
 * generated, vendored, binary, CI and docs files in the diff never make a page stale on their own.
 */
export function analyzeImpact(input: ImpactInput, model: JudgeModel = JUDGE_MODEL): ImpactResult {
  return decideImpact(rankImpact(input), model, input.limit);
}

/** The ranking and the judge's features, before any page is listed beyond the sure ones. */
export interface RankedImpact {
  pages: ImpactPage[];
  features: ChangeFeatures | null;
  /**
   * Pages ranked but never listed: those that record the past (a change goes into the next
   * release notes, which do not exist yet) and those a program writes.
   */
  unlisted: ReadonlySet<string>;
  /** Code files the change touched. */
  codeFiles: number;
}

/**
 * The first half of the analysis: every page with evidence, best first, and what the judge reads.
 * Apart so the benchmark can judge one ranking with weights fitted on other repositories.
 */
export function rankImpact(input: Omit<ImpactInput, 'limit'>): RankedImpact {
  const diff = typeof input.diff === 'string' ? parseUnifiedDiff(input.diff) : input.diff;
  const candidates = input.pages.filter((page) => isDocsPagePath(page.path));
  const copies = pageCopies(candidates.map((page) => page.path));
  const pages = candidates.filter((page) => !copies.has(page.path));
  const code = diff.files.filter(isCode);
  if (code.length === 0 || pages.length === 0)
    return { pages: [], features: null, unlisted: new Set(), codeFiles: code.length };
  const tests = diff.files.filter((file) => fileRole(file) === 'test');
  const names = diffNames(code, tests);
  const vocabulary = new PageVocabulary(pages, lookedUpKeys(names, code));
  const fresh = newPublicNames(names, vocabulary);
  const ranked = scorePages(
    [
      nameEvidence(names, vocabulary),
      siblingEvidence(fresh, vocabulary),
      familyEvidence(fresh, vocabulary),
      fileNameEvidence(code, pages, tests),
      searchEvidence(code, names, vocabulary),
      literalEvidence(code, pages),
    ],
    pages,
  );
  const unlisted = new Set(
    pages
      .filter((page) => isHistoricalPage(page.path) || isGeneratedPage(page.text))
      .map((page) => page.path),
  );
  return {
    pages: ranked,
    features: changeFeatures(names, code, tests, ranked),
    unlisted,
    codeFiles: code.length,
  };
}

/** The second half: the judgement, the listed pages, and the limit. */
export function decideImpact(ranked: RankedImpact, model: JudgeModel, limit?: number): ImpactResult {
  if (!ranked.features) return { pages: [], judgement: { needsDocs: false, chance: 0 } };
  const judgement = judgeChange(model, ranked.features);
  const most = model.wide > 0 && ranked.codeFiles >= model.wide ? model.most + 1 : model.most;
  const pages = listPages(ranked.pages, judgement, { most, ratio: model.ratio }, ranked.unlisted);
  const count = limit === undefined ? pages.length : Math.max(0, Math.floor(limit));
  return { pages: pages.slice(0, count), judgement };
}

/**
 * Whether a diff changes code: only then can it make a page stale, so a diff of docs, tests or CI
 * files alone needs no docs read to be analysed.
 */
export function changesCode(diff: ParsedDiff): boolean {
  return diff.files.some(isCode);
}

function isCode(file: DiffFile): boolean {
  return fileRole(file) === 'code';
}

/**
 * Every key the evidence looks up in the pages: the changed names, their neighbours, and the
 * words of both and of the changed files' names (which the search weighs by rarity).
 */
function lookedUpKeys(names: readonly DiffName[], codeFiles: readonly DiffFile[]): Set<string> {
  const keys = new Set<string>();
  const addWords = (name: string) => nameWords(name).forEach((word) => keys.add(word));
  for (const name of names) {
    keys.add(name.key);
    addWords(name.name);
    for (const [key, neighbour] of name.neighbours) {
      keys.add(key);
      addWords(neighbour.name);
    }
  }
  for (const file of codeFiles) addWords(fileStem(diffFilePath(file)));
  return keys;
}
