import fs from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { MockEmbeddingModelV3 } from 'ai/test';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocsIndexes } from '../src/assistant/docs-indexes.js';
import { contentHash, SectionEmbedder } from '../src/assistant/embeddings.js';
import type { DocsIndex } from '../src/docs/index.js';
import { LocalGitForge } from '../src/forge/local-git.js';
import { createLogger } from '../src/core/logger.js';
import { openStore, type ProjectRow, type Store } from '../src/store/index.js';
import { createGitRepo, runGit, testGitEnvironment, type GitRepo } from './helpers/git-repo.js';
import { DIALECTS, testDatabases, type TestLocation } from './helpers/postgres.js';

const databases = testDatabases();
afterAll(() => databases.close());

/**
 * A scripted embedding model: each word of a text adds one to a dimension picked by the word's
 * letters, so texts that share words are near. It records every text it is asked to embed, and can
 * be made to fail or to change its dimensions.
 */
function scriptedModel(options: { dimensions?: number; failing?: boolean } = {}) {
  const dimensions = options.dimensions ?? 24;
  const texts: string[] = [];
  const vectorOf = (text: string) => {
    const vector = Array.from({ length: dimensions }, () => 0.001);
    for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
      const slot = [...word].reduce((sum, letter) => sum * 31 + letter.charCodeAt(0), 7) % dimensions;
      vector[slot]! += 1;
    }
    return vector;
  };
  const model = new MockEmbeddingModelV3({
    maxEmbeddingsPerCall: 5,
    doEmbed: ({ values }) => {
      if (options.failing) return Promise.reject(new Error('embedding service unavailable'));
      texts.push(...values);
      return Promise.resolve({ embeddings: values.map(vectorOf), warnings: [] });
    },
  });
  return { model, texts, vectorOf };
}

const page = (title: string, first: string, second: string) =>
  `---\ntitle: ${title}\n---\n\n## Overview\n\n${first}\n\n## Details\n\n${second}\n`;

const FILES = {
  'billing.mdx': page('Billing', 'Invoices are sent monthly.', 'Refunds return money to the card.'),
  'regions.mdx': page('Regions', 'Agents run in three regions.', 'Pick a region when you deploy.'),
  'voice.mdx': page('Voice', 'The agent greets callers.', 'Calls are recorded on request.'),
  'keys.mdx': page('API keys', 'Keys authenticate requests.', 'Rotate secrets every quarter.'),
};

/** The SHA-256 of every section text the index sends to the model: the keys its vectors are stored by. */
const hashesOf = (index: DocsIndex) =>
  new Set(index.sectionTexts().map((section) => contentHash(section.text.slice(0, 2000))));

