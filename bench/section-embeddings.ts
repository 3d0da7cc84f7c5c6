/**
 * Stored section embeddings: `npx tsx bench/section-embeddings.ts`.
 *
 * On the mintlify corpus, with a scripted embedding model of 1,536 dimensions (the size of
 * `text-embedding-3-small`; its vectors are pseudo-random, which compress no better than real ones):
 * the texts sent to the model by a first build, by a rebuild after a one-page edit and by a second
 * process on the same database; the time to read the stored vectors back (the store alone, and the
 * whole `embedIndex` with nothing to embed: hashing, reading, the in-memory matrix); and the space
 * the table takes per 1,000 sections on SQLite and, when PostgreSQL's binaries are installed, on a
 * throwaway cluster.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MockEmbeddingModelV3 } from 'ai/test';
import { sql } from 'kysely';
import { SectionEmbedder } from '../src/assistant/embeddings.js';
import { DocsIndex } from '../src/docs/docs-index.js';
import type { DocsFile } from '../src/docs/types.js';
import { openStore, type Store } from '../src/store/index.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { loadMintlifyCorpus, machineDescription, MINTLIFY_CORPUS } from './retrieval-corpus.js';

const DIMENSIONS = 1536;
const LOAD_ROUNDS = 5;

/** A model that answers every text with a vector drawn from the text's hash, and counts the texts. */
function scriptedModel() {
  let texts = 0;
  const model = new MockEmbeddingModelV3({
    maxEmbeddingsPerCall: 2048,
    doEmbed: ({ values }) => {
      texts += values.length;
      return Promise.resolve({ embeddings: values.map(vectorOf), warnings: [] });
    },
  });
  return { model, texts: () => texts };
}

function vectorOf(text: string): number[] {
  let state = createHash('sha256').update(text).digest().readUInt32LE(0) || 1;
  return Array.from({ length: DIMENSIONS }, () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return ((state >>> 0) / 2 ** 32 - 0.5) / 10;
  });
}

