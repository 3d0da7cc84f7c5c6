/**
 * The "Docs gaps" issue through the App: real signed `issue_comment.created` payloads, GitHub
 * mocked at the network boundary by the fake GitHub, readers' answers seeded in the store as the
 * assistant records them.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pullRequestBodyFromStore } from '../src/engine/pull-request-body.js';
import { findJobMarker, gapsIssueMarker } from '../src/github/index.js';
import { issueComment, REPOSITORY, startBotHarness, type BotHarness } from './fixtures/bot/harness.js';

const SETTINGS = '.github/docwright.yml';
const CONFLUENCE = [
  'Can I import our pages from Confluence?',
  'How do I migrate a Confluence space into the docs?',
  'Is there a Confluence importer?',
];
const GITLAB = ['Does it work with GitLab?', 'Can I use it on a GitLab repository?'];

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

/** The repository's project, made by the App as a first comment makes it. */
async function project() {
  return t.waitFor(
    () => t.service.store.projects.findOnGitHub('github.com', REPOSITORY),
    'the repository’s project',
  );
}

let threads = 0;
/** Readers' questions the assistant declined, recorded as the assistant records them. */
async function seedQuestions(projectId: string, questions: string[], readers: number, word: string) {
  for (let reader = 0; reader < readers; reader += 1) {
    threads += 1;
    await t.service.store.assistantThreads.create(
      { id: `thr_seed${threads}`, projectId, domain: 'docs', fp: `${word}-${threads}` },
      new Date(),
      [
        { role: 'user', content: questions[reader % questions.length]!, messageId: `q${threads}` },
        {
          role: 'assistant',
          content: 'The docs do not cover this.',
          messageId: `msg_seed${threads}`,
          record: {
            outcome: 'declined',
            support: 0.3,
            about: 0.3,
            closest: [{ url: '/quickstart', title: 'Quickstart' }],
            unknownWords: [word],
          },
        },
      ],
    );
  }
}

const issueCalls = (method: string) =>
  t.github.apiCalls().filter((call) => call.method === method && /\/issues(\/\d+)?$/.test(call.path));
const repliesIn = (issue: number) => t.github.comments.filter((comment) => comment.issue === issue);

/** Settings that turn the issue on, with the site the closest pages link to. */
async function turnOn(projectId: string) {
  t.github.settingsFiles.set(
    SETTINGS,
    'gaps:\n  issue: true\n  since: 30d\n  site_url: https://docs.example.com\n',
  );
  t.service.github!.settings.invalidate(REPOSITORY);
  await seedQuestions(projectId, CONFLUENCE, 4, 'confluence');
  await seedQuestions(projectId, GITLAB, 2, 'gitlab');
}

