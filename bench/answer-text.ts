/**
 * Does the offline answer state the answer? `npx tsx bench/answer-text.ts [--verbose]`.
 *
 * The other answer benchmarks score the pages an answer cites; a reader reads its text. For each
 * site (docwright's own docs/ and the two shared corpora), every reader question of the sets tuned
 * on that has facts in bench/queries/<site>-facts.json (short phrases, in the docs' own words, that
 * a right answer states) is answered by the offline assistant, and its text is checked for every
 * fact: case, whitespace, punctuation and Markdown aside, any one of a fact's variants; and whether
 * it states them in its first quote (the text before its first citation: the page it leads with),
 * since the answer should say it first. Beside it:
 * Hit@5 and MRR@10 of the pages cited, and the shares of reader questions and off-topic questions
 * declined (the site's pooled off-topic sets tuned on, as `answer-quality.ts --pooled`, and the
 * facts file's own off-topic questions). Each miss is put in one category:
 *
 * - declined: the answer cites nothing;
 * - page not cited: no cited page holds the fact;
 * - cited not quoted: a cited page holds it, but the answer only lists that page;
 * - sentence choice: a quoted page holds it, and other sentences of it were quoted.
 *
 * Five more sets per site, bench/queries/<site>-facts-blind.json to -blind5.json, hold questions of
 * their own (with the pages that answer them, and off-topic questions), each written from randomly
 * picked pages (or, on docwright's small docs, sections) that no earlier set uses. The first three
 * were kept back while the answerer's rules were written; once they had judged them, their misses
 * were read too, and they are tuned on now: their misses are listed with the tuned set's. blind4
 * and blind5 were written later and are kept back: their figures are printed whole, their misses
 * counted by category but never listed, so that reading them does not make them tuning data.
 *
 * `--verbose` prints each listed miss with the answer's first lines.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ExtractiveAnswerer } from '../src/assistant/answer/extractive.js';
import { retrieveHybrid } from '../src/assistant/retrieve.js';
import { DocsIndex } from '../src/docs/docs-index.js';
import {
  loadSite,
  pooledSets,
  rankScores,
  type AnySite,
  type RankScores,
  type ReaderQuestion,
} from './reader-questions.js';
import { machineDescription } from './retrieval-corpus.js';

/** A fact: its variants, any one of which the answer must state. */
type Fact = string | string[];
interface FactsFile {
  facts: Record<string, Fact[]>;
  offTopic?: string[];
}
interface BlindFile {
  questions: (ReaderQuestion & { facts: Fact[] })[];
  offTopic: string[];
}

const FACT_SITES: AnySite[] = ['docwright', 'mintlify', 'pipecat'];
/** The blind sets, oldest first, and those of them kept back: their misses are never listed. */
const BLIND_SETS = ['blind', 'blind2', 'blind3', 'blind4', 'blind5'];
const KEPT_BACK: ReadonlySet<string> = new Set(['blind4', 'blind5']);
const PAGE_SIZE = 5;
const answerer = new ExtractiveAnswerer();

type Category = 'declined' | 'page not cited' | 'cited not quoted' | 'sentence choice';
const CATEGORIES: Category[] = ['declined', 'page not cited', 'cited not quoted', 'sentence choice'];

/** Words only, lower-cased: a fact matches across case, whitespace, punctuation and Markdown. */
function loose(text: string): string {
  return ` ${(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ')} `;
}

function states(text: string, fact: Fact): boolean {
  const haystack = loose(text);
  return (Array.isArray(fact) ? fact : [fact]).some((variant) => haystack.includes(loose(variant)));
}

