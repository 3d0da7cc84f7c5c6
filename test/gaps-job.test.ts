import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pullRequestBodyFromStore } from '../src/engine/pull-request-body.js';
import type { Job } from '../src/protocol/agent-job.js';
import type { GapsReport } from '../src/protocol/feedback.js';
import { loadConfig } from '../src/config/config.js';
import { listen, type LocalServer } from './helpers/listen.js';
import { serveOpenAIStandIn } from './helpers/openai-stand-in.js';
import { addOwnDocsProject, ask, rate } from './helpers/reader-feedback.js';
import { startTestService, type TestService } from './helpers/service.js';

const run = promisify(execFile);
const CLI = ['--import', 'tsx', 'src/cli.ts'];

const CONFLUENCE = [
  'Can I import our pages from Confluence?',
  'How do I migrate a Confluence space into the docs?',
  'Is there a Confluence importer?',
];

/** Polls a job of project `own` through the API until it is no longer active. */
async function settled(t: TestService, id: string, key: string): Promise<Job> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const job = (await t.request('GET', `/v2/agent/own/job/${id}`, { key })).body as Job;
    if (job.status !== 'active' || Date.now() > deadline) return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a job from a gap', () => {
  let t: TestService;
  let adminKey: string;
  let server: LocalServer;
  let gapId: string;

  beforeAll(async () => {
    t = await startTestService({ startWorker: false });
    const keys = await addOwnDocsProject(t);
    adminKey = keys.adminKey;
    for (const [index, question] of [...CONFLUENCE, ...CONFLUENCE].entries()) {
      const answer = await ask(t, 'own', keys.assistantKey, question, `reader-${index}`);
      if (index === 0)
        await rate(t, 'own', keys.assistantKey, {
          threadId: answer.threadId,
          messageId: answer.messageId,
          rating: 'down',
          comment: 'We are moving off Confluence and need this.',
        });
    }
    const report = (await t.request('GET', '/v2/agent/own/gaps', { key: adminKey })).body as GapsReport;
    gapId = report.gaps[0]!.id;
    server = await listen((request) => t.service.app.fetch(request));
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await t.cleanup();
  });

  it('creates a job whose prompt carries the questions, the comments and the closest pages', async () => {
    const created = await t.request('POST', `/v2/agent/own/gaps/${gapId}/job`, { key: adminKey });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'active', prLink: null });
    expect(created.headers.get('ratelimit-limit')).toBeTruthy();
    const job = (await t.request('GET', `/v2/agent/own/job/${created.body.id}`, { key: adminKey })).body;
    const prompt: string = job.messages[0].content;
    for (const question of CONFLUENCE) expect(prompt).toContain(`"${question}"`);
    expect(prompt).toContain('"We are moving off Confluence and need this."');
    expect(prompt).toMatch(/Closest pages[^\n]*\n- [^\n]+ \(\/[^)]*\)/);
    expect(prompt).toMatch(/6 question\(s\) from 6 reader\(s\)/);
  });

  it('404 naming the gap when no gap has the id', async () => {
    const response = await t.request('POST', '/v2/agent/own/gaps/gap_000000000000/job', { key: adminKey });
    expect(response.status).toBe(404);
    expect(response.body.error).toBe('No gap gap_000000000000 in the last 30d; list the gaps again');
  });

  it('docwright gaps prints the table, --json the report, --job starts the job', async () => {
    const env = { ...process.env, DOCWRIGHT_URL: server.url, DOCWRIGHT_KEY: adminKey, NO_COLOR: '1' };
    const text = await run(process.execPath, [...CLI, 'gaps', '--project', 'own'], { env });
    expect(text.stdout).toMatch(/^1 gap\(s\) in the last 30d of project own \(6 question\(s\) read\)/);
    expect(text.stdout).toMatch(/GAP\s+READERS\s+QUESTIONS\s+LAST SEEN\s+ASKED/);
    expect(text.stdout).toContain(gapId);
    expect(text.stdout).toContain('comment: We are moving off Confluence and need this.');

    const json = await run(
      process.execPath,
      [...CLI, 'gaps', '--project', 'own', '--since', '7d', '--json'],
      { env },
    );
    const report = JSON.parse(json.stdout) as GapsReport;
    expect(report).toMatchObject({ project: 'own', since: '7d', questions: 6 });
    expect(report.gaps[0]).toMatchObject({ id: gapId, readers: 6, count: 6 });

    const job = await run(process.execPath, [...CLI, '--json', 'gaps', '--project', 'own', '--job', gapId], {
      env,
    });
    expect(JSON.parse(job.stdout)).toMatchObject({ status: 'active' });

    const missing = await run(process.execPath, [...CLI, 'gaps', '--project', 'own', '--job', 'gap_nope'], {
      env,
    }).catch((error: { code: number; stderr: string }) => error);
    expect(missing).toMatchObject({ code: 1 });
    expect((missing as { stderr: string }).stderr).toMatch(/No gap gap_nope in the last 30d/);
  }, 60_000);
});

