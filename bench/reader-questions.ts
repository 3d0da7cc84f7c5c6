/**
 * The reader question sets of bench/queries (written for this benchmark, never copied from the
 * corpora) and the scoring of a ranked list of pages against them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DocsIndex } from '../src/docs/docs-index.js';
import { readDocsFolder } from '../src/docs/read-docs-folder.js';
import type { DocsSiteFiles } from '../src/docs/site-files.js';
import { REPO_ROOT } from './retrieval-corpus.js';

export interface ReaderQuestion {
  query: string;
  expected: string[];
}

export interface FollowUpConversation {
  site: SiteName;
  turns: string[];
  expected: string[];
  answerContains: string;
}

/** The two shared corpora, whose question sets are named by `Half`. */
export type SiteName = 'mintlify' | 'pipecat';
export const SITES: SiteName[] = ['mintlify', 'pipecat'];
/**
 * Every site the pooled figures cover: the two corpora (a few hundred pages each) and docwright's
 * own docs/ (14 pages, always present), so that a rule is judged at both sizes.
 */
export type AnySite = SiteName | 'docwright';
export const ALL_SITES: AnySite[] = [...SITES, 'docwright'];

/**
 * Position parity decides the half of the first sets: even positions were tuned on, odd ones are
 * held out. The fresh sets (files ending in `-fresh.json`, `-fresh2.json`, `-fresh3.json`, then
 * `-fresh4.json` to `-fresh10.json`) were written later and are read whole. The first four, the
 * sixth and the seventh became tuning data once their baselines were taken; the fifth, eighth,
 * ninth and tenth are never tuned on (the fifth's figures were read whole while changing the code,
 * never question by question; the tenth is the newest).
 */
export type Half = 'tune' | 'held-out' | `fresh${'' | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10}`;
/** The sets never tuned on: the benchmarks print no question of theirs. */
const UNTUNED = new Set<Half>(['fresh5', 'fresh8', 'fresh9', 'fresh10']);
export const isUntuned = (which: Half) => UNTUNED.has(which);
/** Every set tuned on, pooled by the benchmarks' tuning figures. */
export const TUNING_SETS: Half[] = [
  'tune',
  'held-out',
  'fresh',
  'fresh2',
  'fresh3',
  'fresh4',
  'fresh6',
  'fresh7',
];
const isFresh = (which?: Half) => which !== undefined && which.startsWith('fresh');
export const half = <T>(items: T[], which: Half): T[] =>
  isFresh(which) ? items : items.filter((_, position) => (position % 2 === 0) === (which === 'tune'));

const suffix = (which?: Half) => (isFresh(which) ? `-${which}` : '');

const read = <T>(file: string): T =>
  JSON.parse(readFileSync(resolve(REPO_ROOT, 'bench/queries', file), 'utf8')) as T;

/** A whole set; pass it through `half` for the questions of one half (or of the fresh sets). */
export const readerQuestions = (site: SiteName, which?: Half): ReaderQuestion[] =>
  read<{ questions: ReaderQuestion[] }>(`${site}-reader-questions${suffix(which)}.json`).questions;
export const offTopicQuestions = (which?: Half): string[] =>
  read<{ questions: string[] }>(`off-topic-questions${suffix(which)}.json`).questions;
/** Off-topic questions written to calibrate declining (tuned on, never held out). */
export const offTopicTuningQuestions = (): string[] =>
  read<{ questions: string[] }>('off-topic-questions-tuning.json').questions;
/**
 * Off-topic questions as long as readers write (8-25 words, most sharing two or more words with
 * the docs): the other off-topic sets are mostly 4-7 words, and a rule for long questions cannot
 * be judged on them. Even positions are tuned on, odd ones held out.
 */
export const longOffTopicQuestions = (which: 'tune' | 'held-out'): string[] =>
  half(read<{ questions: string[] }>('off-topic-questions-long.json').questions, which);
const WITHOUT_FOLLOW_UPS = new Set<Half>(['fresh6', 'fresh7', 'fresh8', 'fresh9', 'fresh10']);
/**
 * The follow-ups written with a set of reader questions (none for the sixth to tenth sets;
 * `follow-ups-fresh6.json` is a set of its own, see `moreFollowUps`).
 */
