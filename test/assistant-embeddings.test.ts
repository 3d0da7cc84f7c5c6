import nock from 'nock';
import { MockEmbeddingModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SectionEmbedder } from '../src/assistant/embeddings.js';
import { retrieve } from '../src/assistant/retrieve.js';
import { DocsIndex } from '../src/docs/docs-index.js';
import { loadConfig } from '../src/config/config.js';
import { embeddingModel } from '../src/models/models.js';
import { openStore } from '../src/store/index.js';

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;
const files = [
  {
    path: 'billing/disputes.mdx',
    content: page('Billing disputes', 'Money charged by mistake is returned to the card within ten days.'),
  },
  {
    path: 'deploy/regions.mdx',
    content: page('Regions', 'Agents run in three regions; choose one when you deploy.'),
  },
  { path: 'voice/greeting.mdx', content: page('Greeting', 'The agent says hello when the call connects.') },
];

/**
 * A scripted embedding: one dimension per topic, set by the words that name it. It stands for a
 * model that knows "refund" and "money returned" mean the same, which full-text search cannot.
 */
const TOPICS = [/refund|money|billing|charged/i, /region|deploy|where .* run/i, /hello|greeting|call/i];
const embedText = (text: string) => TOPICS.map((topic) => (topic.test(text) ? 1 : 0.01));

const question = 'how do I get a refund';

interface EmbeddingsRequest {
  model: string;
  input: string[];
}

/** What OpenAI's `POST /v1/embeddings` answers, with the scripted vectors. */
const embeddingsResponse = (request: EmbeddingsRequest) => ({
  object: 'list',
  data: request.input.map((text, index) => ({ object: 'embedding', index, embedding: embedText(text) })),
  model: request.model,
  usage: { prompt_tokens: 10, total_tokens: 10 },
});

describe('hybrid retrieval with an embedding model', () => {
  it('fuses the sections nearest in meaning with the full-text ranking (scripted model)', async () => {
    const model = new MockEmbeddingModelV3({
      maxEmbeddingsPerCall: 2,
      doEmbed: ({ values }) => Promise.resolve({ embeddings: values.map(embedText), warnings: [] }),
    });
    const index = DocsIndex.build(files);
    expect(index.search(question).map((hit) => hit.urlPath)).not.toContain('/billing/disputes');

    const embedder = new SectionEmbedder(model, 'scripted');
    expect(await embedder.embedIndex(index, 'docs')).toMatchObject({ sections: 3, embedded: 3, reused: 0 });
    // Three sections, two per call: embedMany batches to the model's limit.
    expect(model.doEmbedCalls).toHaveLength(2);
    const vector = await embedder.embedQuery(question);
    const { passages } = retrieve(
      index,
      { conversation: [{ role: 'user', text: question }], retrievalPageSize: 3 },
      vector,
    );
    expect(passages[0]?.urlPath).toBe('/billing/disputes');
    // Filters hold for the vector side too.
    const french = index.search(question, { queryVector: vector, filter: { language: 'fr' } });
    expect(french).toEqual([]);
    index.close();
  });
});

describe('stored section embeddings', () => {
  it('keeps what a model returned before it failed, so the next build sends only the rest', async () => {
    // More sections than one round of texts (four requests of 2,048), so the texts go in two rounds.
    const many = Array.from({ length: 8300 }, (_, number) => ({
      path: `pages/page-${number}.mdx`,
      content: page(`Page ${number}`, `Body of page number ${number}.`),
    }));
    let failSecondRound = true;
    const rounds: number[] = [];
    const model = new MockEmbeddingModelV3({
      maxEmbeddingsPerCall: 2048,
      doEmbed: ({ values }) => {
        if (failSecondRound && rounds.reduce((sum, count) => sum + count, 0) >= 8192)
          return Promise.reject(new Error('rate limited'));
        rounds.push(values.length);
        return Promise.resolve({ embeddings: values.map(() => [1, 0]), warnings: [] });
      },
    });
    const store = await openStore({ memory: true });
    await store.projects.create({ id: 'docs', repository: '/repo', baseRef: 'main' });
    const embedder = new SectionEmbedder(model, 'scripted', store.sectionEmbeddings);
    const index = DocsIndex.build(many);
    const failed = await embedder.embedIndex(index, 'docs');
    expect(failed).toMatchObject({ embedded: 8192, withoutVector: 108 });
    expect(failed.modelError?.message).toMatch(/rate limited/);
    expect((await store.sectionEmbeddings.load('docs', 'scripted')).size).toBe(8192);

    failSecondRound = false;
    rounds.length = 0;
    const again = await embedder.embedIndex(index, 'docs');
    expect(again).toMatchObject({ embedded: 108, reused: 8192, withoutVector: 0 });
    expect(rounds).toEqual([108]);
    index.close();
    await store.close();
  });
});

