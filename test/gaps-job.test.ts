import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GapsReport } from '../src/protocol/feedback.js';
import { listen, type LocalServer } from './helpers/listen.js';
import { addOwnDocsProject, ask, rate } from './helpers/reader-feedback.js';
import { startTestService, type TestService } from './helpers/service.js';

const run = promisify(execFile);
const CLI = ['--import', 'tsx', 'src/cli.ts'];

const CONFLUENCE = [
  'Can I import our pages from Confluence?',
  'How do I migrate a Confluence space into the docs?',
  'Is there a Confluence importer?',
];

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
