import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MockEmbeddingModelV3 } from 'ai/test';
import { DocsIndexes } from '../src/assistant/docs-indexes.js';
import { SectionEmbedder } from '../src/assistant/embeddings.js';
import { LocalGitForge } from '../src/forge/local-git.js';
import { silentLogger } from '../src/core/logger.js';
import { startTestService, type TestService } from './helpers/service.js';

const commitPage = async (repo: string, file: string, content: string) => {
  await fs.writeFile(path.join(repo, file), content);
  execFileSync('git', ['-C', repo, 'add', file]);
  execFileSync('git', [
    '-C',
    repo,
    '-c',
    'user.name=t',
    '-c',
    'user.email=t@t',
    'commit',
    '-qm',
    `add ${file}`,
  ]);
};

describe('per-project docs indexes', () => {
  let t: TestService | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('builds once for concurrent requests and rebuilds when the base branch moves', async () => {
    t = await startTestService({ startWorker: false });
    let clock = 0;
    const indexes = new DocsIndexes({
      forge: new LocalGitForge({ environment: process.env }),
      logger: silentLogger,
      recheckMs: 1000,
      now: () => clock,
    });
    const project = (await t.service.store.projects.get('docs'))!;
    const [first, second] = await Promise.all([indexes.get(project), indexes.get(project)]);
    expect(first).toBe(second);
    expect(first.search('webhook signatures')).toEqual([]);

    await commitPage(
      t.repo,
      'webhooks.mdx',
      '---\ntitle: Webhooks\n---\n\n## Signatures\n\nEvery webhook carries an HMAC signature header.\n',
    );
    expect(await indexes.get(project)).toBe(first); // within recheckMs: the built index is trusted
    clock += 1001;
    const rebuilt = await indexes.get(project);
    expect(rebuilt).not.toBe(first);
    expect(rebuilt.search('webhook signatures')[0]).toMatchObject({
      url: '/webhooks#signatures',
      pageTitle: 'Webhooks',
    });
    clock += 1001;
    expect(await indexes.get(project)).toBe(rebuilt); // head unchanged: no rebuild
    indexes.close();
  });

  it('a finished job run invalidates the project index, so the assistant sees a merged change at once', async () => {
    t = await startTestService();
    const ask = async (question: string) => {
      const response = await t!.service.app.request('/discovery/v2/assistant/docs/message', {
        method: 'POST',
        headers: { authorization: `Bearer ${t!.assistantKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          fp: 'x',
          messages: [{ role: 'user', parts: [{ type: 'text', text: question }] }],
        }),
      });
      return response.text();
    };
    expect(await ask('webhook signatures')).not.toContain('/webhooks');
    await commitPage(
      t.repo,
      'webhooks.mdx',
      '---\ntitle: Webhooks\n---\n\n## Signatures\n\nEvery webhook carries an HMAC signature header.\n',
    );
    const { body: job } = await t.request('POST', '/v2/agent/docs/job', {
      body: { prompt: 'replace "Acme Cloud" with "Acme Cloud"' },
    });
    await t.waitForJob(job.id);
    expect(await ask('webhook signatures')).toContain('/webhooks#signatures');
  });

  it('reads snippets and .mintignore from the repository, and embeds the sections when a model is set', async () => {
    t = await startTestService({ startWorker: false });
    await fs.mkdir(path.join(t.repo, 'snippets'), { recursive: true });
    await commitPage(t.repo, 'snippets/steps.mdx', 'Turn on the subpath toggle in the dashboard.\n');
    await commitPage(
      t.repo,
      'subpath.mdx',
      '---\ntitle: Subpath\n---\n\nimport Steps from "/snippets/steps.mdx";\n\n<Steps />\n',
    );
    await fs.mkdir(path.join(t.repo, 'drafts'), { recursive: true });
    await commitPage(t.repo, 'drafts/plan.mdx', '---\ntitle: Plan\n---\n\nSecret subpath roadmap.\n');
    await commitPage(t.repo, '.mintignore', 'drafts/\n');
    let failing = false;
    const model = new MockEmbeddingModelV3({
      doEmbed: ({ values }) =>
        failing
          ? Promise.reject(new Error('embedding service unavailable'))
          : Promise.resolve({ embeddings: values.map((value) => [value.length % 7, 1]), warnings: [] }),
    });
    const indexes = new DocsIndexes({
      forge: new LocalGitForge({ environment: process.env }),
      logger: silentLogger,
      embedder: new SectionEmbedder(model, 'scripted'),
    });
    const project = (await t.service.store.projects.get('docs'))!;
    const index = await indexes.get(project);
    expect(index.search('subpath toggle')[0]?.urlPath).toBe('/subpath');
    expect(index.page('/drafts/plan')).toBeUndefined();
    expect(index.hasVectors).toBe(true);
    expect(model.doEmbedCalls.length).toBeGreaterThan(0);

    // A failing embedding model leaves a working full-text index.
    failing = true;
    await commitPage(t.repo, 'more.mdx', '---\ntitle: More\n---\n\nAnother page about subpaths.\n');
    indexes.invalidate(project.id);
    const rebuilt = await indexes.get(project);
    expect(rebuilt).not.toBe(index);
    expect(rebuilt.hasVectors).toBe(false);
    expect(rebuilt.search('another page subpaths')[0]?.urlPath).toBe('/more');
    indexes.close();
  });
});