describe('hybrid retrieval through the OpenAI provider (network mocked by nock)', () => {
  beforeEach(() => nock.disableNetConnect());
  afterEach(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });

  it('embeds the sections and the question with text-embedding-3-small', async () => {
    const requests: EmbeddingsRequest[] = [];
    nock('https://api.openai.com', { reqheaders: { authorization: 'Bearer sk-test' } })
      .post('/v1/embeddings')
      .times(2)
      .reply(200, (_uri, body) => {
        requests.push(body as EmbeddingsRequest);
        return embeddingsResponse(body as EmbeddingsRequest);
      });
    const model = await embeddingModel('openai:text-embedding-3-small', {
      openai: { apiKey: 'sk-test' },
      anthropic: {},
    });
    const index = DocsIndex.build(files);
    const embedder = new SectionEmbedder(model, 'openai:text-embedding-3-small');
    await embedder.embedIndex(index, 'docs');
    const vector = await embedder.embedQuery(question);
    expect(requests.map((request) => request.model)).toEqual([
      'text-embedding-3-small',
      'text-embedding-3-small',
    ]);
    expect(requests[0]!.input).toHaveLength(3);
    expect(requests[1]!.input).toEqual([question]);
    const fused = index.search(question, { queryVector: vector });
    expect(fused[0]?.urlPath).toBe('/billing/disputes');
    // Fused scores are reciprocal ranks: no lexical score to single a page out by.
    expect(fused.every((hit) => hit.lexicalScore === undefined)).toBe(true);
    expect(index.search(question).every((hit) => hit.lexicalScore !== undefined)).toBe(true);
    index.close();
  });

  it('sends the provider only text it has not embedded before, with the vectors stored', async () => {
    const inputs: string[][] = [];
    nock('https://api.openai.com')
      .post('/v1/embeddings')
      .times(3)
      .reply(200, (_uri, body) => {
        inputs.push((body as EmbeddingsRequest).input);
        return embeddingsResponse(body as EmbeddingsRequest);
      });
    const store = await openStore({ memory: true });
    await store.projects.create({ id: 'docs', repository: '/repo', baseRef: 'main' });
    const model = await embeddingModel('openai:text-embedding-3-small', {
      openai: { apiKey: 'sk-test' },
      anthropic: {},
    });
    const embedder = new SectionEmbedder(model, 'openai:text-embedding-3-small', store.sectionEmbeddings);

    const first = DocsIndex.build(files);
    expect(await embedder.embedIndex(first, 'docs')).toMatchObject({ embedded: 3, reused: 0 });
    // The same docs again (a restart, another replica): no request at all.
    const again = DocsIndex.build(files);
    expect(await embedder.embedIndex(again, 'docs')).toMatchObject({
      embedded: 0,
      reused: 3,
      withoutVector: 0,
    });
    // One page edited: only its text goes out.
    const edited = DocsIndex.build([
      ...files.slice(0, 2),
      { path: 'voice/greeting.mdx', content: page('Greeting', 'The agent says hello when a call starts.') },
    ]);
    expect(await embedder.embedIndex(edited, 'docs')).toMatchObject({ embedded: 1, reused: 2 });
    expect(inputs[1]).toEqual([expect.stringContaining('when a call starts')]);
    const vector = await embedder.embedQuery(question);
    expect(inputs.map((input) => input.length)).toEqual([3, 1, 1]);
    expect(again.search(question, { queryVector: vector })[0]?.urlPath).toBe('/billing/disputes');
    for (const index of [first, again, edited]) index.close();
    await store.close();
  });

  it('fails in words when the provider refuses, and the index still searches by text', async () => {
    nock('https://api.openai.com')
      .post('/v1/embeddings')
      .reply(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
    const model = await embeddingModel('openai:text-embedding-3-small', {
      openai: { apiKey: 'sk-wrong' },
      anthropic: {},
    });
    const index = DocsIndex.build(files);
    const report = await new SectionEmbedder(model, 'openai').embedIndex(index, 'docs');
    expect(report.modelError?.message).toMatch(/Incorrect API key/);
    expect(report).toMatchObject({ vectors: undefined, embedded: 0, withoutVector: 3 });
    expect(index.hasVectors).toBe(false);
    expect(index.search('regions deploy')[0]?.urlPath).toBe('/deploy/regions');
    index.close();
  });
});

describe('DOCWRIGHT_EMBEDDING_MODEL', () => {
  it('is optional, and names the problem when it cannot be used', async () => {
    expect(loadConfig({}).embeddingModel).toBeUndefined();
    expect(loadConfig({ DOCWRIGHT_EMBEDDING_MODEL: 'openai:text-embedding-3-small' }).embeddingModel).toBe(
      'openai:text-embedding-3-small',
    );
    expect(() => loadConfig({ DOCWRIGHT_EMBEDDING_MODEL: 'anthropic:claude' })).toThrow(
      /DOCWRIGHT_EMBEDDING_MODEL: must be openai:<embedding model> or local:<model folder or hub id>/,
    );
    await expect(
      embeddingModel('openai:text-embedding-3-small', { openai: {}, anthropic: {} }),
    ).rejects.toThrow(/needs OPENAI_API_KEY/);
  });
});
