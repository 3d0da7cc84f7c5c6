import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ActionContext } from '../src/action/context.js';
import { parseEvent } from '../src/action/event.js';
import { parseInputs } from '../src/action/inputs.js';
import { failureOf, outputsOf, summaryMarkdown } from '../src/action/outcome.js';
import { runAction } from '../src/action/run-action.js';
import { DocwrightClient } from '../src/client/index.js';
import { jobMarker, renderStatusComment } from '../src/github/index.js';
import type { Job } from '../src/protocol/agent-job.js';
import { examplePayload, quietOctokit, jobFixture } from './helpers/github-recorder.js';

const API = 'https://docwright.test';
const GITHUB = 'https://api.github.com';
const REPO = '/repos/Codertocat/Hello-World';
const INSTRUCTION = 'replace "Acme Cloud" with "Acme Platform"';
const bot = { login: 'github-actions[bot]', type: 'Bot' };

const job = jobFixture;
const done = (fields: Partial<Job> = {}) =>
  job({
    status: 'completed',
    messages: [
      { role: 'user', content: INSTRUCTION, createdAt: '2026-01-01T00:00:00.000Z' },
      {
        role: 'agent',
        content: 'Replaced 2 mentions in quickstart.mdx.',
        createdAt: '2026-01-01T00:00:01.000Z',
      },
    ],
    ...fields,
  });

/** A run's context: the real client and Octokit on nock, a clock that moves only when polling sleeps. */
function contextWith(values: Record<string, string> = {}) {
  const logs: string[] = [];
  let now = 0;
  const context: ActionContext = {
    inputs: parseInputs(
      (name) =>
        ({
          'api-key': 'svc_secret',
          'project-id': 'docs',
          'base-url': API,
          'github-token': 'ghs_x',
          'poll-interval-seconds': '10',
          ...values,
        })[name] ?? '',
    ),
    client: new DocwrightClient({ baseUrl: API, apiKey: 'svc_secret', maxAttempts: 1 }),
    octokit: quietOctokit(GITHUB),
    links: { run: 'https://github.com/Codertocat/Hello-World/actions/runs/7' },
    serverUrl: 'https://github.com',
    log: {
      info: (message) => logs.push(`info: ${message}`),
      notice: (message) => logs.push(`notice: ${message}`),
      warning: (message) => logs.push(`warning: ${message}`),
    },
    poll: { now: () => now, sleep: (ms) => Promise.resolve(void (now += ms)) },
  };
  return { context, logs };
}

/** The example's comment, by a member rather than the repository's owner: the permission is asked. */
const issueComment = (body = `/docs ${INSTRUCTION}`, association = 'MEMBER') =>
  parseEvent(
    'issue_comment',
    examplePayload('issue_comment', 'created', (payload) => {
      payload.comment.body = body;
      payload.comment.author_association = association;
    }),
  );

/** Bodies of the status comments written, in order. */
function commentWrites() {
  const bodies: string[] = [];
  const record = (body: { body: string }) => {
    bodies.push(body.body);
    return true;
  };
  return { bodies, record };
}

/** The calls every command makes first: the permission check, 👀, and reading the thread. */
function commandStart(thread: { comments?: unknown[]; number?: number; role?: string } = {}) {
  return nock(GITHUB)
    .get(`${REPO}/collaborators/Codertocat/permission`)
    .reply(200, { permission: 'admin', role_name: thread.role ?? 'admin' })
    .post(`${REPO}/issues/comments/492700400/reactions`, { content: 'eyes' })
    .reply(201, { id: 1, content: 'eyes' })
    .get(`${REPO}/issues/${thread.number ?? 1}/comments`)
    .query({ per_page: 100, page: 1 })
    .reply(200, thread.comments ?? []);
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  expect(nock.pendingMocks()).toEqual([]);
  nock.cleanAll();
});

