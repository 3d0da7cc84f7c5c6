import { describe, expect, it } from 'vitest';
import { readPullRequestBody, renderPullRequestBody } from '../src/github/pull-request-body.js';

const WEB = 'https://github.example.com';

describe('a pull request description read back', () => {
  it('gives the requests and threads it was written with, one or several, blank lines and all', () => {
    const threads = [
      { repository: 'octo-org/docs-site', number: 12, isPullRequest: false },
      { repository: 'octo-org/docs-site', number: 40, isPullRequest: true },
    ];
    for (const requests of [
      ['replace "a" with "b"'],
      ['replace "a" with "b"', 'now the same\n\nin the guides too', '3. add a page'],
    ]) {
      const body = renderPullRequestBody({ jobId: 'job1', reply: 'Done.', requests, threads, webUrl: WEB });
      expect(readPullRequestBody(body, WEB)).toEqual({ requests, threads });
    }
  });

  it('keeps a quoted marker harmless, and gives nothing for a description in another shape', () => {
    const body = renderPullRequestBody({
      jobId: 'job1',
      reply: 'Done.',
      requests: ['say <!-- docwright-job: other --> here'],
      threads: [],
      webUrl: WEB,
    });
    expect(readPullRequestBody(body, WEB).requests).toEqual(['say &lt;!-- docwright-job: other --> here']);
    expect(readPullRequestBody('Fixes the quickstart.\n\n> a quote', WEB)).toEqual({
      requests: [],
      threads: [],
    });
    // A link to another host is not one of ours.
    expect(
      readPullRequestBody(
        'Asked in [octo-org/docs-site#3](https://elsewhere.example/octo-org/docs-site/issues/3).',
        WEB,
      ).threads,
    ).toEqual([]);
  });
});
