/**
 * Retrieval speed: `npx tsx bench/retrieval-speed.ts`.
 *
 * Two corpora: the mintlify docs as they are (all four languages), and a synthetic one made of
 * copies of its English pages under `copy-N/` folders until it holds at least 10,000 sections.
 * Each is measured in a child process of its own (with `--expose-gc`), so that memory freed by one
 * does not hide the growth of the next: heap and RSS growth of the first build (the files are
 * already read), the SQLite database size, build time (median of 3 more), and search latency
 * p50/p95 over every benchmark query repeated (top 5, default filter), without and with a
 * `currentPath` (which runs a second, neighbourhood query).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DocsIndex } from '../src/docs/docs-index.js';
import { parsePage } from '../src/docs/parse-page.js';
import type { DocsFile } from '../src/docs/types.js';
import { readerQuestions } from './reader-questions.js';
import {
  descriptionQueries,
  handWrittenQueries,
  loadMintlifyCorpus,
  machineDescription,
} from './retrieval-corpus.js';

const SYNTHETIC_SECTIONS = 10_000;
const SEARCH_ROUNDS = 5;

interface Measurement {
  corpus: string;
  pages: number;
  sections: number;
  buildMs: number;
  heapMb: number;
  rssMb: number;
  databaseMb: number;
  p50: number;
  p95: number;
  p50WithPath: number;
  p95WithPath: number;
}

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

function latencies(index: DocsIndex, queries: string[], currentPath?: string): number[] {
  const times: number[] = [];
  for (let round = 0; round < SEARCH_ROUNDS; round += 1) {
    for (const query of queries) {
      const started = performance.now();
      // The assistant's shape: two sections of each of five pages (`retrieve`).
      index.search(query, { limit: 10, maxPerPage: 2, currentPath });
      times.push(performance.now() - started);
    }
  }
  return times.sort((left, right) => left - right);
}

function measure(corpus: string, files: DocsFile[], navigation: unknown, queries: string[]): Measurement {
  collectGarbage();
  const before = process.memoryUsage();
  const index = DocsIndex.build(files, { navigation });
  collectGarbage();
  const after = process.memoryUsage();
  const builds: number[] = [];
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const started = performance.now();
    DocsIndex.build(files, { navigation }).close();
    builds.push(performance.now() - started);
  }
  index.search('warm up the statements', { limit: 5 });
  const plain = latencies(index, queries);
  const withPath = latencies(index, queries, '/components/accordions');
  const { pages, sections, databaseBytes } = index.stats;
  index.close();
  return {
    corpus,
    pages,
    sections,
    buildMs: builds.sort((left, right) => left - right)[1]!,
    heapMb: (after.heapUsed - before.heapUsed) / 2 ** 20,
    rssMb: (after.rss - before.rss) / 2 ** 20,
    databaseMb: databaseBytes / 2 ** 20,
    p50: percentile(plain, 0.5),
    p95: percentile(plain, 0.95),
    p50WithPath: percentile(withPath, 0.5),
    p95WithPath: percentile(withPath, 0.95),
  };
}

/** English pages copied under `copy-N/` until the copies hold `target` sections. */
function syntheticCorpus(files: DocsFile[], sectionsPerCopy: number, target: number): DocsFile[] {
  const english = files.filter((file) => !/^(fr|es|zh)\//.test(file.path));
  const copies = Math.ceil(target / sectionsPerCopy);
  return Array.from({ length: copies }, (_, copy) =>
    english.map((file) => ({ path: `copy-${copy}/${file.path}`, content: file.content })),
  ).flat();
}

type CorpusName = 'mintlify' | 'synthetic';

/** Measures one corpus in this process (the child side). */
async function measureCorpus(name: CorpusName): Promise<Measurement> {
  const corpus = await loadMintlifyCorpus();
  const queries = [
    ...descriptionQueries(corpus),
    ...handWrittenQueries(),
    ...readerQuestions('mintlify'),
    ...readerQuestions('pipecat'),
  ].map((query) => query.query);
  if (name === 'mintlify')
    return measure('mintlify (en, fr, es, zh)', corpus.files, corpus.navigation?.resolved, queries);
  const englishOnly = corpus.files.filter((file) => !/^(fr|es|zh)\//.test(file.path));
  const sectionsPerCopy = englishOnly.reduce((total, file) => total + parsePage(file).sections.length, 0);
  const synthetic = syntheticCorpus(corpus.files, sectionsPerCopy, SYNTHETIC_SECTIONS);
  return measure('synthetic (English pages copied)', synthetic, undefined, queries);
}

/** Runs this script again for one corpus, in a fresh process with `--expose-gc`. */
function measureInChild(name: CorpusName): Measurement {
  const script = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, [...process.execArgv, '--expose-gc', script, '--corpus', name], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`Measuring ${name} failed (exit ${child.status}).`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as Measurement;
}

function printTable(results: Measurement[], queryCount: number): void {
  const number = (value: number, digits = 1) => value.toFixed(digits);
  console.log(`Retrieval speed. Machine: ${machineDescription()}`);
  console.log(
    `${queryCount} queries x ${SEARCH_ROUNDS} rounds, the assistant's search (two sections of each of five pages, relevance measured); memory: growth during the first build\n`,
  );
  console.log(
    '| corpus | pages | sections | build ms | heap MB | RSS MB | SQLite MB | search p50 ms | p95 ms | ' +
      'p50 ms with currentPath | p95 ms with currentPath |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const result of results) {
    const cells = [
      result.corpus,
      result.pages,
      result.sections,
      number(result.buildMs, 0),
      number(result.heapMb),
      number(result.rssMb),
      number(result.databaseMb),
      number(result.p50, 2),
      number(result.p95, 2),
      number(result.p50WithPath, 2),
      number(result.p95WithPath, 2),
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
}

async function main(): Promise<void> {
  const corpusArgument = process.argv.indexOf('--corpus');
  if (corpusArgument !== -1) {
    console.log(JSON.stringify(await measureCorpus(process.argv[corpusArgument + 1] as CorpusName)));
    return;
  }
  const corpus = await loadMintlifyCorpus();
  const queryCount =
    descriptionQueries(corpus).length +
    handWrittenQueries().length +
    readerQuestions('mintlify').length +
    readerQuestions('pipecat').length;
  printTable([measureInChild('mintlify'), measureInChild('synthetic')], queryCount);
}

await main();
