/**
 * DOCWRIGHT_EMBEDDING_MODEL=local:… — a sentence-embedding model run in the process by
 * transformers.js. No retrieval model can be downloaded where these tests run, so they build one
 * with the real architecture (a 2-layer BERT encoder, random weights, and a WordPiece tokenizer:
 * test/helpers/tiny-bert.ts) and check what does not depend on trained weights: loading, pooling,
 * storing, searching, and the sentences for what is missing.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { embed, embedMany } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SectionEmbedder, contentHash } from '../src/assistant/embeddings.js';
import { HUB_IDLE_MS, loadLocalEmbeddingModel } from '../src/models/local-embeddings/load-local-model.js';
import { LocalEmbeddingModel, runsOf } from '../src/models/local-embeddings/local-embedding-model.js';
import { fallbackPooling, folderPooling, poolSentences } from '../src/models/local-embeddings/pooling.js';
import {
  LOCAL_EMBEDDING_INSTALL_COMMAND,
  LOCAL_EMBEDDING_PACKAGES,
  importTransformers,
  type TensorLike,
} from '../src/models/local-embeddings/transformers-import.js';
import { ConfigError } from '../src/core/errors.js';
import { loadConfig } from '../src/config/config.js';
import { DocsIndex } from '../src/docs/docs-index.js';
import { embeddingModel, parseEmbeddingSpec } from '../src/models/models.js';
import { openStore } from '../src/store/index.js';
import { startTestService } from './helpers/service.js';
import { writeTinyBertFolder } from './helpers/tiny-bert.js';

const PACKAGE_NAMES = ['@huggingface/transformers', 'onnxruntime-node'];
const require = createRequire(import.meta.url);
const missingPackages = PACKAGE_NAMES.filter((name) => {
  try {
    require.resolve(name);
    return false;
  } catch {
    return true;
  }
});
const skipReason = `${missingPackages.join(' and ')} not installed; install with ${LOCAL_EMBEDDING_INSTALL_COMMAND}`;

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
const WORDS = [
  'money',
  'refund',
  'billing',
  'disputes',
  'regions',
  'deploy',
  'agents',
  'greeting',
  'hello',
  'call',
  'the',
  'a',
  'to',
];
const providers = { openai: {}, anthropic: {} };
const norm = (vector: readonly number[]) => Math.hypot(...vector);
const expectClose = (actual: readonly number[], expected: readonly number[], digits = 5) => {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((value, index) => expect(value).toBeCloseTo(expected[index]!, digits));
};

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'docwright-local-embeddings-'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('DOCWRIGHT_EMBEDDING_MODEL=local:…', () => {
  it('takes a folder (absolute, or relative to the current folder) or a hub id', () => {
    expect(parseEmbeddingSpec('local:/models/bge')).toEqual({
      provider: 'local',
      source: { folder: '/models/bge' },
    });
    expect(parseEmbeddingSpec('local:./models/bge')).toEqual({
      provider: 'local',
      source: { folder: path.resolve('models/bge') },
    });
    expect(parseEmbeddingSpec('local:Xenova/bge-small-en-v1.5')).toEqual({
      provider: 'local',
      source: { hubId: 'Xenova/bge-small-en-v1.5' },
    });
    expect(() => parseEmbeddingSpec('local:not a model')).toThrow(ConfigError);
    expect(() => parseEmbeddingSpec('cohere:embed')).toThrow(
      /use openai:<model> or local:<model folder or hub id>/,
    );
    // The setting names the stored vectors: a relative folder is made absolute once, at start.
    expect(loadConfig({ DOCWRIGHT_EMBEDDING_MODEL: 'local:./models/bge' }).embeddingModel).toBe(
      `local:${path.resolve('models/bge')}`,
    );
    expect(loadConfig({ DOCWRIGHT_EMBEDDING_MODEL: 'local:Xenova/all-MiniLM-L6-v2' }).embeddingModel).toBe(
      'local:Xenova/all-MiniLM-L6-v2',
    );
  });

  it('names what a model folder lacks before loading anything', async () => {
    const load = (folder: string) => embeddingModel(`local:${folder}`, providers);
    await expect(load(path.join(root, 'absent'))).rejects.toThrow(
      /The embedding model folder .*absent does not exist: give a folder with config.json, tokenizer.json, tokenizer_config.json and onnx\/model.onnx/,
    );
    const noTokenizer = writeTinyBertFolder(path.join(root, 'no-tokenizer'));
    fs.rmSync(path.join(noTokenizer, 'tokenizer.json'));
    await expect(load(noTokenizer)).rejects.toThrow(/no-tokenizer has no tokenizer.json/);
    // A clone made without Git LFS holds pointers in place of the weights.
    const pointer = writeTinyBertFolder(path.join(root, 'lfs-pointer'));
    fs.writeFileSync(
      path.join(pointer, 'onnx', 'model.onnx'),
      'version https://git-lfs.github.com/spec/v1\noid sha256:0\nsize 133093490\n',
    );
    await expect(load(pointer)).rejects.toThrow(
      /model.onnx is a Git LFS pointer, not the model: run `git lfs install && git lfs pull`/,
    );
  });

  it('pools as the folder says (sentence-transformers 1_Pooling/config.json), else by name', () => {
    expect(folderPooling(writeTinyBertFolder(path.join(root, 'pool-cls'), { pooling: 'cls' }))).toBe('cls');
    expect(folderPooling(writeTinyBertFolder(path.join(root, 'pool-mean'), { pooling: 'mean' }))).toBe(
      'mean',
    );
    // modules.json may put the pooling module elsewhere.
    const moved = writeTinyBertFolder(path.join(root, 'pool-moved'));
    fs.mkdirSync(path.join(moved, 'pooling'));
    fs.writeFileSync(
      path.join(moved, 'pooling', 'config.json'),
      JSON.stringify({ pooling_mode_cls_token: true, pooling_mode_mean_tokens: false }),
    );
    fs.writeFileSync(
      path.join(moved, 'modules.json'),
      JSON.stringify([
        { idx: 0, name: '0', path: '', type: 'sentence_transformers.models.Transformer' },
        { idx: 1, name: '1', path: 'pooling', type: 'sentence_transformers.models.Pooling' },
      ]),
    );
    expect(folderPooling(moved)).toBe('cls');
    const maxPooled = writeTinyBertFolder(path.join(root, 'pool-max'));
    fs.mkdirSync(path.join(maxPooled, '1_Pooling'));
    fs.writeFileSync(
      path.join(maxPooled, '1_Pooling', 'config.json'),
      JSON.stringify({ pooling_mode_max_tokens: true, pooling_mode_mean_tokens: false }),
    );
    expect(() => folderPooling(maxPooled)).toThrow(
      /pooling \(max_tokens, in .*\) is not supported: docwright pools by cls_token or mean_tokens/,
    );
    // Without a pooling config: BGE models at [CLS], others by the mean.
    expect(folderPooling(writeTinyBertFolder(path.join(root, 'bge-small-en-v1.5')))).toBe('cls');
    expect(folderPooling(writeTinyBertFolder(path.join(root, 'all-MiniLM-L6-v2')))).toBe('mean');
    expect(fallbackPooling('Xenova/bge-small-en-v1.5')).toBe('cls');
    expect(fallbackPooling('BAAI/bge-base-en-v1.5')).toBe('cls');
    expect(fallbackPooling('Xenova/all-MiniLM-L6-v2')).toBe('mean');
    expect(fallbackPooling('intfloat/e5-small-v2')).toBe('mean');
  });

  it('pools token vectors without the padding, to unit length', () => {
    // Two texts, three positions, two dimensions; the second text has one token of padding.
    const hidden = [1, 0, 3, 4, 5, 5, /* second text */ 0, 2, 0, 4, 99, 99];
    const mask = [
      [1, 1, 1],
      [1, 1, 0],
    ];
    const [first, second] = poolSentences(hidden, [2, 3, 2], mask, 'mean');
    expectClose(first!, [9 / Math.hypot(9, 9), 9 / Math.hypot(9, 9)]);
    expectClose(second!, [0, 1]);
    // [CLS]: the first token of the text, wherever padding puts it.
    const [cls] = poolSentences([0, 0, 3, 4], [1, 2, 2], [[0, 1]], 'cls');
    expectClose(cls!, [0.6, 0.8]);
  });

  it('runs the encoder on batches of at most the token budget once padded', () => {
    const lengths = [3, 5, 5, 40, 100];
    expect(runsOf([0, 1, 2, 3, 4], (index) => lengths[index]!, 120)).toEqual([[0, 1, 2], [3], [4]]);
    // A text longer than the budget still runs, alone.
    expect(runsOf([0, 4], (index) => lengths[index]!, 50)).toEqual([[0], [4]]);
  });
});

