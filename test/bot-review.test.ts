import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { addProject } from '../src/cli/local-commands.js';
import { findJobMarker, jobMarker } from '../src/github/index.js';
import {
  closedPullRequest,
  issueComment,
  REPOSITORY,
  reviewComment,
  startBotHarness,
  type BotHarness,
} from './fixtures/bot/harness.js';

const INSTRUCTION = 'replace "an empty account" with "a new account"';
const FOLLOW_UP = 'replace "a terminal, Git" with "a terminal and Git"';
const FORK = 'stranger/docs-site';
let t: BotHarness | undefined;

afterEach(async () => {
  await t?.close();
  const faults = t?.github.pendingFaults();
  t = undefined;
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
  expect(faults ?? []).toEqual([]);
});

async function harness(mode: 'app' | 'token' = 'app'): Promise<BotHarness> {
  t = await startBotHarness({ mode });
  t.github.permissions.set('maintainer', 'write');
  return t;
}

/** A job started by `/docs` in issue 12, run to its pull request. */
async function startJob(h: BotHarness) {
  await h.receive('issue_comment', issueComment(`/docs ${INSTRUCTION}`));
  const status = h.github.comments.find((comment) => comment.issue === 12 && findJobMarker(comment.body));
  return h.settle(findJobMarker(status!.body)!);
}

const userMessages = async (h: BotHarness, jobId: string) =>
  (await h.service.store.jobs.messages(jobId)).filter((message) => message.role === 'user').length;

describe('a fork’s pull request with a branch named like a job’s and its marker', () => {
  it('cannot archive the job by being closed', async () => {
    const h = await harness();
    const job = await startJob(h);
    const closed = closedPullRequest({
      number: 99,
      head: job.branch,
      body: `hello ${jobMarker(job.id)}`,
      fork: FORK,
    });
    await h.receive('pull_request', closed);
    expect((await h.service.store.jobs.getUnscoped(job.id))!.status).toBe('completed');
  });

  it('cannot route a maintainer’s review comment to the job', async () => {
    const h = await harness();
    const job = await startJob(h);
    const before = await userMessages(h, job.id);
    await h.receive(
      'pull_request_review_comment',
      reviewComment(`/docs ${FOLLOW_UP}`, {
        pullRequest: 99,
        head: job.branch,
        prBody: `spoof ${jobMarker(job.id)}`,
        file: 'quickstart.mdx',
        line: 3,
        fork: FORK,
      }),
    );
    // The command starts a job of its own; the marked job hears nothing of it.
    const thread = await h.service.store.githubThreads.find({ repository: REPOSITORY, issueNumber: 99 });
    expect(thread!.job_id).not.toBe(job.id);
    await h.settle(thread!.job_id);
    expect(await userMessages(h, job.id)).toBe(before);
    expect(h.github.fileAt(job.branch, 'quickstart.mdx')).not.toContain('a terminal and Git');
  });
});

describe('status comments', () => {
  it('are shown again by the sweep when the final edit failed', async () => {
    const h = await harness();
    // Every edit of a comment fails, more often than Octokit retries: the final status is lost.
    h.github.fail('PATCH', /\/issues\/comments\/\d+$/, [502, { message: 'Server Error' }], 4);
    await h.receive('issue_comment', issueComment(`/docs ${INSTRUCTION}`));
    const status = h.github.comments.find((comment) => findJobMarker(comment.body))!;
    const job = await h.settle(findJobMarker(status.body)!);
    expect(h.github.pendingFaults()).toEqual([]);
    expect(status.body).toContain('Working on it');

    // GitHub answers again; the sweep (its 30 s timer) shows the result.
    await h.service.github!.watcher.sweep();
    await h.service.github!.watcher.idle();
    expect(status.body).toContain(`Pull request ready:** ${job.pr_link}`);
    // Shown: the next sweep leaves the comment alone.
    const edits = () => h.github.apiCalls().filter((call) => call.method === 'PATCH').length;
    const before = edits();
    await h.service.github!.watcher.sweep();
    await h.service.github!.watcher.idle();
    expect(edits()).toBe(before);
  });
});

describe('token mode: the pull request of a job created through the API', () => {
  it('takes /docs as a follow-up of the job, and archives it when closed', async () => {
    const h = await harness('token');
    await addProject(h.config, process.env, { id: 'site', repository: REPOSITORY, ref: 'main' });
    const created = await h.service.jobs.create('site', INSTRUCTION);
    const job = await h.settle(created.id);
    const pull = h.github.pulls[0]!;
    expect(job.pr_link).toBe(`https://github.com/${REPOSITORY}/pull/${pull.number}`);
    const before = h.github.git.resolve(job.branch)!;

    const payload = issueComment(`/docs ${FOLLOW_UP}`, {
      issue: pull.number,
      pullRequest: { body: pull.body },
    });
    delete payload.installation;
    // The token's user opened the pull request: a person as far as GitHub says, not a bot.
    payload.issue.user = { ...payload.issue.user, login: 'docs-automation', type: 'User' };
    await h.receive('issue_comment', payload);
    const thread = await h.service.store.githubThreads.find({
      repository: REPOSITORY,
      issueNumber: pull.number,
    });
    expect(thread!.job_id).toBe(job.id);
    const after = await h.settle(job.id);
    expect(h.github.git.commits.get(h.github.git.resolve(after.branch)!)!.parents).toEqual([before]);
    expect(h.github.pulls).toHaveLength(1);

    await h.receive(
      'pull_request',
      closedPullRequest({ number: pull.number, head: job.branch, body: pull.body, merged: true }),
    );
    expect((await h.service.store.jobs.getUnscoped(job.id))!.status).toBe('archived');
  });
});
