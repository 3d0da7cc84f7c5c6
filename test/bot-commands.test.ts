import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findJobMarker } from '../src/github/index.js';
import {
  APP_ID,
  INSTALLATION_ID,
  issueComment,
  REPOSITORY,
  reviewComment,
  startBotHarness,
  type BotHarness,
} from './fixtures/bot/harness.js';

const INSTRUCTION = 'replace "an empty account" with "a brand-new account"';
let t: BotHarness;

beforeEach(async () => {
  t = await startBotHarness();
  t.github.permissions.set('maintainer', 'write');
  t.github.permissions.set('reader', 'read');
});

afterEach(async () => {
  await t.close();
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
  expect(t.github.pendingFaults()).toEqual([]);
});

/** The job a thread's status comment names. */
function statusComments(issue: number) {
  return t.github.comments.filter((comment) => comment.issue === issue && findJobMarker(comment.body));
}

async function runCommand(body = `/docs ${INSTRUCTION}`, issue = 12) {
  await t.receive('issue_comment', issueComment(body, { issue }));
  const [status] = statusComments(issue);
  expect(status).toBeDefined();
  const jobId = findJobMarker(status!.body)!;
  const job = await t.settle(jobId);
  return { jobId, job };
}

describe('a /docs command in an issue', () => {
  it('becomes a job, a commit on its branch, a pull request and a status comment with the link', async () => {
    const { jobId, job } = await runCommand();
    expect(job.status).toBe('completed');
    expect(job.branch).toBe(`docwright/job-${jobId}`);

    // The commit: one, on the job's branch, with the job trailer and the edit.
    const head = t.github.git.resolve(job.branch)!;
    const commit = t.github.git.commits.get(head)!;
    expect(commit.message).toContain(`Docwright-Job: ${jobId}`);
    expect(commit.parents).toEqual([t.github.git.resolve('main')]);
    expect(t.github.fileAt(job.branch, 'quickstart.mdx')).toContain('a brand-new account');

    // The pull request: its body has the summary, the request, the link back and the marker.
    expect(t.github.pulls).toHaveLength(1);
    const pull = t.github.pulls[0]!;
    expect(pull).toMatchObject({ head: job.branch, base: 'main', state: 'open' });
    expect(pull.body).toContain(INSTRUCTION);
    expect(pull.body).toContain(`https://github.com/${REPOSITORY}/issues/12`);
    expect(findJobMarker(pull.body)).toBe(jobId);
    expect(job.pr_link).toBe(`https://github.com/${REPOSITORY}/pull/${pull.number}`);

    // 👀 on the command, and one status comment, edited to the result.
    expect(t.github.reactions).toEqual([expect.objectContaining({ kind: 'issues', content: 'eyes' })]);
    const statuses = statusComments(12);
    expect(statuses).toHaveLength(1);
    expect(statuses[0]!.body).toContain(`Pull request ready:** ${job.pr_link}`);
    expect(statuses[0]!.body).toContain('`quickstart.mdx`');
    // Requests were made with the installation's token, never with the app's JWT past the token.
    const authed = t.github.apiCalls().filter((call) => !call.path.includes('/access_tokens'));
    expect(
      authed.every((call) => call.authorization?.startsWith(`token ghs_installation${INSTALLATION_ID}`)),
    ).toBe(true);
  });

  it('edits the status comment only when the state changes', async () => {
    const { jobId } = await runCommand();
    const edits = t.github
      .apiCalls()
      .filter((call) => call.method === 'PATCH' && call.path.includes('/issues/comments/'));
    expect(edits).toHaveLength(1);
    await t.service.github!.watcher.refresh(jobId);
    await t.service.github!.watcher.sweep();
    const after = t.github
      .apiCalls()
      .filter((call) => call.method === 'PATCH' && call.path.includes('/issues/comments/'));
    expect(after).toHaveLength(1);
  });

  it('turns a later command in the same issue into a follow-up of the same job', async () => {
    const first = await runCommand();
    await t.receive(
      'issue_comment',
      issueComment('/docs replace "a terminal, Git" with "a terminal and Git"'),
    );
    const job = await t.settle(first.jobId);
    expect(statusComments(12)).toHaveLength(1);
    expect(t.github.pulls).toHaveLength(1);
    expect(t.github.git.history(t.github.git.resolve(job.branch)!)).toHaveLength(3);
    expect(t.github.fileAt(job.branch, 'quickstart.mdx')).toContain('a terminal and Git');
  });
});

