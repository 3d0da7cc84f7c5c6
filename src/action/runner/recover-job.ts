import { findPullRequestByHead, type GitHubClient, type RepositoryName } from '../../forge/github.js';
import type { Forge } from '../../forge/types.js';
import { readPullRequestBody, type PullRequestConversation } from '../../github/pull-request-body.js';
import { JOB_TRAILER, parseCommitMessage } from '../../engine/commit-message.js';
import type { JobMessageRow, JobRow } from '../../store/index.js';

/** A job as a runner knows it: its row and its messages, oldest first. */
export interface RunnerJob {
  row: JobRow;
  messages: JobMessageRow[];
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
 */
export async function recoverJob(options: RecoverOptions, jobId: string, branch: string): Promise<RunnerJob> {
  const [pullRequest, head] = await Promise.all([
    findPullRequestByHead(options.octokit, options.repository, branch, { state: 'all' }),
    options.forge.resolveRef(options.fullName, branch),
  ]);
  const conversation = pullRequest
    ? readPullRequestBody(pullRequest.body, options.webUrl)
    : { requests: [], threads: [] };
  const replies = head ? await repliesOnBranch(options, jobId, head) : [];
  const time = options.now().toISOString();
  const messages: JobMessageRow[] = [];
  const turns = Math.max(conversation.requests.length, replies.length);
  for (let turn = 0; turn < turns; turn += 1) {
    const request = conversation.requests[turn];
    const reply = replies[turn];
    if (request !== undefined) messages.push(message(messages, jobId, 'user', request, time));
    if (reply !== undefined) messages.push(message(messages, jobId, 'agent', reply, time));
  }
  const archived = pullRequest?.state === 'closed';
  return {
    row: {
      id: jobId,
      project_id: options.projectId,
      status: archived ? 'archived' : 'completed',
      model: options.model,
      repository_url: options.repositoryUrl,
      branch,
      pr_link: pullRequest?.url ?? null,
      error: null,
      created_at: time,
      updated_at: time,
      archived_at: archived ? time : null,
      lease_owner: null,
      lease_expires_at: null,
      attempts: 0,
      branch_head: head,
    },
    messages,
    threads: conversation.threads,
  };
}

/** The replies of the job's runs, oldest first: the job's commits from the branch head down. */
async function repliesOnBranch(options: RecoverOptions, jobId: string, head: string): Promise<string[]> {
  const replies: string[] = [];
  let sha: string | undefined = head;
  for (let read = 0; sha && read < MAX_COMMITS_READ; read += 1) {
    const commit: { message: string; parents: { sha: string }[] } = (
      await options.octokit.rest.git.getCommit({ ...options.repository, commit_sha: sha })
    ).data;
    const parsed = parseCommitMessage(commit.message);
    if (parsed.trailers[JOB_TRAILER] !== jobId) break;
    replies.unshift(parsed.reply || parsed.title);
    sha = commit.parents[0]?.sha;
  }
  return replies;
}

function message(
  messages: JobMessageRow[],
  jobId: string,
  role: 'user' | 'agent',
  content: string,
  time: string,
): JobMessageRow {
  return {
    id: messages.length + 1,
    job_id: jobId,
    role,
    content,
    created_at: time,
    state: role === 'user' ? 'handled' : null,
    changed: role === 'agent' ? 1 : null,
  };
}