describe('without @huggingface/transformers and onnxruntime-node', () => {
  it('stops with the sentence naming the command that installs them', async () => {
    // Resolved from a folder with no node_modules, Node's own resolver fails as on a machine
    // without the packages.
    const empty = fs.mkdtempSync(path.join(root, 'no-packages-'));
    const resolveFromEmpty = createRequire(path.join(empty, 'index.js'));
    const importer = (specifier: string) => import(resolveFromEmpty.resolve(specifier));
    const error: unknown = await importTransformers(importer).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      'DOCWRIGHT_EMBEDDING_MODEL=local:… runs the model in this process with @huggingface/transformers and ' +
        'onnxruntime-node, which are not installed (about 470 MB, left out of the default install): run ' +
        '`ONNXRUNTIME_NODE_INSTALL=skip npm install --no-save --save-dev @huggingface/transformers@4.3.1 ' +
        "onnxruntime-node@1.30.0` in docwright's folder, then start again",
    );
  });

  it('serve stops at start with that sentence and no stack trace, and starts when no local model is set', async () => {
    const empty = fs.mkdtempSync(path.join(root, 'no-packages-'));
    // A resolve hook that looks the two packages up from the empty folder: the real resolver, the
    // real error, the real CLI.
    const hook = path.join(root, 'hide-packages.mjs');
    const parentURL = pathToFileURL(path.join(empty, 'index.js')).href;
    const hooks = `export async function resolve(specifier, context, next) {
  if (${JSON.stringify(PACKAGE_NAMES)}.includes(specifier)) return next(specifier, { ...context, parentURL: ${JSON.stringify(parentURL)} });
  return next(specifier, context);
}`;
    fs.writeFileSync(
      hook,
      `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});\n`,
    );
    const serve = (model: string | undefined) =>
      new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
        const env: NodeJS.ProcessEnv = {
          ...process.env,
          LOG_LEVEL: 'warn',
          NODE_OPTIONS: `--import=${hook}`,
        };
        delete env.DOCWRIGHT_EMBEDDING_MODEL;
        if (model) env.DOCWRIGHT_EMBEDDING_MODEL = model;
        const child = spawn(
          process.execPath,
          [
            '--import',
            'tsx',
            'src/cli.ts',
            '--data-dir',
            fs.mkdtempSync(path.join(root, 'data-')),
            'serve',
            '--port',
            '0',
            '--host',
            '127.0.0.1',
          ],
          { env, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes('docwright is serving on')) child.kill('SIGTERM');
        });
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.once('exit', (code) => resolve({ code, stderr, stdout }));
      });
    const folder = writeTinyBertFolder(path.join(root, 'serve-model'), { words: WORDS });
    const failed = await serve(`local:${folder}`);
    expect(failed.code).toBe(1);
    expect(failed.stderr.trim()).toBe(
      `docwright: DOCWRIGHT_EMBEDDING_MODEL=local:… runs the model in this process with @huggingface/transformers and onnxruntime-node, which are not installed (about 470 MB, left out of the default install): run \`${LOCAL_EMBEDDING_INSTALL_COMMAND}\` in docwright's folder, then start again`,
    );
    // Unset, nothing imports the packages: serve starts although they cannot be found.
    const started = await serve(undefined);
    expect(started.stdout).toContain('docwright is serving on');
    expect(started.stderr).not.toMatch(/transformers|onnxruntime/);
  }, 120_000);

  it('is declared as an optional peer of the pinned versions, installed by CI and named in the docs', () => {
    const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8')) as Record<
      string,
      Record<string, unknown> | undefined
    >;
    for (const name of PACKAGE_NAMES) {
      // npm installs dependencies and optional dependencies by default, and non-optional peers too.
      for (const field of ['dependencies', 'optionalDependencies', 'devDependencies'])
        expect(manifest[field]?.[name], `${name} in ${field}`).toBeUndefined();
      expect(manifest.peerDependenciesMeta?.[name]).toEqual({ optional: true });
      const pinned = LOCAL_EMBEDDING_PACKAGES.find((item) => item.startsWith(`${name}@`))!;
      expect(manifest.peerDependencies?.[name]).toBe(`^${pinned.slice(name.length + 1)}`);
    }
    // onnxruntime-node's install script only downloads GPU libraries: never run.
    expect(manifest.allowScripts?.['onnxruntime-node']).toBe(false);
    expect(fs.readFileSync('.ci/run', 'utf8')).toContain(LOCAL_EMBEDDING_INSTALL_COMMAND);
    expect(fs.readFileSync('docs/assistant.mdx', 'utf8')).toContain(LOCAL_EMBEDDING_INSTALL_COMMAND);
  });
});

