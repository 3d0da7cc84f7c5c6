import type { GitHubApi } from './types.js';
import type { PullRequestRef } from './pull-request-files.js';

/** A pull request's files are listed 100 a page; GitHub lists 3,000 at most. */
const PAGE_SIZE = 100;
/** Pages read: 300 files is far past what one docs sync can act on; the rest is left out. */
const MAX_PAGES = 3;

/** What a docs sync needs of a pull request: what it says and what it changes. */
export interface PullRequestChange {
  htmlUrl: string;
  title: string;
  body: string;
  merged: boolean;
  /** A unified diff of the pull request's files, rebuilt from the patches GitHub lists per file. */
  diff: string;
}

/**
 * Reads a pull request and its diff. The diff is put together from the files list (one request per
 * 100 files, JSON like every other answer) instead of the `diff` media type: GitHub leaves out the
 * patch of a file too large or binary, which a docs sync could not use either.
 */
export async function readPullRequestChange(
  octokit: GitHubApi,
  pullRequest: PullRequestRef,
): Promise<PullRequestChange> {
  const { owner, repo, number } = pullRequest;
  const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number });
  const sections: string[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const files = await octokit.rest.pulls.listFiles({
      owner,
      repo,
      pull_number: number,
      per_page: PAGE_SIZE,
      page,
    });
    for (const file of files.data) sections.push(fileSection(file));
    if (files.data.length < PAGE_SIZE) break;
  }
  return {
    htmlUrl: data.html_url,
    title: data.title,
    body: data.body ?? '',
    merged: Boolean(data.merged_at),
    diff: sections.join(''),
  };
}

interface ListedFile {
  filename: string;
  status: string;
  previous_filename?: string;
  patch?: string;
}

/** One file of the diff as `git diff` writes it, from the file's entry in the list. */
function fileSection(file: ListedFile): string {
  const before = file.previous_filename ?? file.filename;
  const added = file.status === 'added';
  const removed = file.status === 'removed';
  const lines = [`diff --git a/${before} b/${file.filename}`];
  if (added) lines.push('new file mode 100644');
  if (removed) lines.push('deleted file mode 100644');
  if (file.previous_filename) lines.push(`rename from ${before}`, `rename to ${file.filename}`);
  if (file.patch === undefined) {
    lines.push(`Binary files a/${before} and b/${file.filename} differ`);
    return `${lines.join('\n')}\n`;
  }
  lines.push(
    added ? '--- /dev/null' : `--- a/${before}`,
    removed ? '+++ /dev/null' : `+++ b/${file.filename}`,
  );
  return `${lines.join('\n')}\n${file.patch.replace(/\n?$/, '\n')}`;
}