describe('a /docs comment', () => {
  it('creates a job, keeps one status comment, and finishes it with the pull request, its files and the summary', async () => {
    const { context } = contextWith();
    const writes = commentWrites();
    commandStart()
      .post(`${REPO}/issues/1/comments`, writes.record)
      .reply(201, { id: 77 })
      .get(`${REPO}/pulls/3/files`)
      .query(true)
      .reply(200, [{ filename: 'quickstart.mdx' }])
      .patch(`${REPO}/issues/comments/77`, writes.record)
      .reply(200, { id: 77 });
    const prLink = 'https://github.com/Codertocat/Hello-World/pull/3';
    nock(API)
      .post('/v2/agent/docs/job', { prompt: INSTRUCTION })
      .matchHeader('authorization', 'Bearer svc_secret')
      .reply(201, job())
      .get('/v2/agent/docs/job/job23')
      .reply(200, job())
      .get('/v2/agent/docs/job/job23')
      .reply(200, done({ prLink }));

    const result = await runAction(context, issueComment());
    expect(writes.bodies).toHaveLength(2);
    expect(writes.bodies[0]).toContain('Working on it');
    expect(writes.bodies[0]).toContain(jobMarker('job23'));
    expect(writes.bodies[1]).toContain(`**Pull request ready:** ${prLink}`);
    expect(writes.bodies[1]).toContain('**1 file changed:** `quickstart.mdx`');
    expect(writes.bodies[1]).toContain('> Replaced 2 mentions in quickstart.mdx.');
    expect(outputsOf(result)).toEqual({
      'job-id': 'job23',
      status: 'completed',
      'pr-link': prLink,
      created: 'true',
      changed: '',
      'comment-id': '77',
      usage: '',
    });
    if (result.kind !== 'job') throw new Error('expected a job');
    expect(failureOf(result.run, context.inputs)).toBeNull();
    expect(summaryMarkdown(result.run, context.inputs)).toContain(`| Pull request | ${prLink} |`);
  });

  it('sends `/docs sync` on a pull request as the pull request itself: its link, title, description and diff', async () => {
    const { context } = contextWith({ wait: 'false' });
    const writes = commentWrites();
    const onPullRequest = parseEvent(
      'issue_comment',
      examplePayload('issue_comment', 'created', (payload) => {
        payload.comment.body = '/docs sync';
        payload.comment.author_association = 'MEMBER';
        payload.issue.pull_request = { url: `${GITHUB}${REPO}/pulls/1` };
        payload.issue.body = 'Retries are now called attempts.';
      }),
    );
    const prUrl = 'https://github.com/Codertocat/Hello-World/pull/1';
    commandStart()
      .get(`${REPO}/pulls/1`)
      .reply(200, {
        html_url: prUrl,
        title: 'Rename retries',
        body: 'Retries are now called attempts.',
        merged: false,
      })
      .get(`${REPO}/pulls/1/files`)
      .query(true)
      .reply(200, [
        {
          filename: 'src/client.ts',
          status: 'modified',
          patch: '@@ -1,1 +1,1 @@\n-export const maxRetries = 3;\n+export const maxAttempts = 3;',
        },
      ])
      .post(`${REPO}/issues/1/comments`, writes.record)
      .reply(201, { id: 78 });
    let prompt = '';
    nock(API)
      .post('/v2/agent/docs/job', (body: { prompt: string }) => ((prompt = body.prompt), true))
      .reply(201, job());

    const result = await runAction(context, onPullRequest);
    expect(outputsOf(result)).toMatchObject({ 'job-id': 'job23', created: 'true' });
    expect(prompt).toContain(`Code pull request: ${prUrl}`);
    expect(prompt).toContain('Title: Rename retries');
    expect(prompt).toContain('Retries are now called attempts.');
    expect(prompt).toContain('+export const maxAttempts = 3;');
    expect(writes.bodies[0]).toContain(jobMarker('job23'));
  });

  it('answers `/docs sync` in an issue with what it is for, and starts nothing', async () => {
    const { context, logs } = contextWith();
    const writes = commentWrites();
    nock(GITHUB)
      .get(`${REPO}/collaborators/Codertocat/permission`)
      .reply(200, { permission: 'admin', role_name: 'admin' })
      .post(`${REPO}/issues/1/comments`, writes.record)
      .reply(201, { id: 79 });
    const result = await runAction(context, issueComment('/docs sync'));
    expect(result.kind).toBe('ignored');
    expect(writes.bodies).toEqual([
      "@Codertocat, `/docs sync` brings the docs up to date with a code change, so it works in a pull request's conversation; nothing was started. In an issue, say what to change after `/docs`.",
    ]);
    expect(logs).toContain(`notice: ${writes.bodies[0]}`);
  });

  it('sends a follow-up to the job named by the status comment in the thread, editing that comment', async () => {
    const { context } = contextWith();
    const status = renderStatusComment({ state: 'no-changes', jobId: 'job23', reply: 'Done.' });
    const writes = commentWrites();
    commandStart({
      comments: [
        { id: 5, body: '/docs first request', user: { login: 'Codertocat', type: 'User' } },
        { id: 77, body: status, user: bot },
      ],
    })
      .patch(`${REPO}/issues/comments/77`, writes.record)
      .times(2)
      .reply(200, { id: 77 });
    nock(API)
      .get('/v2/agent/docs/job/job23')
      .reply(200, done())
      .post('/v2/agent/docs/job/job23/message', { prompt: 'also fix the title' })
      .reply(200, job())
      .get('/v2/agent/docs/job/job23')
      .reply(200, done());

    const result = await runAction(context, issueComment('/docs also fix the title'));
    expect(writes.bodies[0]).toContain('Working on your follow-up');
    expect(writes.bodies[1]).toContain('no pull request was opened');
    expect(outputsOf(result)).toMatchObject({ 'job-id': 'job23', created: 'false', 'comment-id': '77' });
  });

  it('follows up on the job that opened the pull request a review comment is on', async () => {
    const { context } = contextWith();
    const payload = examplePayload('pull_request_review_comment', 'created', (event) => {
      event.comment.body = '/docs reword this paragraph';
      event.comment.author_association = 'MEMBER';
      event.pull_request.body = `Replaced 2 mentions.\n\n${jobMarker('job23')}`;
      event.pull_request.user = { ...event.pull_request.user, login: 'docwright[bot]', type: 'Bot' };
    });
    nock(GITHUB)
      .get(`${REPO}/collaborators/Codertocat/permission`)
      .reply(200, { permission: 'write', role_name: 'write' })
      .post(`${REPO}/pulls/comments/284312630/reactions`, { content: 'eyes' })
      .reply(201, {})
      .get(`${REPO}/issues/2/comments`)
      .query(true)
      .reply(200, [])
      .post(`${REPO}/issues/2/comments`)
      .reply(201, { id: 88 })
      .patch(`${REPO}/issues/comments/88`)
      .reply(200, { id: 88 });
    nock(API)
      .get('/v2/agent/docs/job/job23')
      .reply(200, done())
      .post('/v2/agent/docs/job/job23/message', { prompt: 'reword this paragraph' })
      .reply(200, job())
      .get('/v2/agent/docs/job/job23')
      .reply(200, done());

    const result = await runAction(context, parseEvent('pull_request_review_comment', payload));
    expect(outputsOf(result)).toMatchObject({ 'job-id': 'job23', created: 'false', 'comment-id': '88' });
  });

  it('starts a new job, with a new status comment, when the thread job was archived', async () => {
    const { context, logs } = contextWith({ wait: 'false' });
    const old = renderStatusComment({ state: 'archived', jobId: 'old', prLink: null });
    const writes = commentWrites();
    commandStart({ comments: [{ id: 70, body: old, user: bot }] })
      .post(`${REPO}/issues/1/comments`, writes.record)
      .reply(201, { id: 71 });
    nock(API)
      .get('/v2/agent/docs/job/old')
      .reply(200, job({ id: 'old', status: 'archived', archivedAt: '2026-01-02T00:00:00.000Z' }))
      .post('/v2/agent/docs/job')
      .reply(201, job());

    const result = await runAction(context, issueComment());
    expect(logs).toContain('info: Job old of this thread is archived; starting a new job.');
    expect(writes.bodies[0]).toContain('does not wait');
    expect(outputsOf(result)).toMatchObject({
      'job-id': 'job23',
      status: 'active',
      created: 'true',
      changed: '',
      'comment-id': '71',
    });
  });

  it("takes the repository owner's comment without asking GitHub for the owner's permission", async () => {
    const { context } = contextWith({ wait: 'false' });
    const writes = commentWrites();
    nock(GITHUB)
      .post(`${REPO}/issues/comments/492700400/reactions`, { content: 'eyes' })
      .reply(201, { id: 1, content: 'eyes' })
      .get(`${REPO}/issues/1/comments`)
      .query({ per_page: 100, page: 1 })
      .reply(200, [])
      .post(`${REPO}/issues/1/comments`, writes.record)
      .reply(201, { id: 78 });
    nock(API).post('/v2/agent/docs/job').reply(201, job);
    const result = await runAction(context, issueComment(`/docs ${INSTRUCTION}`, 'OWNER'));
    expect(result.kind).toBe('job');
    expect(writes.bodies).toHaveLength(1);
  });

  it('ignores a commenter below the minimum permission, with a notice and nothing else', async () => {
    const { context, logs } = contextWith();
    nock(GITHUB)
      .get(`${REPO}/collaborators/Codertocat/permission`)
      .reply(200, { permission: 'read', role_name: 'triage' });
    const result = await runAction(context, issueComment());
    expect(result.kind).toBe('ignored');
    expect(outputsOf(result)).toEqual({});
    expect(logs).toEqual([
      'notice: Codertocat has triage permission on Codertocat/Hello-World; running docwright needs write. The comment is ignored.',
    ]);
  });

  it('says in a comment of its own why the server refused the request, and fails with the same sentence', async () => {
    const { context } = contextWith();
    const writes = commentWrites();
    commandStart().post(`${REPO}/issues/1/comments`, writes.record).reply(201, { id: 72 });
    nock(API).post('/v2/agent/docs/job').reply(401, { error: 'Invalid API key', code: 'unauthorized' });
    await expect(runAction(context, issueComment())).rejects.toMatchObject({ status: 401 });
    expect(writes.bodies[0]).toContain(
      'could not take the request.** The docwright server did not accept the API key (401)',
    );
    expect(writes.bodies[0]).not.toContain('docwright-job:');
    expect(writes.bodies[0]).not.toContain('svc_secret');
  });

  it('leaves the earlier status comment alone when a follow-up is refused', async () => {
    const { context } = contextWith();
    const status = renderStatusComment({ state: 'no-changes', jobId: 'job23', reply: 'Done.' });
    commandStart({ comments: [{ id: 77, body: status, user: bot }] })
      .post(`${REPO}/issues/1/comments`, (body: { body: string }) => body.body.includes('(429)'))
      .reply(201, { id: 78 });
    nock(API)
      .get('/v2/agent/docs/job/job23')
      .reply(200, done())
      .post('/v2/agent/docs/job/job23/message')
      .reply(429, { error: 'Rate limit exceeded', code: 'rate_limited' }, { 'retry-after': '60' });
    await expect(runAction(context, issueComment())).rejects.toMatchObject({ status: 429 });
  });

  it('says why in a comment of its own when the server refuses to show the thread job', async () => {
    const { context } = contextWith();
    const status = renderStatusComment({ state: 'no-changes', jobId: 'job23', reply: 'Done.' });
    const writes = commentWrites();
    commandStart({ comments: [{ id: 77, body: status, user: bot }] })
      .post(`${REPO}/issues/1/comments`, writes.record)
      .reply(201, { id: 78 });
    nock(API).get('/v2/agent/docs/job/job23').reply(401, { error: 'Invalid API key', code: 'unauthorized' });
    await expect(runAction(context, issueComment())).rejects.toMatchObject({ status: 401 });
    expect(writes.bodies[0]).toContain('did not accept the API key (401)');
  });

  it('finishes the status comment with the reason when the job fails, and the step fails with it', async () => {
    const { context } = contextWith();
    const writes = commentWrites();
    commandStart()
      .post(`${REPO}/issues/1/comments`, writes.record)
      .reply(201, { id: 77 })
      .patch(`${REPO}/issues/comments/77`, writes.record)
      .reply(200, { id: 77 });
    nock(API)
      .post('/v2/agent/docs/job')
      .reply(201, job())
      .get('/v2/agent/docs/job/job23')
      .reply(
        200,
        job({ status: 'failed', error: 'The base branch "main" does not exist in the repository' }),
      );
    const result = await runAction(context, issueComment());
    expect(writes.bodies[1]).toContain('❌ **The job failed.** The base branch "main" does not exist');
    if (result.kind !== 'job') throw new Error('expected a job');
    expect(failureOf(result.run, context.inputs)).toBe(
      'Job job23 failed: The base branch "main" does not exist in the repository.',
    );
  });

  it('finishes the status comment with a timeout note and the job id when the job takes too long', async () => {
    const { context } = contextWith({ 'timeout-minutes': '1', 'poll-interval-seconds': '30' });
    const writes = commentWrites();
    commandStart()
      .post(`${REPO}/issues/1/comments`, writes.record)
      .reply(201, { id: 77 })
      .patch(`${REPO}/issues/comments/77`, writes.record)
      .reply(200, { id: 77 });
    nock(API)
      .post('/v2/agent/docs/job')
      .reply(201, job())
      .get('/v2/agent/docs/job/job23')
      .times(2)
      .reply(200, job());
    const result = await runAction(context, issueComment());
    expect(writes.bodies[1]).toContain('Stopped waiting after 1 minute.** The job `job23` is still running');
    if (result.kind !== 'job') throw new Error('expected a job');
    expect(result.run.end).toBe('timed-out');
    expect(failureOf(result.run, context.inputs)).toMatch(
      /^Job job23 did not finish within 1 minutes; it is still active/,
    );
  });

  it('finishes the status comment when the workflow run is cancelled while waiting', async () => {
    const { context } = contextWith();
    const cancel = new AbortController();
    context.signal = cancel.signal;
    context.poll = { sleep: () => Promise.resolve(cancel.abort()) };
    const writes = commentWrites();
    commandStart()
      .post(`${REPO}/issues/1/comments`, writes.record)
      .reply(201, { id: 77 })
      .patch(`${REPO}/issues/comments/77`, writes.record)
      .reply(200, { id: 77 });
    nock(API).post('/v2/agent/docs/job').reply(201, job());
    const result = await runAction(context, issueComment());
    expect(writes.bodies[1]).toContain('**Stopped waiting.** The workflow run was cancelled.');
    if (result.kind !== 'job') throw new Error('expected a job');
    expect(failureOf(result.run, context.inputs)).toBe(
      'The workflow was cancelled while job job23 was still active.',
    );
  });

  it('stays silent in the thread with comment: false, and goes on when GitHub refuses the status comment', async () => {
    const silent = contextWith({ comment: 'false', wait: 'false' });
    commandStart();
    nock(API).post('/v2/agent/docs/job').reply(201, job());
    expect(outputsOf(await runAction(silent.context, issueComment()))).toMatchObject({ 'comment-id': '' });

    const refused = contextWith();
    commandStart()
      .post(`${REPO}/issues/1/comments`)
      .reply(403, { message: 'Resource not accessible by integration' });
    nock(API).post('/v2/agent/docs/job').reply(201, job()).get('/v2/agent/docs/job/job23').reply(200, done());
    const result = await runAction(refused.context, issueComment());
    expect(outputsOf(result)).toMatchObject({ status: 'completed', 'comment-id': '' });
    expect(refused.logs.filter((line) => line.startsWith('warning:'))).toEqual([
      expect.stringContaining('Could not write the status comment. GitHub refused POST'),
    ]);
  });
});
