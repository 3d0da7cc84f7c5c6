import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  findJobMarker,
  finishedJobView,
  latestReply,
  renderStatusComment,
  StatusCommentWriter,
} from '../src/github/index.js';
import {
  listChangedFiles,
  parsePullRequestLink,
  pullRequestOfJob,
} from '../src/github-api/pull-request-files.js';
import { type Thread } from '../src/github-api/types.js';
import type { Job } from '../src/protocol/agent-job.js';
import { quietOctokit, jobFixture } from './helpers/github-recorder.js';

const API = 'https://api.github.com';
const octokit = quietOctokit(API);
const thread: Thread = { owner: 'Codertocat', repo: 'Hello-World', number: 1, isPullRequest: false };
const links = { run: 'https://github.com/Codertocat/Hello-World/actions/runs/7' };

const job = (fields: Partial<Job>): Job => jobFixture({ status: 'completed', ...fields });
const messages = (...contents: [string, string][]) =>
  contents.map(([role, content]) => ({
    role: role as 'user' | 'agent',
    content,
    createdAt: '2026-01-01T00:00:00.000Z',
  }));

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  expect(nock.pendingMocks()).toEqual([]);
  nock.cleanAll();
});

describe('renderStatusComment', () => {
  it('ends every state that has a job with its hidden marker and links the workflow run', () => {
    const body = renderStatusComment(
      { state: 'working', jobId: 'job23', followUp: false, waiting: true },
      links,
    );
    expect(body).toContain('Working on it');
    expect(body).toContain(`[workflow run](${links.run})`);
    expect(body.endsWith('<!-- docwright-job: job23 -->')).toBe(true);
    expect(
      renderStatusComment({ state: 'working', jobId: 'job23', followUp: true, waiting: false }),
    ).toContain('does not wait');
  });

  it('shows a pull request with its link, the changed files and the agent summary', () => {
    const body = renderStatusComment({
      state: 'pr-opened',
      jobId: 'job23',
      prLink: 'https://github.com/Codertocat/Hello-World/pull/3',
      files: { paths: ['quickstart.mdx', 'index.mdx'], total: 2, more: false },
      summary: 'Replaced 2 mentions.\nNothing else changed.',
    });
    expect(body).toContain('**Pull request ready:** https://github.com/Codertocat/Hello-World/pull/3');
    expect(body).toContain('**2 files changed:** `quickstart.mdx`, `index.mdx`');
    expect(body).toContain('> Replaced 2 mentions.\n> Nothing else changed.');
  });

  it('quotes the agent reply when nothing changed, without letting it plant a marker', () => {
    const body = renderStatusComment({
      state: 'no-changes',
      jobId: 'job23',
      reply: 'No page mentions it. <!-- docwright-job: other -->',
    });
    expect(body).toContain('**Nothing was changed**, so no pull request was opened');
    expect(body).toContain('> No page mentions it. &lt;!-- docwright-job: other -->');
    expect(findJobMarker(body)).toBe('job23');
  });

  it('says why a job failed, why a request was refused, and when waiting stopped', () => {
    expect(
      renderStatusComment({ state: 'failed', jobId: 'job23', reason: 'The base branch is gone.' }),
    ).toContain('❌ **The job failed.** The base branch is gone.');
    const refused = renderStatusComment({
      state: 'failed',
      jobId: null,
      reason: 'The key was refused (401).',
    });
    expect(refused).toContain('could not take the request.** The key was refused (401).');
    expect(findJobMarker(refused)).toBeNull();
    const timedOut = renderStatusComment({ state: 'timed-out', jobId: 'job23', minutes: 30 });
    expect(timedOut).toContain('Stopped waiting after 30 minutes');
    expect(timedOut).toContain('`job23` is still running');
    expect(renderStatusComment({ state: 'stopped', jobId: 'job23', reason: 'Cancelled.' })).toContain(
      'Cancelled.',
    );
    expect(renderStatusComment({ state: 'archived', jobId: 'job23', prLink: null })).toContain('archived');
  });
});

