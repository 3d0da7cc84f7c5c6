/**
 * Reader questions on two real docs sites:
 * `npx tsx bench/answer-quality.ts [--tune|--fresh|--fresh2|...|--fresh10] [--verbose]`; on three,
 * pooled: `npx tsx bench/answer-quality.ts --pooled [--verbose]`; the bar for a first answer swept
 * on the three sites' sets tuned on: `npx tsx bench/answer-quality.ts --bars`.
 *
 * `--pooled` asks, on each of the two corpora and on docwright's own docs/ (14 pages), every set
 * tuned on and, apart, every set never tuned on (see `pooledSets`), and prints for each Hit@1,
 * Hit@5 and MRR@10 of search alone and of the pages the answer cites, the share of reader
 * questions the answer declines (on-topic declined; of them, how many search alone ranks a page
 * that answers first, the worst declines) and the share of off-topic questions it declines.
 * `--verbose` prints the misses of the sets tuned on only.
 *
 * For each site, the reader questions of bench/queries are asked twice: to search alone (the
 * ranked pages of `DocsIndex.search`, one section per page) and to the offline assistant (the
 * pages the extractive answer cites, in order). Both are scored Hit@1, Hit@5 and MRR@10 against
 * the pages that answer the question; an answer that abstains scores a miss. The off-topic
 * questions must be declined (no citation) on both sites (the halves also ask their half of the
 * long off-topic questions, 8-25 words, of bench/queries/off-topic-questions-long.json); the
 * follow-up conversations must cite an expected page and hold text that the first answer did not
 * show (the second question is asked as the assistant asks it in a thread: with the pages the
 * first answer cited). Held-out halves are the figures to report; `--tune` prints the tuning
 * halves instead, `--fresh` the first fresh sets (bench/queries/*-fresh.json), `--fresh2`,
 * `--fresh3` and `--fresh4` the second to fourth (all four tuned on since their baselines were
 * taken), `--fresh6` and `--fresh7` the sixth and seventh (tuned on since their baselines), and
 * `--fresh5`, `--fresh8`, `--fresh9` and `--fresh10` the fifth, eighth, ninth and tenth fresh sets
 * (bench/queries/*-fresh5.json to *-fresh10.json, never tuned on; `--verbose` is ignored there so
 * that nobody tunes on them by reading their misses).
 *
 * With `DOCWRIGHT_EMBEDDING_MODEL` set (`openai:<model>` with `OPENAI_API_KEY` or `OPENAI_BASE_URL`,
 * or `local:<model folder or hub id>` run in the process, as `serve` reads them), both sites are
 * embedded with that model first (the time it took on stderr) and every question is searched and
 * answered the way `serve` does then: hybrid search, the question's vector fused with the
 * full-text ranking. Unset, the figures are full-text only.
 */
import path from 'node:path';
import { ExtractiveAnswerer } from '../src/assistant/answer/extractive.js';
import { SectionEmbedder } from '../src/assistant/embeddings.js';
import { retrieveHybrid } from '../src/assistant/retrieve.js';
import { loadConfig } from '../src/config/config.js';
import type { DocsIndex } from '../src/docs/docs-index.js';
import { embeddingModel } from '../src/models/models.js';
import type { ConversationTurn } from '../src/protocol/assistant.js';
import {
  ALL_SITES,
  SITES,
  followUps,
  half,
  isUntuned,
  loadSiteIndex,
  longOffTopicQuestions,
  offTopicQuestions,
  pooledSets,
  rankScores,
  readerQuestions,
  type Half,
  type RankScores,
} from './reader-questions.js';
import { machineDescription } from './retrieval-corpus.js';

const PAGE_SIZE = 5;
const answerer = new ExtractiveAnswerer();
const config = loadConfig();
const embedder =
  config.embeddingModel === undefined
    ? undefined
    : new SectionEmbedder(
        await embeddingModel(config.embeddingModel, config.providers, {
          local: { cacheDir: path.join(config.dataDir, 'models') },
        }),
        config.embeddingModel,
      );

/**
 * Vectors of the texts searched on each site. Search alone and the first answer search the same
 * text, and a follow-up's first question is asked again: each text goes to the model once.
 */
const vectors = new WeakMap<DocsIndex, Map<string, Promise<number[]>>>();

/** The question's vector when the index has vectors, as `serve` embeds it. */
function vectorOf(index: DocsIndex, text: string): Promise<number[] | undefined> {
  if (!embedder || !index.hasVectors) return Promise.resolve(undefined);
  let known = vectors.get(index);
  if (!known) vectors.set(index, (known = new Map()));
  let vector = known.get(text);
  if (!vector) known.set(text, (vector = embedder.embedQuery(text)));
  return vector;
}

