/**
 * Retrieval quality on the mintlify corpus: `npx tsx bench/retrieval-quality.ts [--tune]`.
 *
 * Query sets:
 * - descriptions: each English page's frontmatter `description` is a query whose answer is that
 *   page. The index is built with `indexDescriptions: false`, since a description that is indexed
 *   finds itself. Odd-indexed queries (by file path) were used to tune the column weights
 *   (`--tune` repeats that search); even-indexed ones are held out.
 * - zh descriptions: the same for the Chinese pages, searched in Chinese (CJK bigrams).
 * - hand-written: reader questions in bench/queries/mintlify-questions.json, never tuned on.
 *
 * A query scores at the rank of the first returned section (top 10, one section per page, the
 * index's default) that belongs to an expected page: Hit@1, Hit@5, MRR@10.
 */
import { DEFAULT_WEIGHTS, DocsIndex } from '../src/docs/docs-index.js';
import type { ColumnWeights } from '../src/docs/search-statements.js';
import {
  descriptionQueries,
  handWrittenQueries,
  loadMintlifyCorpus,
  machineDescription,
  type QualityQuery,
} from './retrieval-corpus.js';

interface Scores {
  queries: number;
  hit1: number;
  hit5: number;
  mrr: number;
}

const RANKS_CONSIDERED = 10;

function evaluate(index: DocsIndex, queries: QualityQuery[], currentPath?: string): Scores {
  let hit1 = 0;
  let hit5 = 0;
  let reciprocalRanks = 0;
  for (const { query, expected } of queries) {
    const language = /[\u4e00-\u9fff]/.test(query) ? 'zh' : undefined;
    const hits = index.search(query, {
      limit: RANKS_CONSIDERED,
      currentPath,
      filter: language ? { language } : null,
    });
    const rank = hits.findIndex((hit) => expected.includes(hit.urlPath)) + 1;
    if (rank === 1) hit1 += 1;
    if (rank >= 1 && rank <= 5) hit5 += 1;
    if (rank >= 1) reciprocalRanks += 1 / rank;
  }
  const count = Math.max(1, queries.length);
  return { queries: queries.length, hit1: hit1 / count, hit5: hit5 / count, mrr: reciprocalRanks / count };
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const row = (name: string, scores: Scores) =>
  `| ${name} | ${scores.queries} | ${percent(scores.hit1)} | ${percent(scores.hit5)} | ${scores.mrr.toFixed(3)} |`;

/** Grid search of the column weights on the tuning half; prints the best few by MRR. */
function tune(
  files: Parameters<typeof DocsIndex.build>[0],
  navigation: unknown,
  queries: QualityQuery[],
): void {
  const results: { weights: ColumnWeights; scores: Scores }[] = [];
  for (const title of [2, 4, 8, 12])
    for (const headings of [1, 2, 4, 6])
      for (const summary of [0, 1, 2, 4]) {
        const weights = { title, headings, body: 1, summary, terms: 1 };
        const index = DocsIndex.build(files, { navigation, indexDescriptions: false, weights });
        results.push({ weights, scores: evaluate(index, queries) });
        index.close();
      }
  results.sort((left, right) => right.scores.mrr - left.scores.mrr);
  console.log('| weights (title/headings/body/summary) | Hit@1 | Hit@5 | MRR |\n|---|---|---|---|');
  for (const { weights, scores } of results.slice(0, 8)) {
    const name = `${weights.title}/${weights.headings}/${weights.body}/${weights.summary}`;
    console.log(`| ${name} | ${percent(scores.hit1)} | ${percent(scores.hit5)} | ${scores.mrr.toFixed(3)} |`);
  }
}

async function main(): Promise<void> {
  const corpus = await loadMintlifyCorpus();
  const descriptions = descriptionQueries(corpus);
  const tuning = descriptions.filter((_, position) => position % 2 === 1);
  const heldOut = descriptions.filter((_, position) => position % 2 === 0);
  if (process.argv.includes('--tune')) {
    tune(corpus.files, corpus.navigation?.resolved, tuning);
    return;
  }
  const index = DocsIndex.build(corpus.files, {
    navigation: corpus.navigation?.resolved,
    indexDescriptions: false,
  });
  const questions = handWrittenQueries();
  const weights = DEFAULT_WEIGHTS;
  console.log(
    `Retrieval quality, mintlify corpus (${index.stats.pages} pages, ${index.stats.sections} sections)`,
  );
  console.log(`Machine: ${machineDescription()}`);
  console.log(
    `Weights title/headings/body/summary: ${weights.title}/${weights.headings}/${weights.body}/${weights.summary}\n`,
  );
  console.log('| query set | queries | Hit@1 | Hit@5 | MRR@10 |\n|---|---|---|---|---|');
  console.log(row('descriptions, odd (tuned on)', evaluate(index, tuning)));
  console.log(row('descriptions, even (held out)', evaluate(index, heldOut)));
  console.log(row('descriptions, all', evaluate(index, descriptions)));
  console.log(
    row(
      'descriptions of the zh pages (Chinese, no spaces)',
      evaluate(index, descriptionQueries(corpus, 'zh')),
    ),
  );
  console.log(row('hand-written questions', evaluate(index, questions)));
  // The currentPath boost must not drown a good answer when the reader is on an unrelated page.
  console.log(row('hand-written, reader on /quickstart', evaluate(index, questions, '/quickstart')));
  index.close();
}

await main();
