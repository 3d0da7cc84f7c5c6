import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { findJobMarker } from '../src/github/index.js';
import { issueComment, startBotHarness, type BotHarness } from './fixtures/bot/harness.js';

const COMMAND = '/docs replace "an empty account" with "a brand-new account"';
const harnesses: BotHarness[] = [];

async function harness(): Promise<BotHarness> {
  const t = await startBotHarness();
  t.github.permissions.set('maintainer', 'write');
  harnesses.push(t);
  return t;
}

afterEach(async () => {
  for (const t of harnesses.splice(0)) {
    await t.close();
    expect(t.github.pendingFaults()).toEqual([]);
  }
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});

async function command(t: BotHarness) {
  await t.receive('issue_comment', issueComment(COMMAND));
  const status = t.github.comments.find((comment) => findJobMarker(comment.body));
  return t.settle(findJobMarker(status!.body)!);
}

/** Commits written through GraphQL (the app knows the repository's node id from the payload). */
const commitMutations = (t: BotHarness) =>
  t.github
    .apiCalls()
    .filter((call) => call.path.endsWith('/graphql') && String(call.body?.query).includes('docwrightCommit'))
    .length;

const count = (t: BotHarness, method: string, path: RegExp) =>
  t.github.apiCalls().filter((call) => call.method === method && path.test(call.path)).length;

describe('GitHub failing', () => {
  it('retries 5xx answers', async () => {
    const t = await harness();
    t.github.fail('POST', /\/graphql$/, [502, { message: 'Server Error' }], 1, 'docwrightCommit');
    t.github.fail('GET', /\/tarball\//, [503, { message: 'Service Unavailable' }], 2);
    const job = await command(t);
    expect(job.status).toBe('completed');
    const commits = t.github
      .apiCalls()
      .filter(
        (call) => call.path.endsWith('/graphql') && String(call.body?.query).includes('docwrightCommit'),
      );
    expect(commits).toHaveLength(2);
    // One commit on the branch, straight on main: the repeated mutation did not commit twice.
    const head = t.github.git.resolve(job.branch)!;
    expect(t.github.git.commits.get(head)!.parents).toEqual([t.github.git.resolve('main')]);
    expect(t.github.pulls).toHaveLength(1);
  });

  it('waits out a secondary rate limit and tries again', async () => {
    const t = await harness();
    const limited = {
      message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
    };
    t.github.fail('POST', /\/pulls$/, [403, limited, { 'retry-after': '1' }]);
    // The settings query is the first GraphQL request of a command: limited too, waited out.
    t.github.fail('POST', /\/graphql$/, [403, limited, { 'retry-after': '1' }]);
    const job = await command(t);
    expect(job.status).toBe('completed');
    expect(count(t, 'POST', /\/pulls$/)).toBe(2);
    expect(t.github.pulls).toHaveLength(1);
    expect(t.github.comments.filter((comment) => findJobMarker(comment.body))).toHaveLength(1);
    expect(t.github.pendingFaults()).toEqual([]);
  });

  it('reacts and posts the status comment apart when the one mutation for both is refused', async () => {
    const t = await harness();
    t.github.acceptsMutations = false;
    const job = await command(t);
    expect(job.status).toBe('completed');
    expect(t.github.reactions).toEqual([expect.objectContaining({ kind: 'issues', content: 'eyes' })]);
    expect(count(t, 'POST', /\/issues\/12\/comments$/)).toBe(1);
    expect(t.github.comments.filter((comment) => findJobMarker(comment.body))).toHaveLength(1);
  });

  it('finds the pull request that already exists when its creation answer was lost', async () => {
    const t = await harness();
    // GitHub opens the pull request but the answer never arrives; the retry hears "already exists".
    t.github.failAfterwards('POST', /\/pulls$/, [502, { message: 'Server Error' }]);
    const job = await command(t);
    expect(job.status).toBe('completed');
    expect(t.github.pulls).toHaveLength(1);
    expect(job.pr_link).toBe(`https://github.com/octo-org/docs-site/pull/${t.github.pulls[0]!.number}`);
    expect(count(t, 'GET', /\/pulls$/)).toBe(1);
  });

  it('finalises the status in words when the run fails early', async () => {
    const t = await harness();
    t.github.settingsFiles.set('.github/docwright.yml', 'base_branch: release\n');
    const job = await command(t);
    expect(job.status).toBe('failed');
    const status = t.github.comments.find((comment) => findJobMarker(comment.body))!;
    expect(status.body).toContain('The job failed.');
    expect(status.body).toContain('The base branch "release" does not exist');
    expect(t.github.pulls).toEqual([]);
  });
});

describe('an interruption between the commit and the pull request', () => {
  it('opens exactly one pull request when another service resumes the job', async () => {
    const first = await harness();
    const held = first.github.hold('POST', /\/pulls$/);
    await first.receive('issue_comment', issueComment(COMMAND));
    const jobId = findJobMarker(first.github.comments[0]!.body)!;
    await held.reached;
    const branch = `docwright/job-${jobId}`;
    const committed = first.github.git.resolve(branch)!;
    expect(committed).toBeDefined();

    // The service stops while the request is in flight; the answer that finally comes is an error.
    const stopping = first.service.close();
    held.release([502, { message: 'Server Error' }]);
    first.github.fail('POST', /\/pulls$/, [502, { message: 'Server Error' }], 3);
    await stopping;
    harnesses.splice(harnesses.indexOf(first), 1);
    expect(first.github.pulls).toEqual([]);

    // Another service on the same store and GitHub takes the job over.
    const second = await startBotHarness({ dataDir: first.dataDir, github: first.github });
    harnesses.push(second);
    const job = await second.settle(jobId);
    expect(job.status).toBe('completed');
    expect(second.github.pulls).toHaveLength(1);
    expect(second.github.git.resolve(branch)).toBe(committed);
    // The one commit is the first service's: the second found it on the branch and made none.
    expect(commitMutations(second)).toBe(1);
    const status = second.github.comments.find((comment) => findJobMarker(comment.body))!;
    expect(status.body).toContain(`Pull request ready:** ${job.pr_link}`);
  });
});