describe('the Docs gaps issue', () => {
  it('is off until the settings turn it on, and the reply says how', async () => {
    await t.receive('issue_comment', issueComment('/docs gaps', { issue: 3 }));
    const [reply] = repliesIn(3);
    expect(reply!.body).toContain('@maintainer, the "Docs gaps" issue is off for this repository');
    expect(reply!.body).toContain('gaps:\n  issue: true');
    expect(issueCalls('POST')).toEqual([]);
    expect(t.github.issues).toEqual([]);
  });

  it('opens once on /docs gaps, is edited in place on the next one and by the weekly run', async () => {
    await t.receive('issue_comment', issueComment('/docs gaps', { issue: 3 }));
    const { id: projectId } = await project();
    await turnOn(projectId);

    await t.receive('issue_comment', issueComment('/docs gaps', { issue: 3 }));
    expect(t.github.issues).toHaveLength(1);
    const issue = t.github.issues[0]!;
    expect(issue.title).toBe('Docs gaps');
    expect(issue.body.trimEnd().endsWith(gapsIssueMarker(projectId))).toBe(true);
    // Ranked as the report ranks them: more readers first.
    const report = (await t.service.github!.gapsIssues.source.report(projectId, '30d')).gaps;
    expect(report).toHaveLength(2);
    const [confluence, gitlab] = report;
    expect(issue.body.indexOf(confluence!.id)).toBeLessThan(issue.body.indexOf(gitlab!.id));
    expect(issue.body).toContain('### 1. ');
    expect(issue.body).toContain(`\`${confluence!.id}\`: 4 question(s) from 4 reader(s), first seen`);
    expect(issue.body).toContain('"Is there a Confluence importer?"');
    expect(issue.body).toContain('[Quickstart](https://docs.example.com/quickstart)');
    expect(issue.body).toContain(`/docs fill ${confluence!.id}`);
    expect(issue.body).toContain(`/docs fill ${gitlab!.id}`);
    expect(repliesIn(3).at(-1)!.body).toContain(
      `opened the "Docs gaps" issue, #${issue.number}: it lists 2 gap(s)`,
    );
    expect(issueCalls('POST')).toHaveLength(1);

    // Again: the same issue, edited; never a second one.
    await seedQuestions(projectId, CONFLUENCE, 1, 'confluence');
    await t.receive('issue_comment', issueComment('/docs gaps', { issue: 3 }));
    expect(issueCalls('POST')).toHaveLength(1);
    expect(issueCalls('PATCH')).toHaveLength(1);
    expect(t.github.issues).toHaveLength(1);
    expect(t.github.issues[0]!.body).toContain('5 question(s) from 5 reader(s)');

    // The weekly run edits it too, once a week.
    await t.service.github!.gapsIssues.weekly();
    expect(issueCalls('PATCH')).toHaveLength(2);
    await t.service.github!.gapsIssues.weekly();
    expect(issueCalls('PATCH')).toHaveLength(2);
    expect(issueCalls('POST')).toHaveLength(1);
  });

  it('opens one issue under two triggers at once', async () => {
    await t.receive('issue_comment', issueComment('/docs gaps', { issue: 3 }));
    const { id: projectId } = await project();
    await turnOn(projectId);
    const row = await project();
    const gaps = t.service.github!.gapsIssues;
    await Promise.all([
      gaps.refreshProject(row),
      gaps.refreshProject(row),
      t.receive('issue_comment', issueComment('/docs gaps', { issue: 3 })),
    ]);
    expect(t.github.issues).toHaveLength(1);
    expect(issueCalls('POST')).toHaveLength(1);
    expect(issueCalls('PATCH')).toHaveLength(2);
  });

  it('never takes a marker someone else wrote for its own issue', async () => {
    await t.receive('issue_comment', issueComment('/docs gaps', { issue: 3 }));
    const { id: projectId } = await project();
    await turnOn(projectId);
    // An issue a person opened, with the marker copied into it.
    t.github.issues.push({
      number: 50,
      title: 'Docs gaps',
      body: `mine\n\n${gapsIssueMarker(projectId)}`,
      state: 'open',
      app: null,
    });
    await t.receive('issue_comment', issueComment('/docs gaps', { issue: 3 }));
    expect(t.github.issues.find((issue) => issue.number === 50)!.body).toContain('mine');
    expect(t.github.issues).toHaveLength(2);
  });

  it('needs write permission for /docs gaps, as every command does', async () => {
    await t.receive(
      'issue_comment',
      issueComment('/docs gaps', { issue: 3, login: 'reader', association: 'NONE' }),
    );
    expect(repliesIn(3)[0]!.body).toContain('only people with **write** access');
    expect(t.github.issues).toEqual([]);
  });
});

