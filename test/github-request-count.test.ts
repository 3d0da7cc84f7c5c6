import { describe, expect, it } from 'vitest';
import { countRequestCases } from '../bench/github-requests.js';

/**
 * What docs/github-app.mdx promises a command costs in GitHub requests, counted at the HTTP
 * boundary on the real service (the same cases `npm run bench` writes to bench/RESULTS.md).
 */
describe('GitHub requests of a single-file job, through the App', () => {
  it('costs what the docs say, and a command on the job’s pull request never opens it again', async () => {
    const cases = await countRequestCases();
    const totals = Object.fromEntries(cases.map((item) => [item.title, item.total]));
    expect(totals).toEqual({
      'first command, no settings file': 8,
      'first command, with docwright.yml': 8,
      'later command, another issue': 5,
      'later command, by the owner': 4,
      'later command, same issue': 6,
      "command on the job's pull request": 6,
      "command on the job's pull request, after a restart": 10,
      "command on the job's pull request, links under another host": 6,
    });
    for (const item of cases.filter((each) => each.title.startsWith("command on the job's pull request")))
      expect(item.requests.filter((line) => line.startsWith('POST /repos/octo-org/docs-site/pulls'))).toEqual(
        [],
      );
  }, 60_000);
});