/** The corpus with one sentence added at the end of one page with several sections. */
function editOnePage(files: DocsFile[]): { files: DocsFile[]; path: string } {
  const target = files.find(
    (file) => file.path.endsWith('.mdx') && (file.content.match(/^## /gm) ?? []).length >= 4,
  );
  if (!target) throw new Error('no page with four sections in the corpus');
  const edited = {
    ...target,
    content: `${target.content.trimEnd()}\n\nOne more sentence, added by the benchmark.\n`,
  };
  return { files: files.map((file) => (file === target ? edited : file)), path: target.path };
}

const median = (values: number[]) =>
  [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)]!;

async function embedCounts(store: Store, files: DocsFile[], navigation: unknown) {
  const build = () => DocsIndex.build(files, { navigation });
  const first = scriptedModel();
  const index = build();
  const firstReport = await new SectionEmbedder(first.model, 'scripted', store.sectionEmbeddings).embedIndex(
    index,
    'docs',
  );
  const edit = editOnePage(files);
  const edited = DocsIndex.build(edit.files, { navigation });
  const second = scriptedModel();
  const editReport = await new SectionEmbedder(second.model, 'scripted', store.sectionEmbeddings).embedIndex(
    edited,
    'docs',
  );
  index.close();
  edited.close();
  return {
    sections: firstReport.sections,
    first: first.texts(),
    edit,
    editTexts: second.texts(),
    editReport,
  };
}

async function loadTimes(store: Store, files: DocsFile[], navigation: unknown) {
  const storeMs: number[] = [];
  const embedIndexMs: number[] = [];
  let rows = 0;
  let embedded = 0;
  for (let round = 0; round < LOAD_ROUNDS; round += 1) {
    let started = performance.now();
    rows = (await store.sectionEmbeddings.load('docs', 'scripted')).size;
    storeMs.push(performance.now() - started);
    const index = DocsIndex.build(files, { navigation });
    const counter = scriptedModel();
    started = performance.now();
    await new SectionEmbedder(counter.model, 'scripted', store.sectionEmbeddings).embedIndex(index, 'docs');
    embedIndexMs.push(performance.now() - started);
    embedded += counter.texts();
    index.close();
  }
  return { rows, storeMs: median(storeMs), embedIndexMs: median(embedIndexMs), embedded };
}

async function sqliteBytes(store: Store): Promise<number> {
  const { rows } = await sql<{ bytes: number }>`select sum(pgsize) as bytes from dbstat
    where name in ('section_embeddings', 'sqlite_autoindex_section_embeddings_1')`.execute(store.database.db);
  return Number(rows[0]?.bytes ?? 0);
}

async function postgresBytes(
  files: DocsFile[],
  navigation: unknown,
): Promise<{ rows: number; bytes: number; loadMs: number } | string> {
  if (!existsSync('/usr/lib/postgresql') && !process.env.DOCWRIGHT_TEST_DATABASE_URL)
    return 'PostgreSQL is not installed';
  const postgres = await startPostgres();
  const store = await openStore({ dataDir: os.tmpdir(), databaseUrl: await postgres.createDatabase() });
  try {
    await store.projects.create({ id: 'docs', repository: '/bench', baseRef: 'main' });
    const index = DocsIndex.build(files, { navigation });
    await new SectionEmbedder(scriptedModel().model, 'scripted', store.sectionEmbeddings).embedIndex(
      index,
      'docs',
    );
    index.close();
    await sql`vacuum analyze section_embeddings`.execute(store.database.db);
    const loadMs: number[] = [];
    for (let round = 0; round < LOAD_ROUNDS; round += 1) {
      const started = performance.now();
      await store.sectionEmbeddings.load('docs', 'scripted');
      loadMs.push(performance.now() - started);
    }
    const { rows } = await sql<{ rows: number; bytes: number }>`select
      (select count(*) from section_embeddings) as rows,
      pg_total_relation_size('section_embeddings') as bytes`.execute(store.database.db);
    return { rows: Number(rows[0]!.rows), bytes: Number(rows[0]!.bytes), loadMs: median(loadMs) };
  } finally {
    await store.close();
    await postgres.stop();
  }
}

async function main(): Promise<void> {
  if (!existsSync(MINTLIFY_CORPUS)) {
    console.log(`The mintlify corpus is missing at ${MINTLIFY_CORPUS}; nothing measured.`);
    return;
  }
  const corpus = await loadMintlifyCorpus();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-bench-embeddings-'));
  const store = await openStore({ dataDir });
  try {
    await store.projects.create({ id: 'docs', repository: '/bench', baseRef: 'main' });
    const counts = await embedCounts(store, corpus.files, corpus.navigation?.resolved);
    const load = await loadTimes(store, counts.edit.files, corpus.navigation?.resolved);
    const bytes = await sqliteBytes(store);
    const postgres = await postgresBytes(corpus.files, corpus.navigation?.resolved);
    const perThousand = (total: number, rows: number) => ((total / rows) * 1000) / 2 ** 20;
    const lines = [
      `Mintlify corpus, ${counts.sections} sections, scripted model of ${DIMENSIONS} dimensions. ${machineDescription()}`,
      '',
      '| | texts sent to the model |',
      '|---|---|',
      `| first build (empty store) | ${counts.first} |`,
      `| rebuild after a one-sentence edit of \`${counts.edit.path}\` | ${counts.editTexts} (reused ${counts.editReport.reused}, removed ${counts.editReport.removed}) |`,
      `| another process on the same database, same docs | ${load.embedded / LOAD_ROUNDS} |`,
      '',
      `- Reading ${load.rows} stored vectors from SQLite: ${load.storeMs.toFixed(0)} ms (median of ${LOAD_ROUNDS}); the whole \`embedIndex\` with nothing to embed (hashing ${counts.sections} texts, reading, building the in-memory matrix): ${load.embedIndexMs.toFixed(0)} ms.`,
      `- Space of the table and its key on SQLite: ${(bytes / 2 ** 20).toFixed(1)} MiB for ${load.rows} rows, ${perThousand(bytes, load.rows).toFixed(2)} MiB per 1,000 sections (the vector alone is ${((DIMENSIONS * 4 * 1000) / 2 ** 20).toFixed(2)} MiB).`,
      typeof postgres === 'string'
        ? `- PostgreSQL: not measured (${postgres}).`
        : `- On PostgreSQL (table, TOAST and key): ${(postgres.bytes / 2 ** 20).toFixed(1)} MiB for ${postgres.rows} rows, ${perThousand(postgres.bytes, postgres.rows).toFixed(2)} MiB per 1,000 sections; reading them back: ${postgres.loadMs.toFixed(0)} ms (median of ${LOAD_ROUNDS}).`,
    ];
    console.log(lines.join('\n'));
  } finally {
    await store.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

await main();
