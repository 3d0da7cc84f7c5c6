/**
 * Does the offline answer state the answer? `npx tsx bench/answer-text.ts [--verbose]`.
 *
 * The other answer benchmarks score the pages an answer cites; a reader reads its text. For each
 * site, every reader question of the sets tuned on that has facts in bench/queries/<site>-facts.json
 * (short phrases, in the docs' own words, that a right answer states) is answered by the offline
 * assistant, and its text is checked for every fact: case, whitespace, punctuation and Markdown
 * aside, any one of a fact's variants. Beside it: Hit@5 and MRR@10 of the pages cited, and the
 * shares of reader questions and off-topic questions declined, over the same pooled sets as
 * `answer-quality.ts --pooled`. Each miss is put in one category:
 *
 * - declined: the answer cites nothing;
 * - page not cited: no cited page holds the fact;
 * - cited not quoted: a cited page holds it, but the answer only lists that page;
 * - sentence choice: a quoted page holds it, and other sentences of it were quoted.
 *
 * `--verbose` prints each miss with the answer's first lines. The sets tuned on only: facts for the
 * sets never tuned on would make them tuning data.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ExtractiveAnswerer } from '../src/assistant/answer/extractive.js';
import { retrieveHybrid } from '../src/assistant/retrieve.js';
import { DocsIndex } from '../src/docs/docs-index.js';
import { loadSite, pooledSets, rankScores, type AnySite } from './reader-questions.js';
import { machineDescription } from './retrieval-corpus.js';

/** A fact: its variants, any one of which the answer must state. */
type Fact = string | string[];
interface FactsFile {
  facts: Record<string, Fact[]>;
}

const FACT_SITES: AnySite[] = ['docwright', 'mintlify'];
const PAGE_SIZE = 5;
const answerer = new ExtractiveAnswerer();

type Category = 'declined' | 'page not cited' | 'cited not quoted' | 'sentence choice';

/** Words only, lower-cased: a fact matches across case, whitespace, punctuation and Markdown. */
function loose(text: string): string {
  return ` ${(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ')} `;
}

function states(text: string, fact: Fact): boolean {
  const haystack = loose(text);
  return (Array.isArray(fact) ? fact : [fact]).some((variant) => haystack.includes(loose(variant)));
}

function readFacts(site: AnySite): Record<string, Fact[]> {
  const file = fileURLToPath(new URL(`./queries/${site}-facts.json`, import.meta.url));
  return (JSON.parse(readFileSync(file, 'utf8')) as FactsFile).facts;
}

async function ask(index: DocsIndex, question: string) {
  const conversation = [{ role: 'user' as const, text: question }];
  const retrieval = await retrieveHybrid(index, { conversation, retrievalPageSize: PAGE_SIZE }, () =>
    Promise.resolve(undefined),
  );
  const answer = answerer.answer({ conversation, ...retrieval, signal: new AbortController().signal });
  let text = '';
  for await (const delta of answer.text) text += delta;
  return { sources: answer.sources.map((source) => source.url.replace(/#.*$/, '')), text };
}

/** Each page's whole text by its URL path, to tell a page not cited from a sentence not chosen. */
function pageTexts(index: DocsIndex, files: { path: string; content: string }[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const file of files) {
    const page = index.page(`/${file.path.replace(/\.mdx?$/, '')}`);
    if (page) texts.set(page.urlPath, `${texts.get(page.urlPath) ?? ''}\n${file.content}`);
  }
  return texts;
}

/** The source numbers the answer quotes from (a listed page's number follows a "- title"). */
function quotedSources(text: string): Set<number> {
  const [quoted = ''] = text.split('\nSee also:');
  return new Set([...quoted.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1])));
}

async function measure(site: AnySite, verbose: boolean) {
  const corpus = await loadSite(site);
  if (!corpus) return undefined;
  const index = DocsIndex.fromSite(corpus);
  const texts = pageTexts(
    index,
    corpus.files.map((file) => ({ path: file.path, content: file.content })),
  );
  const facts = readFacts(site);
  const { reader, offTopic } = pooledSets(site, 'tuning');
  const asked = reader.filter((question) => facts[question.query] !== undefined);
  const unknown = Object.keys(facts).filter((query) => !reader.some((question) => question.query === query));
  for (const query of unknown) console.error(`  ${site}: facts for a question not in the sets: ${query}`);
  const cited: string[][] = [];
  const misses: { query: string; category: Category; text: string }[] = [];
  let stated = 0;
  let declined = 0;
  for (const question of asked) {
    const answer = await ask(index, question.query);
    cited.push(answer.sources);
    if (answer.sources.length === 0) declined += 1;
    const missing = facts[question.query]!.filter((fact) => !states(answer.text, fact));
    if (missing.length === 0) {
      stated += 1;
      continue;
    }
    const quoted = quotedSources(answer.text);
    const holding = answer.sources
      .map((url, position) => ({ number: position + 1, text: texts.get(url) ?? '' }))
      .filter((page) => missing.every((fact) => states(page.text, fact)));
    const category: Category =
      answer.sources.length === 0
        ? 'declined'
        : holding.length === 0
          ? 'page not cited'
          : holding.some((page) => quoted.has(page.number))
            ? 'sentence choice'
            : 'cited not quoted';
    misses.push({ query: question.query, category, text: answer.text });
  }
  let offDeclined = 0;
  for (const question of offTopic) if ((await ask(index, question)).sources.length === 0) offDeclined += 1;
  index.close();
  if (verbose)
    for (const miss of misses)
      console.log(
        `  ${site} ${miss.category}: ${miss.query} -> ${miss.text.slice(0, 200).replace(/\n/g, ' ')}`,
      );
  return {
    questions: asked.length,
    stated,
    scores: rankScores(asked, cited),
    declined,
    offDeclined: [offDeclined, offTopic.length] as const,
    misses,
  };
}

const percent = (count: number, total: number) => `${((100 * count) / Math.max(1, total)).toFixed(1)}%`;

async function main(): Promise<void> {
  const verbose = process.argv.includes('--verbose');
  console.log(`Answer text on the sets tuned on. Machine: ${machineDescription()}\n`);
  const lines = [
    '| site | questions with facts | answer states the fact | cited Hit@5 | cited MRR@10 | on-topic declined | off-topic declined |',
    '|---|---|---|---|---|---|---|',
  ];
  const missLines: string[] = [];
  const listed: string[] = [];
  for (const site of FACT_SITES) {
    const result = await measure(site, verbose);
    if (!result) continue;
    const { questions, stated, scores, declined, offDeclined, misses } = result;
    lines.push(
      `| ${site} | ${questions} | ${stated} (${percent(stated, questions)}) | ${percent(scores.hit5, 1)} | ${scores.mrr.toFixed(3)} | ${declined} (${percent(declined, questions)}) | ${offDeclined[0]} of ${offDeclined[1]} (${percent(...offDeclined)}) |`,
    );
    const categories: Category[] = ['declined', 'page not cited', 'cited not quoted', 'sentence choice'];
    missLines.push(
      `| ${site} | ${categories.map((category) => misses.filter((miss) => miss.category === category).length).join(' | ')} |`,
    );
    for (const miss of misses) listed.push(`- ${site}, ${miss.category}: ${miss.query}`);
  }
  console.log(lines.join('\n'));
  console.log('\nMisses by category:\n');
  console.log(
    [
      '| site | declined | page not cited | cited not quoted | sentence choice |',
      '|---|---|---|---|---|',
      ...missLines,
    ].join('\n'),
  );
  console.log(`\n${listed.join('\n')}`);
}

await main();
