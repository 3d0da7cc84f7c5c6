import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  findJobMarker,
  findThreadJob,
  jobMarker,
  neutralizeMarkers,
  trustBotsAndPermitted,
} from '../src/github/index.js';
import { type Thread } from '../src/github-api/types.js';
import { quietOctokit } from './helpers/github-recorder.js';

const API = 'https://api.github.com';
const octokit = quietOctokit(API);
const issue: Thread = { owner: 'Codertocat', repo: 'Hello-World', number: 1, isPullRequest: false };
const pull: Thread = { ...issue, number: 2, isPullRequest: true };
const bot = { login: 'github-actions[bot]', type: 'Bot', id: 41898282 };
const person = (login: string) => ({ login, type: 'User', id: 1 });
const comment = (id: number, body: string, user = bot) => ({ id, body, user });
const trustBots = (author: { type: string }) => author.type === 'Bot';

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  expect(nock.pendingMocks()).toEqual([]);
  nock.cleanAll();
});

describe('job markers', () => {
  it('writes and finds the hidden marker, the last one winning', () => {
    expect(jobMarker('abc23')).toBe('<!-- docwright-job: abc23 -->');
    expect(findJobMarker(`quoted ${jobMarker('old')}\n\nstatus\n${jobMarker('new')}`)).toBe('new');
    expect(findJobMarker('no marker here')).toBeNull();
    expect(findJobMarker(null)).toBeNull();
  });

  it('neutralises markers in text from elsewhere', () => {
    expect(findJobMarker(neutralizeMarkers(`reply ${jobMarker('planted')}`))).toBeNull();
  });
});

describe('findThreadJob', () => {
  it('finds the newest marked status comment by a bot, reading every page of a long thread', async () => {
    const firstPage = Array.from({ length: 100 }, (_, index) =>
      comment(index + 1, `comment ${index}`, person('a')),
    );
    firstPage[10] = comment(11, `⏳ Working\n${jobMarker('first')}`);
    nock(API)
      .get('/repos/Codertocat/Hello-World/issues/1/comments')
      .query({ per_page: 100, page: 1 })
      .reply(200, firstPage)
      .get('/repos/Codertocat/Hello-World/issues/1/comments')
      .query({ per_page: 100, page: 2 })
      .reply(200, [comment(201, `✅ Done\n${jobMarker('second')}`), comment(202, '/docs more', person('a'))]);
    expect(await findThreadJob(octokit, issue, { trust: trustBots })).toEqual({
      jobId: 'second',
      commentId: 201,
      commentBody: `✅ Done\n${jobMarker('second')}`,
    });
  });

  it('skips a marker planted by someone without permission, and trusts one by a writer', async () => {
    nock(API)
      .get('/repos/Codertocat/Hello-World/issues/1/comments')
      .query(true)
      .reply(200, [
        comment(1, jobMarker('by-writer'), person('writer')),
        comment(2, jobMarker('planted'), person('reader')),
        comment(3, jobMarker('planted-again'), person('reader')),
      ])
      .get('/repos/Codertocat/Hello-World/collaborators/reader/permission')
      .reply(200, { permission: 'read', role_name: 'read' })
      .get('/repos/Codertocat/Hello-World/collaborators/writer/permission')
      .reply(200, { permission: 'write', role_name: 'write' });
    const trust = trustBotsAndPermitted(octokit, issue, 'write');
    // The reader's permission is asked once for both of their comments.
    expect(await findThreadJob(octokit, issue, { trust })).toMatchObject({
      jobId: 'by-writer',
      commentId: 1,
    });
  });

  it('falls back to the marker in the body of a pull request the job opened', async () => {
    nock(API).get('/repos/Codertocat/Hello-World/issues/2/comments').query(true).reply(200, []);
    const pullRequest = { body: `Replaced 3 mentions.\n\n${jobMarker('from-pr')}`, author: bot };
    expect(await findThreadJob(octokit, pull, { trust: trustBots, pullRequest })).toEqual({
      jobId: 'from-pr',
      commentId: null,
      commentBody: null,
    });
  });

  it('finds nothing in a thread without markers, or with a pull request by an untrusted author', async () => {
    nock(API)
      .get('/repos/Codertocat/Hello-World/issues/2/comments')
      .query(true)
      .reply(200, [comment(5, 'hello', person('a'))]);
    const pullRequest = { body: jobMarker('forged'), author: person('a') };
    expect(await findThreadJob(octokit, pull, { trust: trustBots, pullRequest })).toBeNull();
  });
});