describe.each(DIALECTS)('section embeddings stored on %s', (dialect) => {
  let location: TestLocation;
  let repo: GitRepo;
  let store: Store;
  let project: ProjectRow;
  const opened: { close(): unknown }[] = [];
  let logs: Record<string, unknown>[] = [];
  const logger = createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  });

  beforeEach(async () => {
    logs = [];
    location = await databases.create(dialect);
    repo = await createGitRepo(FILES);
    store = await openStore(location);
    opened.push(store);
    project = await store.projects.create({ id: 'docs', repository: repo.dir, baseRef: 'main' });
  });
  afterEach(async () => {
    for (const each of opened.splice(0).reverse()) await each.close();
    await repo.cleanup();
  });

  const indexesWith = (embedder: SectionEmbedder) => {
    const indexes = new DocsIndexes({
      forge: new LocalGitForge({ environment: testGitEnvironment() }),
      logger,
      embedder,
    });
    opened.push(indexes);
    return indexes;
  };
  const commit = async (file: string, content: string | null) => {
    if (content === null) await runGit(repo.dir, ['rm', '-q', file]);
    else {
      await fs.writeFile(path.join(repo.dir, file), content);
      await runGit(repo.dir, ['add', file]);
    }
    await runGit(repo.dir, ['commit', '-q', '-m', `change ${file}`]);
  };
  const storedHashes = async (target: Store, model: string) =>
    new Set((await target.sectionEmbeddings.load('docs', model)).keys());

  it('embeds each section once: a one-page edit embeds its changed section, a second process nothing', async () => {
    const first = scriptedModel();
    const indexes = indexesWith(new SectionEmbedder(first.model, 'scripted', store.sectionEmbeddings));
    const built = await indexes.get(project);
    expect(built.stats.sections).toBe(8);
    expect(first.texts).toHaveLength(8);
    expect(await storedHashes(store, 'scripted')).toEqual(hashesOf(built));

    await commit('billing.mdx', page('Billing', 'Invoices are sent monthly.', 'Refunds take ten days.'));
    indexes.invalidate('docs');
    const edited = await indexes.get(project);
    expect(edited).not.toBe(built);
    expect(first.texts.slice(8)).toEqual([expect.stringContaining('Refunds take ten days.')]);
    expect(logs.filter((line) => line.msg === 'docs index embedded')).toEqual([
      expect.objectContaining({ project: 'docs', sections: 8, reused: 0, embedded: 8, removed: 0 }),
      expect.objectContaining({ project: 'docs', sections: 8, reused: 7, embedded: 1, removed: 1 }),
    ]);
    // The old text's vector is gone: the table follows the docs, not their history.
    expect(await storedHashes(store, 'scripted')).toEqual(hashesOf(edited));

    // Another process (or replica) on the same database: nothing to embed, the same ranking.
    const other = await openStore(location);
    opened.push(other);
    const second = scriptedModel();
    const replica = await indexesWith(
      new SectionEmbedder(second.model, 'scripted', other.sectionEmbeddings),
    ).get(project);
    expect(second.texts).toEqual([]);
    expect(replica.hasVectors).toBe(true);
    for (const question of ['how long do refunds take', 'where do agents run', 'rotate my secrets']) {
      const queryVector = first.vectorOf(question);
      const fromModel = edited.search(question, { queryVector, limit: 8 });
      // The vectors take part: sections near in meaning join the ones that share the words.
      expect(fromModel.length).toBeGreaterThan(edited.search(question, { limit: 8 }).length);
      expect(replica.search(question, { queryVector, limit: 8 })).toEqual(fromModel);
    }
  });

  it('embeds everything again for another model, and forgets removed sections', async () => {
    const first = scriptedModel();
    await indexesWith(new SectionEmbedder(first.model, 'scripted', store.sectionEmbeddings)).get(project);
    const renamed = scriptedModel();
    const indexes = indexesWith(new SectionEmbedder(renamed.model, 'scripted-v2', store.sectionEmbeddings));
    await indexes.get(project);
    expect(renamed.texts).toHaveLength(8);

    await commit('voice.mdx', null);
    indexes.invalidate('docs');
    const smaller = await indexes.get(project);
    expect(renamed.texts).toHaveLength(8);
    expect(smaller.stats.sections).toBe(6);
    expect(await storedHashes(store, 'scripted-v2')).toEqual(hashesOf(smaller));
    // The other model's vectors are its own business: this build leaves them alone.
    expect((await storedHashes(store, 'scripted')).size).toBe(8);
  });

  it('keeps stored vectors usable when the model fails, and embeds only what is missing later', async () => {
    const working = scriptedModel();
    await indexesWith(new SectionEmbedder(working.model, 'scripted', store.sectionEmbeddings)).get(project);
    const before = await storedHashes(store, 'scripted');
    await commit(
      'regions.mdx',
      page('Regions', 'Agents run in four regions.', 'Pick a region when you deploy.'),
    );

    const failing = scriptedModel({ failing: true });
    const partial = await indexesWith(
      new SectionEmbedder(failing.model, 'scripted', store.sectionEmbeddings),
    ).get(project);
    // Seven of eight sections search by meaning from the store; the changed one by its words.
    expect(partial.hasVectors).toBe(true);
    expect(partial.search('four regions')[0]?.urlPath).toBe('/regions');
    expect(logs.at(-1)).toMatchObject({
      level: 40,
      msg: 'embedding the docs failed; sections without a stored vector are searched full-text only',
      error: 'embedding service unavailable',
      reused: 7,
      withoutVector: 1,
    });
    expect(await storedHashes(store, 'scripted')).toEqual(before);

    const recovered = scriptedModel();
    const rebuilt = await indexesWith(
      new SectionEmbedder(recovered.model, 'scripted', store.sectionEmbeddings),
    ).get(project);
    expect(recovered.texts).toEqual([expect.stringContaining('Agents run in four regions.')]);
    expect(await storedHashes(store, 'scripted')).toEqual(hashesOf(rebuilt));
  });

  it('replaces every vector when the model changes its dimensions under the same name', async () => {
    const wide = scriptedModel({ dimensions: 24 });
    await indexesWith(new SectionEmbedder(wide.model, 'scripted', store.sectionEmbeddings)).get(project);
    await commit('keys.mdx', page('API keys', 'Keys authenticate requests.', 'Rotate keys yearly.'));

    const narrow = scriptedModel({ dimensions: 12 });
    const index = await indexesWith(
      new SectionEmbedder(narrow.model, 'scripted', store.sectionEmbeddings),
    ).get(project);
    // The changed section first, then the seven whose stored vectors have the old dimensions.
    expect(narrow.texts).toHaveLength(8);
    const stored = await store.sectionEmbeddings.load('docs', 'scripted');
    expect([...stored.values()].every((vector) => vector.length === 12)).toBe(true);
    const question = 'rotate keys yearly';
    expect(index.search(question, { queryVector: narrow.vectorOf(question) })[0]?.urlPath).toBe('/keys');
    // A question embedded with the old dimensions finds nothing by meaning, and still finds by words.
    expect(index.search(question, { queryVector: wide.vectorOf(question) })[0]?.urlPath).toBe('/keys');
  });

  it('embeds from the model, as without a store, when the database cannot be read', async () => {
    const closed = await openStore(location);
    await closed.close();
    const model = scriptedModel();
    const index = await indexesWith(
      new SectionEmbedder(model.model, 'scripted', closed.sectionEmbeddings),
    ).get(project);
    expect(model.texts).toHaveLength(8);
    expect(index.hasVectors).toBe(true);
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'the stored section embeddings could not be read or updated',
        embedded: 8,
        withoutVector: 0,
      }),
    );
  });

  it('stores float32 bytes, one row per text, apart by project and model', async () => {
    await store.projects.create({ id: 'other', repository: repo.dir, baseRef: 'main' });
    const vector = Float32Array.from([0.1, -2.5, 1e-7, 3]);
    const embeddings = store.sectionEmbeddings;
    await embeddings.save('docs', 'a', new Map([['h1', vector]]));
    await embeddings.save('docs', 'a', new Map([['h2', Float32Array.from([1, 2, 3, 4])]]));
    await embeddings.save('docs', 'b', new Map([['h1', Float32Array.from([9])]]));
    await embeddings.save('other', 'a', new Map([['h1', Float32Array.from([8])]]));
    expect(await embeddings.load('docs', 'a')).toEqual(
      new Map([
        ['h1', vector],
        ['h2', Float32Array.from([1, 2, 3, 4])],
      ]),
    );
    // Saved again, a hash gets the new vector.
    await embeddings.save('docs', 'a', new Map([['h1', Float32Array.from([5, 6])]]));
    expect((await embeddings.load('docs', 'a')).get('h1')).toEqual(Float32Array.from([5, 6]));

    const { rows } = await sql<{ bytes: number }>`select length(vector) as bytes from section_embeddings
      where project_id = 'docs' and model = 'a' and content_hash = 'h2'`.execute(store.database.db);
    expect(Number(rows[0]?.bytes)).toBe(16);

    // A row whose bytes do not match its dimensions is treated as missing (and so embedded again).
    await sql`update section_embeddings set dimensions = 3 where content_hash = 'h2'`.execute(
      store.database.db,
    );
    expect([...(await embeddings.load('docs', 'a')).keys()]).toEqual(['h1']);

    expect(await embeddings.removeExcept('docs', 'a', new Set(['h1']))).toBe(1);
    expect([...(await embeddings.load('docs', 'a')).keys()]).toEqual(['h1']);
    expect((await embeddings.load('docs', 'b')).size).toBe(1);
    expect((await embeddings.load('other', 'a')).size).toBe(1);
  });
});
