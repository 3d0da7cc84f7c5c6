import { findPullRequestByHead } from '../../forge/github/github-forge.js';
import type { GitHubClient } from '../../github-api/types.js';
import type { RepositoryName } from '../../github-api/repository-name.js';
import type { Forge } from '../../forge/types.js';
import { readPullRequestBody, type PullRequestConversation } from '../../github/pull-request-body.js';
import { JOB_TRAILER, parseCommitMessage } from '../../engine/commit-message.js';
import type { ImportedJob } from '../../store/index.js';

/** A job of an earlier workflow run as GitHub shows it, for the runner's store to take in. */
export interface RecoveredJob {
  job: ImportedJob;
  /** The threads its pull request's description links to, kept when the description is rewritten. */
  threads: PullRequestConversation['threads'];
}

export interface RecoverOptions {
  octokit: GitHubClient;
  forge: Forge;
  repository: RepositoryName;
  /** `owner/repo`, as the forge is asked about it. */
  fullName: string;
  webUrl: string;
  projectId: string;
  repositoryUrl: string;
  model: string;
  now: () => Date;
}

/** How far back the branch is read for the replies of earlier runs. */
const MAX_COMMITS_READ = 30;

/**
 * A job of an earlier workflow run, rebuilt from what it left on GitHub, since a runner keeps
 * nothing: its branch (each run's commit carries the reply and the job's trailer), its pull request
 * (the description quotes every request and links the threads; a closed or merged one means the job
 * was archived, as the App archives it) and the status comment that named it. A job that never
 * changed anything left no branch and no pull request: it continues without earlier messages.
 * What earlier runs spent is in their own outputs and summaries, not on GitHub, so it starts at none.
 */
export async function recoverJob(
  options: RecoverOptions,
  jobId: string,
  branch: string,
): Promise<RecoveredJob> {
  const [pullRequest, head] = await Promise.all([
    findPullRequestByHead(options.octokit, options.repository, branch, { state: 'all' }),
    options.forge.resolveRef(options.fullName, branch),
  ]);
  const conversation = pullRequest
    ? readPullRequestBody(pullRequest.body, options.webUrl)
    : { requests: [], threads: [] };
  const replies = head ? await repliesOnBranch(options, jobId, head) : [];
  const turns: ImportedJob['turns'] = [];
  for (let turn = 0; turn < Math.max(conversation.requests.length, replies.length); turn += 1) {
    const request = conversation.requests[turn];
    const reply = replies[turn];
    if (request !== undefined) turns.push({ role: 'user', content: request });
    if (reply !== undefined) turns.push({ role: 'agent', content: reply });
  }
  return {
    job: {
      id: jobId,
      projectId: options.projectId,
      model: options.model,
      repositoryUrl: options.repositoryUrl,
      branch,
      turns,
      prLink: pullRequest?.url ?? null,
      branchHead: head,
      archived: pullRequest?.state === 'closed',
    },
    threads: conversation.threads,
  };
}

/**
 * The replies of the job's runs, oldest first: the job's commits from the branch head down, read
 * in one request (a page of the branch's history) and followed by first parents, so a merge of the
 * base into the branch does not interleave its commits with the job's.
 */
async function repliesOnBranch(options: RecoverOptions, jobId: string, head: string): Promise<string[]> {
  const { data } = await options.octokit.rest.repos.listCommits({
    ...options.repository,
    sha: head,
    per_page: MAX_COMMITS_READ,
  });
  const bySha = new Map(data.map((commit) => [commit.sha, commit]));
  const replies: string[] = [];
  for (let commit = bySha.get(head); commit; commit = bySha.get(commit.parents[0]?.sha ?? '')) {
    const parsed = parseCommitMessage(commit.commit.message);
    if (parsed.trailers[JOB_TRAILER] !== jobId) break;
    replies.unshift(parsed.reply || parsed.title);
  }
  return replies;
}