describe.skipIf(missingPackages.length > 0)('a BERT model folder run by transformers.js', () => {
  let folder: string;
  let model: LocalEmbeddingModel;

  beforeAll(async () => {
    folder = writeTinyBertFolder(path.join(root, 'tiny-bert'), { words: WORDS });
    model = (await embeddingModel(`local:${folder}`, providers)) as LocalEmbeddingModel;
  });

  it('is an AI SDK embedding model (specification v3) giving unit-length vectors', async () => {
    expect(model).toMatchObject({
      specificationVersion: 'v3',
      provider: 'local',
      modelId: `local:${folder}`,
      supportsParallelCalls: false,
      pooling: 'mean',
    });
    expect(model.maxEmbeddingsPerCall).toBeGreaterThan(1);
    const texts = ['how do I get a refund', 'Agents run in three regions', 'how do I get a refund'];
    const { embeddings } = await embedMany({ model, values: texts });
    expect(embeddings.map((vector) => vector.length)).toEqual([32, 32, 32]);
    for (const vector of embeddings) expect(norm(vector)).toBeCloseTo(1, 6);
    expect(embeddings[2]).toEqual(embeddings[0]);
    expect(embeddings[1]).not.toEqual(embeddings[0]);
  });

  it('gives the mean of the encoder token vectors, the same for a text alone or padded beside a long one', async () => {
    const short = 'refund';
    const long =
      'Money charged by mistake is returned to the card within ten days, or the billing disputes page says why not.';
    // What transformers.js's own encoder gives for the short text alone, unpadded, pooled here by hand.
    const transformers = await importTransformers();
    const tokenizer = await transformers.AutoTokenizer.from_pretrained(folder, { local_files_only: true });
    const encoder = await transformers.AutoModel.from_pretrained(folder, { local_files_only: true });
    const encoded = tokenizer([short], { truncation: true, max_length: 512, return_tensor: false });
    const ids = encoded.input_ids[0]!.map(BigInt);
    const tensor = (values: bigint[]) =>
      new transformers.Tensor('int64', BigInt64Array.from(values), [1, values.length]);
    const { last_hidden_state: hidden } = await encoder({
      input_ids: tensor(ids),
      attention_mask: tensor(ids.map(() => 1n)),
      token_type_ids: tensor(ids.map(() => 0n)),
    });
    const [, positions, dimensions] = hidden!.dims as [number, number, number];
    const mean = Array.from({ length: dimensions }, (_, dimension) => {
      let sum = 0;
      for (let position = 0; position < positions; position += 1)
        sum += hidden!.data[position * dimensions + dimension]!;
      return sum / positions;
    });
    const expected = mean.map((value) => value / norm(mean));

    const alone = (await embed({ model, value: short })).embedding;
    expectClose(alone, expected);
    // In one run with the long text, the short one is padded to its length: the encoder's inputs
    // are recorded to show it.
    const runs: number[][] = [];
    const recording = Object.assign(
      (inputs: Record<string, unknown>) => {
        runs.push([...(inputs.attention_mask as TensorLike).dims]);
        return encoder(inputs);
      },
      { config: encoder.config, dispose: () => encoder.dispose() },
    );
    const padded = new LocalEmbeddingModel('recorded', {
      transformers,
      tokenizer,
      model: recording,
      pooling: 'mean',
      maxTokens: 512,
    });
    const { embeddings } = await embedMany({ model: padded, values: [long, short] });
    expect(runs).toHaveLength(1);
    expect(runs[0]![0]).toBe(2);
    expect(runs[0]![1]).toBeGreaterThan(ids.length);
    expectClose(embeddings[1]!, alone);
    expect(norm(embeddings[0]!)).toBeCloseTo(1, 6);
    // The model loaded from the setting gives the same vectors.
    const { embeddings: fromSetting } = await embedMany({ model, values: [long, short] });
    fromSetting.forEach((vector, position) => expectClose(vector, embeddings[position]!));
  });

  it('reads [CLS] when the folder says so, padded or not', async () => {
    const clsFolder = writeTinyBertFolder(path.join(root, 'tiny-bert-cls'), { words: WORDS, pooling: 'cls' });
    const cls = (await embeddingModel(`local:${clsFolder}`, providers)) as LocalEmbeddingModel;
    expect(cls.pooling).toBe('cls');
    const alone = (await embed({ model: cls, value: 'refund' })).embedding;
    const { embeddings } = await embedMany({
      model: cls,
      values: ['the agent says hello when the call connects', 'refund'],
    });
    expectClose(embeddings[1]!, alone);
    expect(norm(alone)).toBeCloseTo(1, 6);
    // Same weights (same seed), another pooling: another vector.
    expect(alone).not.toEqual((await embed({ model, value: 'refund' })).embedding);
  });

  it('loads a folder holding only the quantized model file', async () => {
    const quantized = writeTinyBertFolder(path.join(root, 'tiny-bert-q8'), {
      words: WORDS,
      quantizedFileOnly: true,
    });
    const loaded = await embeddingModel(`local:${quantized}`, providers);
    expect((await embed({ model: loaded, value: 'refund' })).embedding).toHaveLength(32);
  });

  it('embeds sections into the SQLite store of section vectors, and hybrid search uses them', async () => {
    const dataDir = fs.mkdtempSync(path.join(root, 'store-'));
    const store = await openStore({ dataDir });
    await store.projects.create({ id: 'docs', repository: '/repo', baseRef: 'main' });
    const name = `local:${folder}`;
    const embedder = new SectionEmbedder(model, name, store.sectionEmbeddings);
    const index = DocsIndex.build(files);
    expect(await embedder.embedIndex(index, 'docs')).toMatchObject({
      sections: 3,
      embedded: 3,
      withoutVector: 0,
    });

    const stored = await store.sectionEmbeddings.load('docs', name);
    expect(stored.size).toBe(3);
    const texts = index.sectionTexts().map((section) => section.text);
    const { embeddings } = await embedMany({ model, values: texts });
    texts.forEach((text, position) => {
      const vector = stored.get(contentHash(text))!;
      expect(vector).toHaveLength(32);
      expectClose(Array.from(vector), embeddings[position]!);
    });
    // Built again (a restart): every vector comes from the store, none from the model.
    const again = DocsIndex.build(files);
    expect(await embedder.embedIndex(again, 'docs')).toMatchObject({ embedded: 0, reused: 3 });

    // A question whose words find only the billing page, asked with the vector of the greeting
    // page's own text: fused, the nearest section by meaning joins the ranking.
    const question = 'money charged by mistake';
    const greeting = index.sectionTexts().find((section) => section.text.includes('hello'))!;
    expect(again.search(question).map((hit) => hit.urlPath)).toEqual(['/billing/disputes']);
    const queryVector = await embedder.embedQuery(greeting.text);
    const fused = again.search(question, { queryVector });
    expect(fused.map((hit) => hit.urlPath)).toContain('/voice/greeting');
    expect(fused.map((hit) => hit.urlPath)).toContain('/billing/disputes');
    expect(fused.every((hit) => hit.lexicalScore === undefined)).toBe(true);
    for (const built of [index, again]) built.close();
    await store.close();
  });

  it('serves hybrid answers with a hub model kept in <data dir>/models, its vectors in the database', async () => {
    // A hub model downloaded before, where serve downloads it: the start needs no network.
    const dataDir = fs.mkdtempSync(path.join(root, 'service-'));
    writeTinyBertFolder(path.join(dataDir, 'models', 'docwright-tests', 'tiny-encoder'), { words: WORDS });
    const name = 'local:docwright-tests/tiny-encoder';
    const t = await startTestService({ config: { dataDir, embeddingModel: name }, startWorker: false });
    try {
      const response = await t.service.app.request('/discovery/v2/assistant/docs/message', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${t.assistantKey}` },
        body: JSON.stringify({
          fp: 'anonymous',
          messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'How do I install it?' }] }],
        }),
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('"type":"source-url"');
      const stored = await t.service.store.sectionEmbeddings.load('docs', name);
      expect(stored.size).toBeGreaterThan(3);
      for (const vector of stored.values()) expect(norm(Array.from(vector))).toBeCloseTo(1, 5);
    } finally {
      await t.cleanup();
    }
  });

  it('downloads a hub model into the cache folder through transformers.js, then loads it without the hub', async () => {
    // A hub on loopback serving a model's files as the Hugging Face hub does:
    // <id>/resolve/<revision>/<file>, with range requests for a file's size.
    const served = writeTinyBertFolder(path.join(root, 'hub-files'), { words: WORDS, pooling: 'mean' });
    const requested: string[] = [];
    const hub = http.createServer((request, response) => {
      const file = /^\/docwright-tests\/tiny-encoder\/resolve\/main\/(.+)$/.exec(request.url ?? '')?.[1];
      const full = file === undefined ? undefined : path.join(served, decodeURIComponent(file));
      if (!full || !fs.existsSync(full)) return void response.writeHead(404).end();
      requested.push(file!);
      const size = fs.statSync(full).size;
      if (request.headers.range === 'bytes=0-0') {
        response.writeHead(206, { 'content-range': `bytes 0-0/${size}`, 'content-length': '1' });
        return void response.end(fs.readFileSync(full).subarray(0, 1));
      }
      response.writeHead(200, { 'content-length': String(size) });
      fs.createReadStream(full).pipe(response);
    });
    await new Promise<void>((resolve) => hub.listen(0, '127.0.0.1', resolve));
    const hubUrl = `http://127.0.0.1:${(hub.address() as net.AddressInfo).port}/`;
    const cacheDir = fs.mkdtempSync(path.join(root, 'download-'));
    const source = { hubId: 'docwright-tests/tiny-encoder' };
    try {
      const downloaded = await loadLocalEmbeddingModel('local:docwright-tests/tiny-encoder', source, {
        cacheDir,
        hubUrl,
      });
      expect(requested).toEqual(expect.arrayContaining(['config.json', 'tokenizer.json', 'onnx/model.onnx']));
      const vector = (await embed({ model: downloaded, value: 'refund' })).embedding;
      expect(
        fs.existsSync(path.join(cacheDir, 'docwright-tests', 'tiny-encoder', 'onnx', 'model.onnx')),
      ).toBe(true);
      // The same vectors as the folder the hub served.
      const fromFolder = await embeddingModel(`local:${served}`, providers);
      expectClose(vector, (await embed({ model: fromFolder, value: 'refund' })).embedding);
    } finally {
      await new Promise((resolve) => hub.close(resolve));
    }
    // The hub gone, the next start loads the cached folder.
    requested.length = 0;
    const again = await loadLocalEmbeddingModel('local:docwright-tests/tiny-encoder', source, {
      cacheDir,
      hubUrl,
    });
    expect((await embed({ model: again, value: 'refund' })).embedding).toHaveLength(32);
    expect(requested).toEqual([]);
  });

  it('cuts a text at the positions the model has', async () => {
    // tokenizer_config.json without a usable limit, as some exports have: the encoder's 128
    // positions bound the text, else ONNX Runtime would fail on position 128.
    const unbounded = writeTinyBertFolder(path.join(root, 'tiny-bert-unbounded'), {
      words: WORDS,
      maxPositions: 128,
    });
    const configFile = path.join(unbounded, 'tokenizer_config.json');
    const tokenizerConfig = JSON.parse(fs.readFileSync(configFile, 'utf8'));
    fs.writeFileSync(configFile, JSON.stringify({ ...tokenizerConfig, model_max_length: 1e30 }));
    const loaded = await embeddingModel(`local:${unbounded}`, providers);
    const long = Array.from({ length: 700 }, () => 'refund').join(' ');
    const { embeddings } = await embedMany({ model: loaded, values: [long, 'refund'] });
    expect(norm(embeddings[0]!)).toBeCloseTo(1, 6);
  });

  it('reads a hub model from the cache without the network, and gives up on a silent hub in words', async () => {
    // A hub that accepts connections and never answers (a firewall that drops, a dead proxy).
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const hubUrl = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/`;
    const cacheDir = fs.mkdtempSync(path.join(root, 'models-'));
    try {
      const started = Date.now();
      const error: unknown = await loadLocalEmbeddingModel(
        'local:Xenova/all-MiniLM-L6-v2',
        { hubId: 'Xenova/all-MiniLM-L6-v2' },
        { cacheDir, hubUrl, hubIdleMs: 300 },
      ).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(
        /^Cannot download the embedding model Xenova\/all-MiniLM-L6-v2 from http:\/\/127\.0\.0\.1:\d+\/ \(no answer from .* within 0\.3 s\)\. On a machine that cannot reach the hub, copy the model's folder to it and set DOCWRIGHT_EMBEDDING_MODEL=local:\/path\/to\/folder$/,
      );
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(HUB_IDLE_MS).toBe(30_000);

      // A hub whose name does not resolve: at once.
      const unresolved = Date.now();
      await expect(
        loadLocalEmbeddingModel(
          'local:Xenova/all-MiniLM-L6-v2',
          { hubId: 'Xenova/all-MiniLM-L6-v2' },
          {
            cacheDir,
            hubUrl: 'http://hub.invalid/',
          },
        ),
      ).rejects.toThrow(
        /from http:\/\/hub\.invalid\/ \(fetch failed: getaddrinfo (ENOTFOUND|EAI_AGAIN) hub\.invalid\)/,
      );
      expect(Date.now() - unresolved).toBeLessThan(10_000);

      // Downloaded before (here: put where downloads go), it loads with the hub unreachable.
      writeTinyBertFolder(path.join(cacheDir, 'Xenova', 'all-MiniLM-L6-v2'), { words: WORDS });
      const cached = await loadLocalEmbeddingModel(
        'local:Xenova/all-MiniLM-L6-v2',
        { hubId: 'Xenova/all-MiniLM-L6-v2' },
        { cacheDir, hubUrl, hubIdleMs: 300 },
      );
      expect(cached.pooling).toBe('mean');
      expect((await embed({ model: cached, value: 'refund' })).embedding).toHaveLength(32);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

if (missingPackages.length > 0) {
  describe('a BERT model folder run by transformers.js', () => {
    it.skip(`skipped: ${skipReason}`, () => {});
  });
}

// .ci/run installs the pair: were that line to install nothing, the tests above would only be
// skipped, and CI would pass without them.
describe.skipIf(!process.env.CI)('where CI runs', () => {
  it('has @huggingface/transformers and onnxruntime-node installed', () => {
    expect(missingPackages).toEqual([]);
  });
});
