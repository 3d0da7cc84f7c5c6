/**
 * Docs impact on real histories: `npx tsx bench/docs-impact.ts [--cli] [--verbose] [--case <id>]...`.
 *
 * Reads the docs-sync cases (`../shared/docs-sync` beside the repository; without them it says so
 * and exits 0): each is a real commit's code patch and its docs tree before the commit, with the
 * pages the commit changed (none for the negative cases). For each case it runs `analyzeImpact`
 * (ranked: every page with evidence; listed: the pages it calls affected) and a baseline, plain
 * BM25 of the changed lines' words over the pages with its top three listed. Both are scored by
 * the cases' own `score.mjs` (spawned on a temporary predictions file, so the definitions are
 * exactly the reference's): recall@5 and @10 over the positive cases, precision of the listed
 * pages, and the quiet rate (negatives with nothing listed); overall and by repository. Time is
 * that of `analyzeImpact` alone (the tarball is already in memory), mean and max per case. With
 * `--cli` it also runs the `docwright impact` command on every case, one process each, timed whole.
 * `--verbose` prints each case as the left-out judge saw it, and where the listed recall was lost
 * (the change judged to need no docs, the page ranked past `most`, below the ratio, past the tenth).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { isDocsPagePath } from '../src/docs/index.js';
import { decideImpact, rankImpact } from '../src/impact/analyze-impact.js';
import { CHANGE_FEATURES, type JudgeModel } from '../src/impact/change-judge.js';
import type { ImpactResult } from '../src/impact/index.js';
import { JUDGE_MODEL } from '../src/impact/judge-model.js';
import { fitJudge, judgeModelSource, leaveOneOut, type JudgedCase } from './judge-fit.js';
import { DOCS_SYNC_DIR, hasDocsSyncCases, loadDocsSyncCases, type DocsSyncCase } from './docs-sync-cases.js';

interface Prediction {
  ranked: string[];
  flagged: string[];
}

type Predictions = Record<string, Prediction>;

const BASELINE_LISTED = 3;

/** Test files, by path: their lines are left out of the baseline's query. */
const TEST_PATH = /(?:^|\/)(?:tests?|__tests__)\/|[.-](?:test|spec)\.\w+$/;

/** The changed lines (added and removed) of the patch's files that are not tests. */
function changedCodeLines(patch: string): string {
  const lines: string[] = [];
  let test = false;
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) test = TEST_PATH.test(line.split(' b/').pop() ?? '');
    else if (!test && /^[+-]/.test(line) && !/^(?:\+\+\+|---) /.test(line)) lines.push(line.slice(1));
  }
  return lines.join('\n');
}

/**
 * Plain BM25 (k1 1.2, b 0.75) over whole pages of the distinct lower-case words of the changed
 * lines of the files that are not tests.
 */
function baseline(testCase: DocsSyncCase): Prediction {
  const pages = testCase.files.filter((file) => isDocsPagePath(file.path));
  const words = (text: string) => text.toLowerCase().match(/[a-z0-9_]+/g) ?? [];
  const query = new Set(words(changedCodeLines(testCase.patch)));
  const documents = pages.map((page) => {
    const counts = new Map<string, number>();
    const list = words(page.text);
    for (const word of list) counts.set(word, (counts.get(word) ?? 0) + 1);
    return { path: page.path, counts, length: list.length };
  });
  const average =
    documents.reduce((sum, document) => sum + document.length, 0) / Math.max(1, documents.length);
  const frequency = new Map<string, number>();
  for (const document of documents)
    for (const word of document.counts.keys())
      if (query.has(word)) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const scored = documents.map((document) => {
    let score = 0;
    for (const word of query) {
      const count = document.counts.get(word) ?? 0;
      if (count === 0) continue;
      const df = frequency.get(word)!;
      const idf = Math.log(1 + (documents.length - df + 0.5) / (df + 0.5));
      score += (idf * count * 2.2) / (count + 1.2 * (0.25 + (0.75 * document.length) / average));
    }
    return { path: document.path, score };
  });
  const ranked = scored
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score)
    .map((entry) => entry.path);
  return { ranked, flagged: ranked.slice(0, BASELINE_LISTED) };
}