async function ask(
  index: DocsIndex,
  conversation: ConversationTurn[],
  citedPaths?: string[],
  by: ExtractiveAnswerer = answerer,
) {
  const input = { conversation, retrievalPageSize: PAGE_SIZE, citedPaths };
  const retrieval = await retrieveHybrid(index, input, (text) => vectorOf(index, text));
  const answer = by.answer({ conversation, ...retrieval, signal: new AbortController().signal });
  let text = '';
  for await (const delta of answer.text) text += delta;
  return { passages: retrieval.passages, sources: answer.sources, text };
}

const pathOf = (url: string) => url.replace(/#.*$/, '');
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const row = (name: string, scores: RankScores) =>
  `| ${name} | ${scores.queries} | ${percent(scores.hit1)} | ${percent(scores.hit5)} | ${scores.mrr.toFixed(3)} |`;

/** Search alone and the answer over one pooled set of a site; misses printed when `verbose`. */
async function measurePooled(
  index: DocsIndex,
  site: string,
  which: 'tuning' | 'untuned',
  verbose: boolean,
  by: ExtractiveAnswerer = answerer,
) {
  const { reader, offTopic } = pooledSets(site as Parameters<typeof pooledSets>[0], which);
  warnUnknownPages(
    index,
    site,
    reader.flatMap((question) => question.expected),
  );
  const searched: string[][] = [];
  const cited: string[][] = [];
  let declined = 0;
  let declinedFirstRight = 0;
  for (const question of reader) {
    const hits = index.search(question.query, {
      limit: 10,
      maxPerPage: 1,
      queryVector: await vectorOf(index, question.query),
    });
    searched.push(hits.map((hit) => hit.urlPath));
    const answer = await ask(index, [{ role: 'user', text: question.query }], undefined, by);
    const pages = answer.sources.map((source) => pathOf(source.url));
    cited.push(pages);
    if (pages.length === 0) declined += 1;
    // The worst decline: the page search ranks first answers the question.
    if (pages.length === 0 && question.expected.includes(hits[0]?.urlPath ?? '')) declinedFirstRight += 1;
    if (verbose && !question.expected.includes(pages[0] ?? ''))
      console.log(
        `  ${site} ${pages.length === 0 ? 'declined' : 'miss'}: ${question.query} -> ${
          pages.slice(0, 3).join(', ') ||
          `(search: ${hits
            .slice(0, 3)
            .map((hit) => hit.urlPath)
            .join(', ')})`
        } [expected ${question.expected.join(', ')}]`,
      );
  }
  let offDeclined = 0;
  for (const question of offTopic) {
    const answer = await ask(index, [{ role: 'user', text: question }], undefined, by);
    if (answer.sources.length === 0) offDeclined += 1;
    else if (verbose) console.log(`  ${site} answered off-topic: ${question} -> ${answer.sources[0]!.url}`);
  }
  return {
    search: rankScores(reader, searched),
    cited: rankScores(reader, cited),
    onTopicDeclined: [declined, reader.length] as const,
    declinedFirstRight,
    offTopicDeclined: [offDeclined, offTopic.length] as const,
  };
}

/** The pooled figures of the three sites (see the file's comment). */
async function pooled(): Promise<void> {
  const verbose = process.argv.includes('--verbose');
  const search = embedder ? `, hybrid search with ${config.embeddingModel}` : '';
  console.log(`Reader questions on three sites, pooled${search}. Machine: ${machineDescription()}\n`);
  const scores = (value: RankScores) =>
    `${percent(value.hit1)} / ${percent(value.hit5)} / ${value.mrr.toFixed(3)}`;
  const share = ([count, total]: readonly [number, number]) =>
    `${count} of ${total} (${percent(count / Math.max(1, total))})`;
  const lines = [
    '| site | sets | reader questions | search alone: Hit@1 / Hit@5 / MRR@10 | pages the answer cites: Hit@1 / Hit@5 / MRR@10 | on-topic declined | off-topic declined |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const site of ALL_SITES) {
    const index = await loadSiteIndex(site);
    if (!index) continue;
    if (embedder) await embedder.embedIndex(index, site);
    for (const which of ['tuning', 'untuned'] as const) {
      const result = await measurePooled(index, site, which, verbose && which === 'tuning');
      lines.push(
        `| ${site} | ${which === 'tuning' ? 'tuned on' : 'never tuned on'} | ${result.search.queries} | ${scores(result.search)} | ${scores(result.cited)} | ${share(result.onTopicDeclined)}, ${result.declinedFirstRight} with search's first page right | ${share(result.offTopicDeclined)} |`,
      );
    }
    index.close();
  }
  console.log(lines.join('\n'));
}

/** Bars for a first answer that `--bars` compares (see `bars`). */
const SWEPT_BARS = [0.32, 0.34, 0.36, 0.38, 0.4];
/** How many off-topic questions answered one wrongly declined reader question costs as much as. */
const DECLINE_COST = 2;

/**
 * The bar for a first answer swept over the sets tuned on of the three sites: per bar and site,
 * reader questions declined and off-topic questions answered, and the cost of both, a wrongly
 * declined reader question weighing `DECLINE_COST` off-topic questions answered (shares of each
 * site's sets, summed over the sites, so a small site counts as much as a large one). Sets never
 * tuned on are not asked: the bar is chosen here and measured there once, by `--pooled`.
 */
async function bars(): Promise<void> {
  console.log(`The bar for a first answer, sets tuned on. Machine: ${machineDescription()}\n`);
  const lines = [
    `| bar | ${ALL_SITES.map((site) => `${site}: declined / off-topic answered`).join(' | ')} | cost |`,
    `|---|${ALL_SITES.map(() => '---|').join('')}---|`,
  ];
  const indexes = await Promise.all(ALL_SITES.map((site) => loadSiteIndex(site)));
  for (const bar of SWEPT_BARS) {
    const by = new ExtractiveAnswerer(bar);
    const cells: string[] = [];
    let cost = 0;
    for (const [position, site] of ALL_SITES.entries()) {
      const index = indexes[position];
      if (!index) {
        cells.push('(site missing)');
        continue;
      }
      const result = await measurePooled(index, site, 'tuning', false, by);
      const [declined, asked] = result.onTopicDeclined;
      const [offDeclined, offAsked] = result.offTopicDeclined;
      const answered = offAsked - offDeclined;
      cost += (DECLINE_COST * declined) / asked + answered / offAsked;
      cells.push(`${declined} of ${asked} / ${answered} of ${offAsked}`);
    }
    lines.push(`| ${bar} | ${cells.join(' | ')} | ${cost.toFixed(3)} |`);
  }
  for (const index of indexes) index?.close();
  console.log(lines.join('\n'));
  console.log(
    `\nCost: per site, ${DECLINE_COST} x the share of reader questions declined plus the share of off-topic questions answered, summed over the sites.`,
  );
}

async function main(): Promise<void> {
  if (process.argv.includes('--bars')) return bars();
  if (process.argv.includes('--pooled')) return pooled();
  const flags: Half[] = [
    'tune',
    'fresh',
    'fresh2',
    'fresh3',
    'fresh4',
    'fresh5',
    'fresh6',
    'fresh7',
    'fresh8',
    'fresh9',
    'fresh10',
  ];
  const which: Half = flags.find((flag) => process.argv.includes(`--${flag}`)) ?? 'held-out';
  // The newest fresh sets are measured, never studied: per-question lines would make them tuning data.
  const verbose = process.argv.includes('--verbose') && !isUntuned(which);
  const titles: Record<Half, string> = {
    fresh10: 'tenth fresh sets (never tuned on)',
    fresh9: 'ninth fresh sets (never tuned on)',
    fresh8: 'eighth fresh sets (never tuned on)',
    fresh7: 'seventh fresh sets (tuning data since their baseline)',
    fresh6: 'sixth fresh sets (tuning data since their baseline)',
    fresh5: 'fifth fresh sets (never tuned on)',
    fresh4: 'fourth fresh sets (tuning data since their baseline)',
    fresh3: 'third fresh sets (tuning data since their baseline)',
    fresh2: 'second fresh sets (tuning data since their baseline)',
    fresh: 'first fresh sets (tuning data since their baseline)',
    tune: 'tune half',
    'held-out': 'held-out half',
  };
  const title = titles[which];
  const search = embedder ? `, hybrid search with ${config.embeddingModel}` : '';
  console.log(`Reader questions, ${title}${search}. Machine: ${machineDescription()}\n`);
  const lines = ['| site, measured on | questions | Hit@1 | Hit@5 | MRR@10 |', '|---|---|---|---|---|'];
  const declined: string[] = [];
  const followUpLines: string[] = [];
  for (const site of SITES) {
    const index = await loadSiteIndex(site);
    if (!index) continue;
    if (embedder) {
      const started = performance.now();
      const embedded = await embedder.embedIndex(index, site);
      if (embedded.modelError) throw new Error(`Embedding ${site} failed: ${embedded.modelError.message}`);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.error(
        `  ${site}: ${embedded.sections} sections, ${embedded.embedded} texts embedded in ${seconds} s`,
      );
    }
    const questions = half(readerQuestions(site, which), which);
    warnUnknownPages(index, site, [
      ...questions.flatMap((question) => question.expected),
      ...half(followUps(which), which).flatMap((item) => (item.site === site ? item.expected : [])),
    ]);
    const searched: string[][] = [];
    const cited: string[][] = [];
    for (const question of questions) {
      const queryVector = await vectorOf(index, question.query);
      const hits = index.search(question.query, { limit: 10, maxPerPage: 1, queryVector });
      searched.push(hits.map((hit) => hit.urlPath));
      if (verbose && !question.expected.includes(hits[0]?.urlPath ?? ''))
        console.log(
          `  ${site} search miss: ${question.query} -> ${hits
            .slice(0, 3)
            .map((hit) => hit.urlPath)
            .join(', ')}`,
        );
      const answer = await ask(index, [{ role: 'user', text: question.query }]);
      cited.push(answer.sources.map((source) => pathOf(source.url)));
      if (verbose && !question.expected.includes(cited.at(-1)![0] ?? ''))
        console.log(
          `  ${site} miss: ${question.query} -> ${cited.at(-1)!.slice(0, 3).join(', ') || 'abstained'}`,
        );
    }
    lines.push(row(`${site}, search alone`, rankScores(questions, searched)));
    lines.push(row(`${site}, pages the answer cites`, rankScores(questions, cited)));
    const offTopicSets: [string, string[]][] = [[site, half(offTopicQuestions(which), which)]];
    if (which === 'tune' || which === 'held-out')
      offTopicSets.push([`${site}, long questions`, longOffTopicQuestions(which)]);
    for (const [name, offTopic] of offTopicSets) {
      let abstained = 0;
      for (const question of offTopic) {
        const answer = await ask(index, [{ role: 'user', text: question }]);
        if (answer.sources.length === 0) abstained += 1;
        else if (verbose)
          console.log(`  ${site} answered off-topic: ${question} -> ${answer.sources[0]!.url}`);
      }
      declined.push(
        `| ${name} | ${offTopic.length} | ${percent(abstained / Math.max(1, offTopic.length))} |`,
      );
    }
    for (const conversation of half(followUps(which), which).filter((item) => item.site === site)) {
      const first = await ask(index, [{ role: 'user', text: conversation.turns[0]! }]);
      const second = await ask(
        index,
        [
          { role: 'user', text: conversation.turns[0]! },
          { role: 'assistant', text: first.text },
          { role: 'user', text: conversation.turns[1]! },
        ],
        first.sources.map((source) => pathOf(source.url)),
      );
      const citesExpected = second.sources.some((source) =>
        conversation.expected.includes(pathOf(source.url)),
      );
      const adds = second.text.toLowerCase().includes(conversation.answerContains.toLowerCase());
      const named = isUntuned(which) ? '(not shown)' : conversation.turns.join(' → ');
      followUpLines.push(`| ${site} | ${named} | ${citesExpected ? 'yes' : 'no'} | ${adds ? 'yes' : 'no'} |`);
      if (verbose) console.log(`  follow-up answer: ${second.text.slice(0, 300).replace(/\n/g, ' ')}`);
    }
    index.close();
  }
  console.log(lines.join('\n'));
  console.log('\nOff-topic questions declined (no page cited):\n');
  console.log(['| site | questions | declined |', '|---|---|---|', ...declined].join('\n'));
  console.log(
    '\nFollow-ups: does the second answer cite an expected page, and hold the text that answers it?\n',
  );
  console.log(
    [
      '| site | conversation | cites the page | adds the answer |',
      '|---|---|---|---|',
      ...followUpLines,
    ].join('\n'),
  );
}

/**
 * An expected path that is not a page's URL path can never be hit (an index page is served at its
 * folder: `/automations`, not `/automations/index`): name it instead of scoring a silent miss.
 */
function warnUnknownPages(index: DocsIndex, site: string, paths: string[]): void {
  for (const path of new Set(paths))
    if (index.page(path)?.urlPath !== path)
      console.error(`  ${site}: expected page ${path} is not a page URL path`);
}

await main();