describe('/docs fill in the Docs gaps issue', () => {
  it('starts a job from the gap whose prompt carries its questions and whose pull request links the issue', async () => {
    await t.receive('issue_comment', issueComment('/docs gaps', { issue: 3 }));
    const { id: projectId } = await project();
    await turnOn(projectId);
    await t.receive('issue_comment', issueComment('/docs gaps', { issue: 3 }));
    const issue = t.github.issues[0]!;
    const [confluence] = (await t.service.github!.gapsIssues.source.report(projectId, '30d')).gaps;

    await t.receive('issue_comment', issueComment(`/docs fill ${confluence!.id}`, { issue: issue.number }));
    const status = repliesIn(issue.number).find((comment) => findJobMarker(comment.body));
    expect(status).toBeDefined();
    const jobId = findJobMarker(status!.body)!;
    const job = await t.settle(jobId);
    const [request] = await t.service.store.jobs.messages(jobId);
    for (const question of CONFLUENCE) expect(request!.content).toContain(`"${question}"`);
    expect(request!.content).toContain('4 question(s) from 4 reader(s)');
    // The thread is the issue: the job's pull request description links back to it.
    const body = await pullRequestBodyFromStore(t.service.store, 'https://github.com')(job, 'Added a page.');
    expect(body).toContain(`https://github.com/${REPOSITORY}/issues/${issue.number}`);

    // A second gap in the same issue is its own job, not a follow-up of the first.
    const [, gitlab] = (await t.service.github!.gapsIssues.source.report(projectId, '30d')).gaps;
    await t.receive('issue_comment', issueComment(`/docs fill ${gitlab!.id}`, { issue: issue.number }));
    const jobs = repliesIn(issue.number)
      .map((comment) => findJobMarker(comment.body))
      .filter(Boolean);
    expect(new Set(jobs).size).toBe(2);
    await t.settle(jobs.at(-1)!);
  });

  it('answers an unknown gap id in words, and starts nothing', async () => {
    await t.receive('issue_comment', issueComment('/docs gaps', { issue: 3 }));
    const { id: projectId } = await project();
    await turnOn(projectId);
    await t.receive('issue_comment', issueComment('/docs gaps', { issue: 3 }));
    const issue = t.github.issues[0]!;
    await t.receive('issue_comment', issueComment('/docs fill gap_000000000000', { issue: issue.number }));
    const [reply] = repliesIn(issue.number);
    expect(reply!.body).toBe(
      "@maintainer, there is no gap `gap_000000000000` in readers' questions of the last 30d, so nothing was started: it may be mistyped, or its questions left the period. `/docs gaps` lists the current gaps with their ids.",
    );
    // In the gaps issue any word after `fill` is read as a gap id.
    await t.receive('issue_comment', issueComment('/docs fill nonsense', { issue: issue.number }));
    expect(repliesIn(issue.number).at(-1)!.body).toContain('there is no gap `nonsense`');
    expect(await t.service.store.jobs.list(projectId, { limit: 10 })).toEqual([]);
  });
});

describe('the weekly refresh', () => {
  it('leaves a repository whose settings do not ask for the issue alone', async () => {
    await t.receive('issue_comment', issueComment('/docs gaps', { issue: 3 }));
    const { id: projectId } = await project();
    await seedQuestions(projectId, CONFLUENCE, 2, 'confluence');
    await t.service.github!.gapsIssues.weekly();
    expect(t.github.issues).toEqual([]);
  });
});

describe('POST /v2/agent/{projectId}/gaps/issue', () => {
  const post = async (projectId: string, key: string) => {
    const response = await t.service.app.request(`/v2/agent/${projectId}/gaps/issue`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('does what the weekly refresh does, and says in words why it cannot', async () => {
    await t.receive('issue_comment', issueComment('/docs gaps', { issue: 3 }));
    const { id: projectId } = await project();
    const { key } = await t.service.store.keys.create({ kind: 'admin', projectId });

    const off = await post(projectId, key);
    expect(off.status).toBe(409);
    expect(off.body.error).toBe(
      `The settings of ${REPOSITORY} do not ask for the "Docs gaps" issue: add \`gaps: { issue: true }\` to .github/docwright.yml`,
    );

    await turnOn(projectId);
    expect(await post(projectId, key)).toEqual({ status: 200, body: { issue: 101, created: true, gaps: 2 } });
    expect(await post(projectId, key)).toEqual({
      status: 200,
      body: { issue: 101, created: false, gaps: 2 },
    });
    expect(issueCalls('POST')).toHaveLength(1);
    expect(issueCalls('PATCH')).toHaveLength(1);

    t.github.settingsFiles.set(SETTINGS, 'gaps:\n  issue: yes please\n');
    t.service.github!.settings.invalidate(REPOSITORY);
    const bad = await post(projectId, key);
    expect(bad.status).toBe(409);
    expect(bad.body.error).toMatch(
      /^The "Docs gaps" issue was not refreshed: \.github\/docwright\.yml is not valid \(gaps\.issue\): /,
    );
  });
});