interface RepoScores {
  'recall@5': number;
  'recall@10': number;
  precision: number | null;
  flaggedRecall: number;
  flagged: number;
}

interface Scores {
  overall: RepoScores;
  byRepo: Record<string, RepoScores>;
  quietRate: number;
  negatives: { byRepo: Record<string, { quietRate: number }> };
}

/** Scores predictions with the cases' `score.mjs`. */
function score(predictions: Predictions): Scores {
  const folder = mkdtempSync(join(tmpdir(), 'docs-impact-'));
  try {
    const file = join(folder, 'predictions.json');
    writeFileSync(file, JSON.stringify(predictions));
    const run = spawnSync(process.execPath, [join(DOCS_SYNC_DIR, 'score.mjs'), file], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`score.mjs failed: ${run.stderr}`);
    return JSON.parse(run.stdout) as Scores;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function row(label: string, scores: Scores, repo: string | undefined, times?: number[]): string {
  const positive = repo ? scores.byRepo[repo]! : scores.overall;
  const quiet = repo ? scores.negatives.byRepo[repo]!.quietRate : scores.quietRate;
  const cells = [
    label.padEnd(LABEL_WIDTH),
    positive['recall@5'].toFixed(3).padStart(8),
    positive['recall@10'].toFixed(3).padStart(9),
    positive.flaggedRecall.toFixed(3).padStart(14),
    `${(positive.precision ?? 0).toFixed(3)} (${positive.flagged})`.padStart(17),
    quiet.toFixed(3).padStart(5),
  ];
  if (times) {
    const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
    cells.push(`${mean.toFixed(0)} ms`.padStart(7), `${Math.max(...times).toFixed(0)} ms`.padStart(7));
  }
  return cells.join('  ');
}

const LABEL_WIDTH = 40;
const HEADER = [
  ''.padEnd(LABEL_WIDTH),
  'recall@5',
  'recall@10',
  'listed: recall',
  'precision (listed)',
  'quiet',
  '   mean',
  '    max',
].join('  ');

function describe(testCase: DocsSyncCase, prediction: Prediction): string {
  const expected = new Set(testCase.expected);
  const mark = (path: string) => (expected.has(path) ? `*${path}` : path);
  return [
    `${testCase.id} (${testCase.kind}) expected: ${testCase.expected.join(', ') || '-'}`,
    `  ranked: ${prediction.ranked.slice(0, 10).map(mark).join(', ')}`,
    `  listed: ${prediction.flagged.map(mark).join(', ') || '-'}`,
  ].join('\n');
}

/**
 * Runs `docwright impact --docs <case> --patch - --json` as a CI step would, one process per case,
 * on the case's docs written to a temporary folder: what it lists, and how long the process takes.
 */
function runCli(cases: readonly DocsSyncCase[]): { scores: Scores; times: Map<string, number[]> } {
  const folder = mkdtempSync(join(tmpdir(), 'docs-impact-cli-'));
  const predictions: Predictions = {};
  // As an installed docwright runs: the compiled lib/cli.js (`npm run build`); else from the sources.
  const command = existsSync('lib/cli.js') ? ['lib/cli.js'] : ['--import', 'tsx', 'src/cli.ts'];
  console.log(`docwright impact runs as: node ${command.join(' ')}`);
  const times = new Map<string, number[]>([['', []]]);
  try {
    for (const testCase of cases) {
      const root = join(folder, testCase.id);
      for (const file of testCase.files) {
        mkdirSync(dirname(join(root, file.path)), { recursive: true });
        writeFileSync(join(root, file.path), file.text);
      }
      const started = performance.now();
      const run = spawnSync(
        process.execPath,
        [...command, 'impact', '--docs', root, '--patch', '-', '--json'],
        { input: testCase.patch, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 },
      );
      const elapsed = performance.now() - started;
      if (run.status !== 0) throw new Error(`docwright impact failed on ${testCase.id}: ${run.stderr}`);
      const listed = (JSON.parse(run.stdout) as { pages: { path: string }[] }).pages.map((page) => page.path);
      predictions[testCase.id] = { ranked: listed, flagged: listed };
      times.get('')!.push(elapsed);
      times.set(testCase.repo, [...(times.get(testCase.repo) ?? []), elapsed]);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return { scores: score(predictions), times };
}

async function main(): Promise<void> {
  if (!hasDocsSyncCases()) {
    console.log(`No docs-sync cases at ${DOCS_SYNC_DIR}: nothing to measure.`);
    return;
  }
  const args = process.argv.slice(2);
  const verbose = args.includes('--verbose');
  const only = args.flatMap((arg, index) => (args[index - 1] === '--case' ? [arg] : []));
  const cases = await loadDocsSyncCases(DOCS_SYNC_DIR, only.length > 0 ? only : undefined);
  const judged: (DocsSyncCase & JudgedCase)[] = [];
  const shipped: Predictions = {};
  const theirs: Predictions = {};
  const times: number[] = [];
  const timesByRepo = new Map<string, number[]>();
  for (const testCase of cases) {
    const started = performance.now();
    const ranked = rankImpact({ diff: testCase.patch, pages: testCase.files });
    const result = decideImpact(ranked, JUDGE_MODEL);
    const elapsed = performance.now() - started;
    times.push(elapsed);
    timesByRepo.set(testCase.repo, [...(timesByRepo.get(testCase.repo) ?? []), elapsed]);
    judged.push({ ...testCase, ranked });
    shipped[testCase.id] = prediction(result);
    theirs[testCase.id] = baseline(testCase);
  }
  // In sample: the judge fitted on every repository; out of sample: on all but the case's own.
  const inSample = fitJudge(judged);
  const outOfSample = leaveOneOut(judged);
  const fitted: Predictions = {};
  const heldOut: Predictions = {};
  for (const testCase of judged) {
    fitted[testCase.id] = prediction(decideImpact(testCase.ranked, inSample));
    heldOut[testCase.id] = prediction(decideImpact(testCase.ranked, outOfSample.get(testCase.repo)!));
    if (verbose) {
      const judgement = decideImpact(testCase.ranked, outOfSample.get(testCase.repo)!).judgement;
      console.log(`${describe(testCase, heldOut[testCase.id]!)}\n  judged: ${judgement.chance}`);
    }
  }
  if (verbose) console.log(lossBreakdown(judged, outOfSample));
  const repos = [...timesByRepo.keys()];
  if (args.includes('--write')) {
    const summary = `${cases.length} docs-sync cases from ${repos.length} repositories (${repos.join(', ')})`;
    // Formatted as the repository formats its sources, so the written file passes the lint as it is.
    const file = fileURLToPath(new URL('../src/impact/judge-model.ts', import.meta.url));
    const options = { ...(await prettier.resolveConfig(file)), filepath: file };
    writeFileSync(file, await prettier.format(judgeModelSource(inSample, summary), options));
    console.log('wrote src/impact/judge-model.ts');
  }
  const scored = {
    shipped: score(shipped),
    fitted: score(fitted),
    heldOut: score(heldOut),
    baseline: score(theirs),
  };
  const cli = args.includes('--cli') ? runCli(cases) : undefined;
  console.log(HEADER);
  for (const repo of [undefined, ...repos]) {
    const label = repo ?? 'all';
    console.log(row(`impact ${label}`, scored.shipped, repo, repo ? timesByRepo.get(repo) : times));
    console.log(row(`  judge in sample ${label}`, scored.fitted, repo));
    console.log(row(`  judge left out ${label}`, scored.heldOut, repo));
    if (cli) console.log(row(`docwright impact ${label}`, cli.scores, repo, cli.times.get(repo ?? '')));
    console.log(row(`baseline ${label}`, scored.baseline, repo));
  }
  console.log(
    '\nrecall@k over positive cases; listed: the recall and precision of the pages listed as affected',
    '\n(how many listed); quiet: share of negative cases with nothing listed; time: rankImpact and',
    '\ndecideImpact per case, the first with module loading. impact: the shipped judge',
    '\n(src/impact/judge-model.ts); judge in sample: fitted now on every repository; left out: each',
    "\nrepository's cases judged by the judge fitted on the other repositories.",
    cli
      ? '\ndocwright impact: the command itself, one process per case (`--patch - --json`, the docs unpacked on disk);\nit prints only the pages it lists, so its ranking is that list; time: the whole process, start to exit.'
      : '',
  );
  if (args.includes('--ablation')) ablation(judged, scored.fitted, scored.heldOut);
  console.log('\nshipped judge:', JSON.stringify(JUDGE_MODEL));
  console.log(
    'left-out judges:',
    JSON.stringify(
      Object.fromEntries(
        [...outOfSample].map(([repo, model]) => [
          repo,
          { threshold: model.threshold, most: model.most, ratio: model.ratio, wide: model.wide },
        ]),
      ),
    ),
  );
}

/** Where an expected page that was not listed was lost, for the left-out judges. */
type Loss = 'listed' | 'judged no docs' | 'cut by ratio' | 'past most' | 'past 10th' | 'not ranked';

/**
 * The listed-pages recall lost, by where: the change judged to need no docs (and the page in the
 * ranking's first `most` or not), the page within `most` but below the ratio of the first's score,
 * the page ranked past `most`, past the tenth, or not at all. Each expected page counts 1 / the
 * case's expected pages, as recall does, so the shares add up to 1 over the positive cases.
 */
function lossBreakdown(judged: readonly JudgedCase[], models: ReadonlyMap<string, JudgeModel>): string {
  const lost = new Map<string, number>();
  const add = (key: string, share: number) => lost.set(key, (lost.get(key) ?? 0) + share);
  const positives = judged.filter((testCase) => testCase.expected.length > 0);
  for (const testCase of positives) {
    const model = models.get(testCase.repo)!;
    const result = decideImpact(testCase.ranked, model);
    const most = model.wide > 0 && testCase.ranked.codeFiles >= model.wide ? model.most + 1 : model.most;
    const neutral = new Set(testCase.neutral);
    const current = result.pages.filter(
      (page) => !testCase.ranked.unlisted.has(page.path) && !neutral.has(page.path),
    );
    for (const path of testCase.expected) {
      const index = current.findIndex((page) => page.path === path);
      const page = current[index];
      let loss: Loss;
      if (page?.affected) loss = 'listed';
      else if (index < 0) loss = 'not ranked';
      else if (!result.judgement.needsDocs) loss = 'judged no docs';
      else if (index >= 10) loss = 'past 10th';
      else if (index >= most) loss = 'past most';
      else loss = 'cut by ratio';
      const where =
        loss === 'judged no docs'
          ? `${loss} (ranked ${index < most ? 'within most' : index < 10 ? 'within 10' : 'past 10'})`
          : loss;
      add(where, 1 / testCase.expected.length / positives.length);
    }
  }
  return [
    '\nleft-out judges, the listed-pages recall by where each expected page went:',
    ...[...lost]
      .sort((a, b) => b[1] - a[1])
      .map(([where, share]) => `  ${where.padEnd(36)} ${share.toFixed(3)}`),
  ].join('\n');
}

function prediction(result: ImpactResult): Prediction {
  return {
    ranked: result.pages.map((page) => page.path),
    flagged: result.pages.filter((page) => page.affected).map((page) => page.path),
  };
}

/**
 * Each feature of the judge left out in turn, fitted in sample and left out: a feature whose
 * removal costs in sample but not out of it fits the tuning set rather than changes in general.
 */
function ablation(judged: readonly JudgedCase[], fitted: Scores, heldOut: Scores): void {
  console.log('\nwithout a feature (listed recall / precision / quiet; in sample, then left out):');
  const cell = (scores: Scores) =>
    `${scores.overall.flaggedRecall.toFixed(3)} / ${(scores.overall.precision ?? 0).toFixed(3)} / ${scores.quietRate.toFixed(3)}`;
  console.log(`${'all features'.padEnd(16)}  ${cell(fitted)}    ${cell(heldOut)}`);
  for (const feature of CHANGE_FEATURES) {
    const features = CHANGE_FEATURES.filter((name) => name !== feature);
    const inSample = fitJudge(judged, features);
    const outOfSample = leaveOneOut(judged, features);
    const a: Predictions = {};
    const b: Predictions = {};
    for (const testCase of judged) {
      a[testCase.id] = prediction(decideImpact(testCase.ranked, inSample));
      b[testCase.id] = prediction(decideImpact(testCase.ranked, outOfSample.get(testCase.repo)!));
    }
    console.log(`${feature.padEnd(16)}  ${cell(score(a))}    ${cell(score(b))}`);
  }
}

await main();