describe('a follow-up on the job pull request', () => {
  it('adds a commit to the same branch and pull request and updates the status', async () => {
    const { jobId, job } = await runCommand();
    const pull = t.github.pulls[0]!;
    const before = t.github.git.resolve(job.branch)!;

    await t.receive(
      'issue_comment',
      issueComment('/docs replace "a terminal, Git" with "a terminal and Git"', {
        issue: pull.number,
        pullRequest: { body: pull.body },
      }),
    );
    const after = await t.settle(jobId);
    const head = t.github.git.resolve(after.branch)!;
    expect(head).not.toBe(before);
    expect(t.github.git.commits.get(head)!.parents).toEqual([before]);
    expect(t.github.pulls).toHaveLength(1);
    expect(t.github.pulls[0]!.body).toContain('a terminal and Git');
    // The pull request's thread got its own status comment; the issue's shows the new result too.
    const prStatus = statusComments(pull.number);
    expect(prStatus).toHaveLength(1);
    expect(prStatus[0]!.body).toContain('Pull request ready');
    expect(statusComments(12)).toHaveLength(1);
  });

  it('takes the file and line of a review comment as context for the agent', async () => {
    const { jobId, job } = await runCommand();
    const pull = t.github.pulls[0]!;
    await t.receive(
      'pull_request_review_comment',
      reviewComment('/docs replace "a terminal, Git" with "a terminal and Git"', {
        pullRequest: pull.number,
        head: job.branch,
        prBody: pull.body,
        file: 'quickstart.mdx',
        line: 7,
      }),
    );
    await t.settle(jobId);
    const messages = await t.service.store.jobs.messages(jobId);
    expect(messages.filter((message) => message.role === 'user').at(-1)!.content).toContain(
      'review comment on `quickstart.mdx`, line 7',
    );
    expect(t.github.reactions.at(-1)).toMatchObject({ kind: 'pulls', content: 'eyes' });
    expect(t.github.fileAt(job.branch, 'quickstart.mdx')).toContain('a terminal and Git');
    expect(t.github.pulls).toHaveLength(1);
  });
});

describe('comments that start nothing', () => {
  it('answers a commenter without write access once, politely, and starts nothing', async () => {
    await t.receive('issue_comment', issueComment(`/docs ${INSTRUCTION}`, { login: 'reader' }));
    expect(t.github.comments).toHaveLength(1);
    expect(t.github.comments[0]!.body).toContain('@reader, only people with **write** access');
    expect(t.github.reactions).toEqual([]);
    expect(
      await t.service.store.githubThreads.find({ repository: REPOSITORY, issueNumber: 12 }),
    ).toBeUndefined();
  });

  it('ignores a bot, the app itself, an edited comment and a comment without the command, without a request', async () => {
    await t.receive(
      'issue_comment',
      issueComment(`/docs ${INSTRUCTION}`, { login: 'renovate[bot]', type: 'Bot' }),
    );
    const own = issueComment(`/docs ${INSTRUCTION}`);
    own.comment.performed_via_github_app = { id: APP_ID, slug: 'docwright', name: 'docwright' };
    await t.receive('issue_comment', own);
    await t.receive('issue_comment', {
      ...issueComment(`/docs ${INSTRUCTION}`),
      action: 'edited',
      changes: { body: { from: 'x' } },
    });
    await t.receive('issue_comment', issueComment(`Thanks! We could /docs this later.`));
    // The bot costs the settings read only (which bots are allowed lives there); nothing else.
    const calls = t.github.apiCalls().map((call) => `${call.method} ${call.path}`);
    expect(calls.every((call) => call.includes('/access_tokens') || call.endsWith('/graphql'))).toBe(true);
    expect(t.github.comments).toEqual([]);
    expect(t.github.reactions).toEqual([]);
  });

  it('does one thing for a redelivered webhook', async () => {
    const payload = issueComment(`/docs ${INSTRUCTION}`);
    await t.receive('issue_comment', payload, 'delivery-1');
    await t.receive('issue_comment', payload, 'delivery-1');
    const jobs = await t.service.jobs.list(
      (await t.service.store.projects.findOnGitHub('github.com', REPOSITORY))!.id,
      {
        limit: 10,
      },
    );
    expect(jobs.jobs).toHaveLength(1);
    expect(t.github.reactions).toHaveLength(1);
  });
});