export const followUps = (which?: Half): FollowUpConversation[] =>
  which !== undefined && WITHOUT_FOLLOW_UPS.has(which)
    ? []
    : read<{ conversations: FollowUpConversation[] }>(`follow-ups${suffix(which)}.json`).conversations;
/**
 * Follow-up conversations written on their own, without reader questions beside them:
 * `tuning2` (tuned on) and `fresh6` (never tuned on).
 */
export const moreFollowUps = (set: 'tuning2' | 'fresh6'): FollowUpConversation[] =>
  read<{ conversations: FollowUpConversation[] }>(`follow-ups-${set}.json`).conversations;

/** A site's docs folder, or null (with a message) when the shared corpora are absent. */
export async function loadSite(site: AnySite): Promise<DocsSiteFiles | null> {
  const folder =
    site === 'docwright' ? resolve(REPO_ROOT, 'docs') : resolve(REPO_ROOT, `../shared/corpora/${site}-docs`);
  if (!existsSync(folder)) {
    console.error(`The ${site} corpus is missing at ${folder}; skipped.`);
    return null;
  }
  return readDocsFolder(folder);
}

/** The site's search index as the assistant builds it (navigation and `.mintignore` honoured). */
export async function loadSiteIndex(site: AnySite): Promise<DocsIndex | null> {
  const corpus = await loadSite(site);
  if (!corpus) return null;
  return DocsIndex.fromSite(corpus);
}

/** The questions of one site pooled: reader questions, and questions its docs do not answer. */
export interface PooledSets {
  reader: ReaderQuestion[];
  offTopic: string[];
}

/**
 * Every set of a site tuned on, pooled, and every set never tuned on, pooled: the figures to
 * report. On the two corpora the never-tuned sets are the fifth, eighth, ninth and tenth fresh
 * sets (reader and off-topic); every other set, the long off-topic questions included, has been
 * tuned on. On docwright's own docs, `docwright-reader-questions.json` is tuned on and the two
 * fresh sets are never tuned on; of `docwright-off-topic-questions.json`, even positions are tuned
 * on and odd ones held out.
 */
export function pooledSets(site: AnySite, which: 'tuning' | 'untuned'): PooledSets {
  if (site === 'docwright') {
    const offTopic = read<{ questions: string[] }>('docwright-off-topic-questions.json').questions;
    const sets = which === 'tuning' ? [''] : ['-fresh', '-fresh2'];
    return {
      reader: sets.flatMap(
        (suffix) =>
          read<{ questions: ReaderQuestion[] }>(`docwright-reader-questions${suffix}.json`).questions,
      ),
      offTopic: half(offTopic, which === 'tuning' ? 'tune' : 'held-out'),
    };
  }
  if (which === 'untuned') {
    const sets = [...UNTUNED];
    return {
      reader: sets.flatMap((set) => readerQuestions(site, set)),
      offTopic: sets.flatMap((set) => offTopicQuestions(set)),
    };
  }
  const fresh = TUNING_SETS.filter(isFresh);
  return {
    reader: [...readerQuestions(site), ...fresh.flatMap((set) => readerQuestions(site, set))],
    offTopic: [
      ...offTopicQuestions(),
      ...fresh.flatMap((set) => offTopicQuestions(set)),
      ...offTopicTuningQuestions(),
      ...longOffTopicQuestions('tune'),
      ...longOffTopicQuestions('held-out'),
    ],
  };
}

export interface RankScores {
  queries: number;
  hit1: number;
  hit5: number;
  mrr: number;
}

/** Hit@1, Hit@5 and MRR@10 of ranked page lists (one per question, URL paths, best first). */
export function rankScores(questions: ReaderQuestion[], ranked: string[][]): RankScores {
  let hit1 = 0;
  let hit5 = 0;
  let reciprocal = 0;
  questions.forEach((question, position) => {
    const pages = [...new Set(ranked[position] ?? [])].slice(0, 10);
    const rank = pages.findIndex((page) => question.expected.includes(page)) + 1;
    if (rank === 1) hit1 += 1;
    if (rank >= 1 && rank <= 5) hit5 += 1;
    if (rank >= 1) reciprocal += 1 / rank;
  });
  const count = Math.max(1, questions.length);
  return { queries: questions.length, hit1: hit1 / count, hit5: hit5 / count, mrr: reciprocal / count };
}