describe('a job from a gap, run by the built-in agent', () => {
  let t: TestService;

  beforeAll(async () => {
    t = await startTestService();
  }, 60_000);
  afterAll(() => t?.cleanup());

  it('answers in words that writing the docs needs a model, and changes nothing', async () => {
    const keys = await addOwnDocsProject(t);
    for (const [index, question] of CONFLUENCE.entries())
      await ask(t, 'own', keys.assistantKey, question, `reader-${index}`);
    const report = (await t.request('GET', '/v2/agent/own/gaps', { key: keys.adminKey })).body as GapsReport;
    const gapId = report.gaps[0]!.id;
    const repo = path.join(t.dataDir, 'own-repo');
    const head = async () => (await run('git', ['-C', repo, 'rev-parse', 'main'])).stdout.trim();
    const before = await head();

    const created = await t.request('POST', `/v2/agent/own/gaps/${gapId}/job`, { key: keys.adminKey });
    expect(created.status).toBe(201);
    const job = await settled(t, created.body.id, keys.adminKey);
    expect(job).toMatchObject({ status: 'completed', changed: false, prLink: null });
    expect(job.reply).toMatch(/Free-form requests need a model: set `DOCWRIGHT_MODEL=/);
    expect(await head()).toBe(before);

    // The request names the gap, and so does the description of a pull request made from it.
    expect(job.messages![0]!.content).toContain(`gap ${gapId}`);
    const row = await t.service.store.jobs.get('own', job.id);
    const body = await pullRequestBodyFromStore(t.service.store, 'https://github.com')(row!, 'Added a page.');
    expect(body).toContain(gapId);
  }, 60_000);
});

describe('a job from a gap, run by a model', () => {
  let t: TestService;
  let model: Awaited<ReturnType<typeof serveOpenAIStandIn>>;
  const PAGE = 'confluence.mdx';

  beforeAll(async () => {
    model = await serveOpenAIStandIn([
      // The assistant answers the readers with the same model: one answer each.
      ...CONFLUENCE.map(() => ({ text: 'The docs do not cover Confluence.' })),
      { calls: [['search_docs', { query: 'Confluence import' }]] },
      {
        calls: [
          [
            'write_file',
            {
              path: PAGE,
              content:
                '---\ntitle: Pages from Confluence\n---\n\ndocwright does not import Confluence spaces: export the pages as Markdown and add them to the docs.\n',
            },
          ],
        ],
      },
      { text: 'Added a page on bringing pages over from Confluence.' },
    ]);
    const settings = loadConfig(
      {
        DOCWRIGHT_MODEL: 'openai:gpt-4o-mini',
        OPENAI_API_KEY: `sk-${'k'.repeat(40)}`,
        OPENAI_BASE_URL: model.url,
      },
      { dataDir: os.tmpdir() },
    );
    t = await startTestService({ config: { model: settings.model, providers: settings.providers } });
  }, 60_000);
  afterAll(async () => {
    await model?.close();
    await t?.cleanup();
  });

  it('hands the model the readers’ questions, and commits the page it drafts', async () => {
    const keys = await addOwnDocsProject(t);
    for (const [index, question] of CONFLUENCE.entries())
      await ask(t, 'own', keys.assistantKey, question, `reader-${index}`);
    const report = (await t.request('GET', '/v2/agent/own/gaps', { key: keys.adminKey })).body as GapsReport;
    const gapId = report.gaps[0]!.id;

    const created = await t.request('POST', `/v2/agent/own/gaps/${gapId}/job`, { key: keys.adminKey });
    expect(created.status).toBe(201);
    const job = await settled(t, created.body.id, keys.adminKey);
    expect(job, String(job.error)).toMatchObject({ status: 'completed', changed: true });
    expect(job.reply).toMatch(
      /^Added a page on bringing pages over from Confluence\.[\s\S]*`confluence\.mdx`/,
    );

    const request = JSON.stringify(model.bodies[CONFLUENCE.length]!.messages);
    for (const question of CONFLUENCE) expect(request).toContain(question);
    expect(request).toContain(gapId);
    const repo = path.join(t.dataDir, 'own-repo');
    const page = await run('git', ['-C', repo, 'show', `${job.source.ref}:${PAGE}`]);
    expect(page.stdout).toContain('does not import Confluence spaces');
  }, 60_000);
});