describe('finishedJobView', () => {
  it('maps a completed job with a pull request, without one, a failed and an archived job', () => {
    const withPr = job({
      prLink: 'https://github.com/o/r/pull/1',
      messages: messages(['user', 'x'], ['agent', 'Done.']),
    });
    expect(finishedJobView(withPr)).toMatchObject({ state: 'pr-opened', summary: 'Done.', files: null });
    expect(finishedJobView(job({ messages: messages(['user', 'x'], ['agent', 'Nothing to do.']) }))).toEqual({
      state: 'no-changes',
      jobId: 'job23',
      reply: 'Nothing to do.',
    });
    expect(finishedJobView(job({ status: 'failed', error: 'No such page' }))).toMatchObject({
      state: 'failed',
      reason: 'No such page',
    });
    expect(finishedJobView(job({ status: 'failed' }))).toMatchObject({
      reason: expect.stringContaining('without a reason'),
    });
    expect(finishedJobView(job({ status: 'archived' }))).toMatchObject({ state: 'archived' });
  });

  it('takes the agent reply only when it answers the latest prompt', () => {
    expect(latestReply(job({ messages: messages(['user', 'a'], ['agent', 'A'], ['user', 'b']) }))).toBeNull();
    expect(latestReply(job({}))).toBeNull();
  });
});

describe('StatusCommentWriter', () => {
  it('creates the comment once and edits it only when the text changes', async () => {
    nock(API)
      .post('/repos/Codertocat/Hello-World/issues/1/comments', { body: 'working' })
      .reply(201, { id: 55, body: 'working' })
      .patch('/repos/Codertocat/Hello-World/issues/comments/55', { body: 'done' })
      .reply(200, { id: 55, body: 'done' });
    const writer = new StatusCommentWriter(octokit, thread);
    await writer.show('working');
    await writer.show('working');
    await writer.show('done');
    await writer.show('done');
    expect(writer.id).toBe(55);
  });

  it('adopts an existing status comment and leaves it alone when it already says the same', async () => {
    nock(API)
      .patch('/repos/Codertocat/Hello-World/issues/comments/9', { body: 'follow-up' })
      .reply(200, { id: 9, body: 'follow-up' });
    const writer = new StatusCommentWriter(octokit, thread, { commentId: 9, body: 'done' });
    await writer.show('done');
    await writer.show('follow-up');
  });
});

describe('pull request files', () => {
  it('reads pull request links on this GitHub only', () => {
    expect(parsePullRequestLink('https://github.com/o/r/pull/12', 'https://github.com')).toEqual({
      owner: 'o',
      repo: 'r',
      number: 12,
    });
    expect(
      parsePullRequestLink('https://ghe.example.com/o/r/pull/3', 'https://ghe.example.com'),
    ).toMatchObject({
      number: 3,
    });
    expect(
      parsePullRequestLink('https://gitlab.com/o/r/-/merge_requests/1', 'https://github.com'),
    ).toBeNull();
    expect(parsePullRequestLink('not a link', 'https://github.com')).toBeNull();
  });

  it("reads a job's own link whatever its host, but only as a pull request of the job's repository", () => {
    expect(pullRequestOfJob('http://127.0.0.1:8080/O/R/pull/7', 'o/r')).toEqual({
      owner: 'O',
      repo: 'R',
      number: 7,
    });
    expect(pullRequestOfJob('https://github.com/o/other/pull/7', 'o/r')).toBeNull();
    expect(pullRequestOfJob('https://github.com/o/r/issues/7', 'o/r')).toBeNull();
    expect(pullRequestOfJob('not a link', 'o/r')).toBeNull();
  });

  it('lists the changed files', async () => {
    nock(API)
      .get('/repos/o/r/pulls/12/files')
      .query({ per_page: 100 })
      .reply(200, [{ filename: 'quickstart.mdx' }, { filename: 'index.mdx' }]);
    expect(await listChangedFiles(octokit, { owner: 'o', repo: 'r', number: 12 })).toEqual({
      paths: ['quickstart.mdx', 'index.mdx'],
      total: 2,
      more: false,
    });
  });
});
