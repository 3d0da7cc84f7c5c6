import { afterEach, describe, expect, it } from 'vitest';
import { SAMPLE_DOCS_DIR } from '../src/cli/demo.js';
import { findJobMarker } from '../src/github/index.js';
import { FakeGit } from './fixtures/bot/fake-git.js';
import { FakeGitHub } from './fixtures/bot/fake-github.js';
import { issueComment, REPOSITORY, startBotHarness, type BotHarness } from './fixtures/bot/harness.js';

/**
 * The App runs against github.com's API, but GitHub writes its pull requests' web addresses under
 * another host, as behind a proxy or on an Enterprise Server known by two names. A command on the
 * job's pull request must still update the pull request the job knows, not try to open it again.
 */
const OTHER_HOST = 'http://127.0.0.1:8080';

let harness: BotHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function requestLines(t: BotHarness, from: number): string[] {
  return t.github
    .apiCalls()
    .slice(from)
    .map((call) => `${call.method} ${call.path.replace(/^api\.github\.com\/repos\/[^/]+\/[^/]+/, '')}`);
}

async function command(t: BotHarness, body: string, issue: number, pullRequestBody?: string) {
  const payload = issueComment(body, {
    issue,
    ...(pullRequestBody === undefined ? {} : { pullRequest: { body: pullRequestBody } }),
  });
  if (pullRequestBody !== undefined) payload.issue.html_url = `${OTHER_HOST}/${REPOSITORY}/pull/${issue}`;
  await t.receive('issue_comment', payload);
  const status = [...t.github.comments]
    .reverse()
    .find((comment) => comment.issue === issue && findJobMarker(comment.body));
  expect(status, 'a status comment names the job').toBeDefined();
  return t.settle(findJobMarker(status!.body)!);
}

describe('a job whose pull request link names another host', () => {
  it('updates its pull request in one request when commanded on it, and knows its pull request thread', async () => {
    const github = new FakeGitHub(REPOSITORY, FakeGit.readFolder(SAMPLE_DOCS_DIR));
    github.webUrl = OTHER_HOST;
    github.intercept();
    harness = await startBotHarness({ github });
    github.permissions.set('maintainer', 'write');

    const first = await command(harness, '/docs replace "an empty account" with "a brand-new account"', 12);
    expect(first.status).toBe('completed');
    expect(first.pr_link).toBe(`${OTHER_HOST}/${REPOSITORY}/pull/${github.pulls[0]!.number}`);
    const pull = github.pulls[0]!;

    const before = github.apiCalls().length;
    const followUp = await command(
      harness,
      '/docs replace "Acme Cloud" with "Acme Platform"',
      pull.number,
      pull.body,
    );
    expect(followUp.id).toBe(first.id);
    expect(followUp.status).toBe('completed');
    const requests = requestLines(harness, before);
    expect(requests.filter((line) => /\/pulls/.test(line))).toEqual([`PATCH /pulls/${pull.number}`]);
    expect(requests.length).toBeLessThanOrEqual(6);
    expect(github.pulls).toHaveLength(1);
    expect(github.pulls[0]!.body).toContain('Acme Platform');

    // The pull request's thread was recorded as the job's: a third command there is a follow-up too.
    const threads = await harness.service.store.githubThreads.ofJob(first.id);
    expect(threads.some((thread) => thread.pr_number === pull.number)).toBe(true);
  });
});
