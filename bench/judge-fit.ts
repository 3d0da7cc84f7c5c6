/**
 * Fitting the change judge (`src/impact/change-judge.ts`) on docs-sync cases: the logistic weights
 * from each case's features and whether it changed any docs page, then the listing's threshold,
 * most pages, ratio and width by a grid, each scored by the listed pages' recall under floors of precision
 * and quiet. `docs-impact.ts` fits it on all repositories (in sample, and written to
 * `src/impact/judge-model.ts` with `--write`) and on all but one, for each (leave one out).
 */
import { CHANGE_FEATURES, type JudgeModel } from '../src/impact/change-judge.js';
import { decideImpact, type RankedImpact } from '../src/impact/analyze-impact.js';
import { fitLogistic } from '../src/impact/logistic.js';

export interface JudgedCase {
  id: string;
  repo: string;
  expected: readonly string[];
  neutral: readonly string[];
  ranked: RankedImpact;
}

/** Floors the grid keeps to, a little above the goals (0.60 precision, 0.90 quiet) for margin. */
const PRECISION_FLOOR = 0.65;
const QUIET_FLOOR = 0.92;

const THRESHOLDS = [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8];
const MOST = [1, 2, 3, 4];
const RATIOS = [0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
const WIDE = [0, 3, 4, 5, 6];

export interface ListingScores {
  recall: number;
  precision: number;
  listed: number;
  quiet: number;
}

/** The listed pages' recall and precision over positive cases, and the quiet share of negatives. */
export function listingScores(cases: readonly JudgedCase[], model: JudgeModel): ListingScores {
  let recall = 0;
  let positives = 0;
  let right = 0;
  let listed = 0;
  let quiet = 0;
  let negatives = 0;
  for (const testCase of cases) {
    const neutral = new Set(testCase.neutral);
    const pages = decideImpact(testCase.ranked, model)
      .pages.filter((page) => page.affected && !neutral.has(page.path))
      .map((page) => page.path);
    if (testCase.expected.length === 0) {
      negatives += 1;
      if (pages.length === 0) quiet += 1;
      continue;
    }
    const expected = new Set(testCase.expected);
    const hits = pages.filter((page) => expected.has(page)).length;
    positives += 1;
    recall += hits / expected.size;
    right += hits;
    listed += pages.length;
  }
  return {
    recall: recall / Math.max(1, positives),
    precision: listed === 0 ? 0 : right / listed,
    listed,
    quiet: quiet / Math.max(1, negatives),
  };
}

/**
 * Listings whose objective is within this of the best are as good: recall on about sixty cases
 * moves by more than this when one page of one case changes sides. Among them the most precise is
 * taken, so that the ratio and threshold do not chase a page of recall with several false ones (a
 * choice that did not hold on the repository left out).
 */
const TOLERANCE = 0.01;

function objective(scores: ListingScores): number {
  return (
    scores.recall -
    2 * Math.max(0, PRECISION_FLOOR - scores.precision) -
    2 * Math.max(0, QUIET_FLOOR - scores.quiet)
  );
}

/** Fits the judge on cases, with only the named features (all by default). */
export function fitJudge(
  cases: readonly JudgedCase[],
  features: readonly string[] = CHANGE_FEATURES,
): JudgeModel {
  const judged = cases.filter((testCase) => testCase.ranked.features);
  const weights = fitLogistic(
    judged.map((testCase) => ({
      features: testCase.ranked.features!,
      label: testCase.expected.length > 0,
    })),
    features,
  );
  const tried: { model: JudgeModel; value: number; precision: number }[] = [];
  for (const threshold of THRESHOLDS)
    for (const most of MOST)
      for (const ratio of RATIOS)
        for (const wide of WIDE) {
          if (most === 1 && ratio > 0) continue;
          const model = { ...weights, threshold, most, ratio, wide };
          const scores = listingScores(cases, model);
          tried.push({ model, value: objective(scores), precision: scores.precision });
        }
  const top = Math.max(...tried.map((entry) => entry.value));
  let best = tried[0]!;
  for (const entry of tried)
    if (
      entry.value >= top - TOLERANCE - 1e-9 &&
      (best.value < top - TOLERANCE - 1e-9 || entry.precision > best.precision)
    )
      best = entry;
  return best.model;
}

/** Each repository's cases judged by the judge fitted on the other repositories. */
export function leaveOneOut(
  cases: readonly JudgedCase[],
  features: readonly string[] = CHANGE_FEATURES,
): Map<string, JudgeModel> {
  const models = new Map<string, JudgeModel>();
  for (const repo of new Set(cases.map((testCase) => testCase.repo)))
    models.set(
      repo,
      fitJudge(
        cases.filter((testCase) => testCase.repo !== repo),
        features,
      ),
    );
  return models;
}

/** The source of `src/impact/judge-model.ts` for a fitted model. */
export function judgeModelSource(model: JudgeModel, summary: string): string {
  const round = (value: number) => Math.round(value * 1000) / 1000;
  const weights = Object.entries(model.weights)
    .map(([name, weight]) => `    '${name}': ${round(weight)},`)
    .join('\n');
  return `import type { JudgeModel } from './change-judge.js';

/**
 * The change judge's weights and listing, fitted by \`npx tsx bench/docs-impact.ts --write\` on
 * ${summary}. Written by that command; refit rather than edit.
 */
export const JUDGE_MODEL: JudgeModel = {
  bias: ${round(model.bias)},
  weights: {
${weights}
  },
  threshold: ${model.threshold},
  most: ${model.most},
  ratio: ${model.ratio},
  wide: ${model.wide},
};
`;
}
