/**
 * What the retrieval benchmarks share: the mintlify corpus, the two query sets built from it, and
 * the machine description printed with every table.
 */
import { existsSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePage } from '../src/docs/parse-page.js';
import { readDocsFolder } from '../src/docs/read-docs-folder.js';
import type { DocsSiteFiles } from '../src/docs/site-files.js';
import { createSiteMetadata } from '../src/docs/site-metadata.js';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const MINTLIFY_CORPUS = resolve(REPO_ROOT, '../shared/corpora/mintlify-docs');
const QUESTIONS_FILE = resolve(REPO_ROOT, 'bench/queries/mintlify-questions.json');

/** A question and the URL paths of the pages that answer it. */
export interface QualityQuery {
  query: string;
  expected: string[];
}

/** The mintlify corpus, or exits with a message when the shared corpora are not there. */
export function loadMintlifyCorpus(): Promise<DocsSiteFiles> {
  if (!existsSync(MINTLIFY_CORPUS)) {
    console.error(`The mintlify corpus is missing at ${MINTLIFY_CORPUS}; nothing to measure.`);
    process.exit(1);
  }
  return readDocsFolder(MINTLIFY_CORPUS);
}

/**
 * One query per page of `language` with a frontmatter description: the description is the query and
 * the page the answer. Sorted by path so that the odd/even split is stable.
 */
export function descriptionQueries(corpus: DocsSiteFiles, language = 'en'): QualityQuery[] {
  const site = createSiteMetadata(corpus.navigation?.resolved);
  return corpus.files
    .filter((file) => !file.path.includes('snippets/'))
    .map((file) => parsePage(file))
    .filter((page) => page.description !== undefined && site.pageMetadata(page.urlPath).language === language)
    .sort((left, right) => left.path.localeCompare(right.path))
    .map((page) => ({ query: page.description!, expected: [page.urlPath] }));
}

/** The hand-written reader questions of bench/queries/mintlify-questions.json. */
export function handWrittenQueries(): QualityQuery[] {
  const parsed = JSON.parse(readFileSync(QUESTIONS_FILE, 'utf8')) as { questions: QualityQuery[] };
  return parsed.questions;
}

/** `CPU model, N cores, X GB, Node vY, date` for the results table. */
export function machineDescription(): string {
  const cpu = cpus();
  const memory = Math.round(totalmem() / 2 ** 30);
  const date = new Date().toISOString().slice(0, 10);
  return `${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${memory} GB, Node ${process.version}, ${date}`;
}