function readQueries<T>(name: string): T | undefined {
  const file = fileURLToPath(new URL(`./queries/${name}`, import.meta.url));
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
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

interface Miss {
  query: string;
  category: Category;
  text: string;
}

interface SetResult {
  questions: number;
  stated: number;
  /** Of those, the answers that state every fact in their first quote. */
  first: number;
  scores: RankScores;
  declined: number;
  offDeclined: readonly [number, number];
  ownOffDeclined: readonly [number, number];
  misses: Miss[];
}

/** Answers each question, checks its facts and sorts each miss into its category. */
async function score(
  index: DocsIndex,
  texts: Map<string, string>,
  questions: (ReaderQuestion & { facts: Fact[] })[],
  offTopic: string[],
  ownOffTopic: string[],
): Promise<SetResult> {
  const cited: string[][] = [];
  const misses: Miss[] = [];
  let stated = 0;
  let first = 0;
  let declined = 0;
  for (const question of questions) {
    const answer = await ask(index, question.query);
    cited.push(answer.sources);
    if (answer.sources.length === 0) declined += 1;
    const missing = question.facts.filter((fact) => !states(answer.text, fact));
    if (missing.length === 0) {
      stated += 1;
      const opening = answer.text.slice(0, answer.text.search(/\[\d+\]/) + 1 || undefined);
      if (question.facts.every((fact) => states(opening, fact))) first += 1;
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
  const declinedOf = async (list: string[]) => {
    let count = 0;
    for (const question of list) if ((await ask(index, question)).sources.length === 0) count += 1;
    return [count, list.length] as const;
  };
  return {
    questions: questions.length,
    stated,
    first,
    scores: rankScores(questions, cited),
    declined,
    offDeclined: await declinedOf(offTopic),
    ownOffDeclined: await declinedOf(ownOffTopic),
    misses,
  };
}

async function measure(site: AnySite) {
  const corpus = await loadSite(site);
  if (!corpus) return undefined;
  const index = DocsIndex.fromSite(corpus);
  const texts = pageTexts(
    index,
    corpus.files.map((file) => ({ path: file.path, content: file.content })),
  );
  const factsFile = readQueries<FactsFile>(`${site}-facts.json`);
  const { reader, offTopic } = pooledSets(site, 'tuning');
  let tuned: SetResult | undefined;
  if (factsFile) {
    const { facts } = factsFile;
    for (const query of Object.keys(facts).filter((query) => !reader.some((q) => q.query === query)))
      console.error(`  ${site}: facts for a question not in the sets: ${query}`);
    const asked = reader
      .filter((question) => facts[question.query] !== undefined)
      .map((question) => ({ ...question, facts: facts[question.query]! }));
    tuned = await score(index, texts, asked, offTopic, factsFile.offTopic ?? []);
  }
  const blindSet = async (name: string) => {
    const blindFile = readQueries<BlindFile>(`${site}-facts-${name}.json`);
    for (const question of blindFile?.questions ?? [])
      for (const url of question.expected)
        if (!index.page(url))
          console.error(`  ${site}: the ${name} set expects a page the site lacks: ${url}`);
    return blindFile ? await score(index, texts, blindFile.questions, [], blindFile.offTopic) : undefined;
  };
  const sets: [string, SetResult | undefined][] = [['tuned on', tuned]];
  for (const name of BLIND_SETS) sets.push([name, await blindSet(name)]);
  index.close();
  return sets;
}

const percent = (count: number, total: number) => `${((100 * count) / Math.max(1, total)).toFixed(1)}%`;
const ratio = ([count, total]: readonly [number, number]) =>
  total === 0 ? '-' : `${count} of ${total} (${percent(count, total)})`;

async function main(): Promise<void> {
  const verbose = process.argv.includes('--verbose');
  console.log(`Answer text, per site. Machine: ${machineDescription()}\n`);
  const lines = [
    '| site | set | questions with facts | answer states the fact | in its first quote | cited Hit@5 | cited MRR@10 | on-topic declined | off-topic declined (pooled sets) | off-topic declined (facts file) |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const missLines = [
    '| site | set | declined | page not cited | cited not quoted | sentence choice |',
    '|---|---|---|---|---|---|',
  ];
  const listed: string[] = [];
  for (const site of FACT_SITES) {
    const sets = await measure(site);
    if (!sets) continue;
    for (const [name, set] of sets) {
      if (!set) continue;
      const { questions, stated, first, scores, declined, offDeclined, ownOffDeclined, misses } = set;
      lines.push(
        `| ${site} | ${name} | ${questions} | ${stated} (${percent(stated, questions)}) | ${first} (${percent(first, questions)}) | ${percent(scores.hit5, 1)} | ${scores.mrr.toFixed(3)} | ${declined} (${percent(declined, questions)}) | ${ratio(offDeclined)} | ${ratio(ownOffDeclined)} |`,
      );
      missLines.push(
        `| ${site} | ${name} | ${CATEGORIES.map((category) => misses.filter((miss) => miss.category === category).length).join(' | ')} |`,
      );
    }
    const tunedOn = sets.filter(([name]) => !KEPT_BACK.has(name));
    for (const miss of tunedOn.flatMap(([, set]) => set?.misses ?? [])) {
      listed.push(`- ${site}, ${miss.category}: ${miss.query}`);
      if (verbose) listed.push(`  ${miss.text.slice(0, 240).replace(/\n/g, ' ')}`);
    }
  }
  console.log(lines.join('\n'));
  console.log('\nMisses by category:\n');
  console.log(missLines.join('\n'));
  console.log(
    `\nThe misses of the sets tuned on (those of ${[...KEPT_BACK].join(' and ')}, kept back, are not listed):\n\n${listed.join('\n')}`,
  );
}

await main();
