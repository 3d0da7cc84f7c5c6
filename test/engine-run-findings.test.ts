import { describe, expect, it } from 'vitest';
import type { CheckProblem } from '../src/checks/index.js';
import { blockingFailure, runReply } from '../src/engine/run-findings.js';

const frontmatter: CheckProblem = {
  rule: 'frontmatter',
  file: 'a.mdx',
  line: 2,
  message: 'the frontmatter is not valid YAML: bad indentation',
  key: 'frontmatter|a.mdx|invalid yaml',
};
const deletedLink: CheckProblem = {
  rule: 'deleted-page-linked',
  file: 'b.mdx',
  line: 4,
  message: 'links to /guides/old, a page this change deletes',
  target: '/guides/old',
  key: 'deleted-page-linked|b.mdx|/guides/old',
};
const brokenLink: CheckProblem = {
  rule: 'broken-link',
  file: 'c.mdx',
  line: 1,
  message: 'the link /typo points to /typo, which is not a page',
  target: '/typo',
  key: 'broken-link|c.mdx|/typo',
};

describe('what the findings mean for a run', () => {
  it('blocks on blocking findings, in words, with the right plural', () => {
    expect(blockingFailure([frontmatter], 'Done')).toBe(
      "Nothing was committed: the change would break the docs site (1 problem the docs checks found after the agent's edits). Send a follow-up message to fix it.\n\n- `a.mdx:2`: the frontmatter is not valid YAML: bad indentation",
    );
    expect(blockingFailure([frontmatter, deletedLink], 'Done')).toMatch(/\(2 problems .*fix them\./);
  });

  it('lets a deleted page that is still linked through when the reply says so, and never blocks on advisory findings', () => {
    expect(
      blockingFailure([deletedLink], 'Removed it. 1 page still links to `/guides/old`.'),
    ).toBeUndefined();
    expect(blockingFailure([brokenLink], 'Done')).toBeUndefined();
  });

  it('lists the files changed and the advisory findings under the reply', () => {
    const reply = runReply(
      'Done.',
      [
        { path: 'a.mdx', content: Buffer.from('x') },
        { path: 'old.mdx', content: null },
      ],
      [brokenLink],
    );
    expect(reply).toBe(
      'Done.\n\n**Files changed (2):** `a.mdx`, `old.mdx` (deleted)\n\n**Docs checks:** 1 finding in 1 file to look at (they do not stop the change):\n\n- `c.mdx:1`: the link /typo points to /typo, which is not a page',
    );
    expect(runReply('Nothing to do.', [], [])).toBe('Nothing to do.');
  });
});
