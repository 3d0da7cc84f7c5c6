/**
 * The runner's job service in this process (what the bundled Action runs with no server), against
 * the GitHub stand-in backed by a real bare repository: jobs go through JobService over the store
 * held in memory, and a job of an earlier workflow run is taken in from what it left on GitHub.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseInputs } from '../src/action/inputs.js';
import { openRunner } from '../src/action/runner/open-runner.js';
import { SAMPLE_DOCS_DIR } from '../src/cli/demo.js';
import { runnerHosts } from '../src/github-api/hosts.js';
import { findJobMarker } from '../src/github/index.js';
import { createOctokit } from '../src/github-api/octokit.js';
import { BareGit } from './fixtures/bot/bare-git.js';
import { FakeGit } from './fixtures/bot/fake-git.js';
import { FakeGitHub } from './fixtures/bot/fake-github.js';
import { serveGitHubStandIn, type GitHubStandIn } from './fixtures/bot/github-stand-in.js';
import { REPOSITORY } from './fixtures/bot/harness.js';

const TOKEN = `ghs_${'r'.repeat(36)}`;
const FIRST = 'replace "an empty account" with "a brand-new account"';
const SECOND = 'replace "a running web service" with "a live web service"';

let github: FakeGitHub;
let bare: BareGit;
let standIn: GitHubStandIn;

beforeEach(async () => {
  bare = new BareGit(FakeGit.readFolder(SAMPLE_DOCS_DIR), 'main');
  github = new FakeGitHub(REPOSITORY, bare);
  standIn = await serveGitHubStandIn(github);
});

afterEach(async () => {
  await standIn.close();
  bare.dispose();
});

/** The runner of one workflow run: it knows nothing of earlier ones but what GitHub holds. */
async function workflowRun() {
  const hosts = runnerHosts(`${standIn.webUrl}/api/v3`, standIn.webUrl);
  const inputs = parseInputs(
    (name) =>
      ({
        'github-token': TOKEN,
        command: '/docs',
        permission: 'write',
        wait: 'true',
        comment: 'true',
        'timeout-minutes': '5',
        'poll-interval-seconds': '10',
      })[name] ?? '',
  );
  const [owner = '', repo = ''] = REPOSITORY.split('/');
  const runner = await openRunner({
    octokit: createOctokit({
      auth: TOKEN,
      baseUrl: hosts.apiUrl,
      userAgent: 'docwright-test',
      log: { warn: () => {}, debug: () => {} },
    }),
    hosts,
    repository: REPOSITORY,
    inputs,
    providers: { openai: {}, anthropic: {} },
    prices: {},
    thread: { owner, repo, number: 12, isPullRequest: false },
    debug: () => {},
    signal: new AbortController().signal,
    onRetry: () => {},
  });
  return runner.jobs;
}

describe("the runner's jobs", () => {
  it('runs a job and its follow-up in a later workflow run through the job lifecycle', async () => {
    const jobs = await workflowRun();
    const created = await jobs.createJob('', FIRST);
    expect(created).toMatchObject({ status: 'active', source: { ref: `docwright/job-${created.id}` } });
    await jobs.settled();
    const done = await jobs.getJob('', created.id);
    expect(done).toMatchObject({ status: 'completed', changed: true, error: null });
    expect(done.messages?.map((message) => [message.role, message.changed])).toEqual([
      ['user', undefined],
      ['agent', true],
    ]);
    expect(github.pulls).toHaveLength(1);
    expect(done.prLink).toBe(`${standIn.webUrl}/${REPOSITORY}/pull/${github.pulls[0]!.number}`);
    expect(findJobMarker(github.pulls[0]!.body)).toBe(created.id);

    // A later workflow run starts from nothing: the job is read back from its branch and pull request.
    const later = await workflowRun();
    const followUp = await later.sendMessage('', created.id, SECOND);
    expect(followUp).toMatchObject({ id: created.id, status: 'active' });
    await later.settled();
    const again = await later.getJob('', created.id);
    expect(again).toMatchObject({ status: 'completed', changed: true, prLink: done.prLink });
    expect(again.messages?.map((message) => message.role)).toEqual(['user', 'agent', 'user', 'agent']);
    expect(again.messages?.[2]?.content).toBe(SECOND);
    expect(bare.git(['rev-list', '--count', `main..docwright/job-${created.id}`])).toBe('2');
    expect(github.pulls).toHaveLength(1);
    expect(github.pulls[0]!.body).toContain('1. replace "an empty account"');
    expect(github.pulls[0]!.body).toContain('2. replace "a running web service"');
  }, 60_000);

  it('records a failed run as failed, and refuses a follow-up to a job whose pull request was closed', async () => {
    const jobs = await workflowRun();
    const broken = await jobs.createJob('', 'replace "an empty account" with "an <Note> account"');
    await jobs.settled();
    expect(await jobs.getJob('', broken.id)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/Nothing was committed[\s\S]*MDX does not parse/),
    });

    const { id } = await jobs.createJob('', FIRST);
    await jobs.settled();
    github.pulls[0]!.state = 'closed';
    const later = await workflowRun();
    expect(await later.getJob('', id)).toMatchObject({ status: 'archived' });
    await expect(later.sendMessage('', id, SECOND)).rejects.toMatchObject({ code: 'conflict' });
  }, 60_000);

  it("refuses a job whose branch would be the repository's default branch", async () => {
    github.settingsFiles.set('.github/docwright.yml', 'branch_prefix: ""\n');
    const jobs = await workflowRun();
    await expect(jobs.sendMessage('', 'main', FIRST)).rejects.toThrow(
      "Job main would commit to main, the repository's default branch",
    );
  }, 30_000);
});
