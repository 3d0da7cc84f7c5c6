import type { GitHubApi } from './types.js';

/** A pull request named by its web address. */
export interface PullRequestRef {
  owner: string;
  repo: string;
  number: number;
}

/** The changed files of a pull request, as the status comment shows them. */
export interface ChangedFiles {
  paths: string[];
  total: number;
  /** True when there were more files than one page holds. */
  more: boolean;
}

/**
 * Reads `<web root>/<owner>/<repo>/pull/<n>` (github.com's, or a GitHub Enterprise host's).
 * Returns null for a link on another host: a server may open pull requests anywhere.
 */
export function parsePullRequestLink(link: string, serverUrl: string): PullRequestRef | null {
  const url = urlOf(link);
  if (!url || url.host !== new URL(serverUrl).host) return null;
  return pullRequestPath(url);
}

/**
 * The pull request a job's own stored link names, when it is one of `repository` (`owner/repo`).
 * Unlike {@link parsePullRequestLink} the host is not compared: the link is the `html_url` GitHub
 * returned when docwright opened the pull request, so it is this GitHub's even when its web address
 * reads differently from the one configured (a proxy, or another name of an Enterprise Server).
 */
export function pullRequestOfJob(link: string, repository: string): PullRequestRef | null {
  const url = urlOf(link);
  const pullRequest = url ? pullRequestPath(url) : null;
  if (!pullRequest || `${pullRequest.owner}/${pullRequest.repo}`.toLowerCase() !== repository.toLowerCase())
    return null;
  return pullRequest;
}

function urlOf(link: string): URL | null {
  try {
    return new URL(link);
  } catch {
    return null;
  }
}

function pullRequestPath(url: URL): PullRequestRef | null {
  const match = /^\/([^/]+)\/([^/]+)\/pull\/(\d+)\/?$/.exec(url.pathname);
  if (!match) return null;
  return { owner: match[1] as string, repo: match[2] as string, number: Number(match[3]) };
}

const PAGE_SIZE = 100;

/** The files a pull request changes (first page: enough to name them in a comment). */
export async function listChangedFiles(
  octokit: GitHubApi,
  pullRequest: PullRequestRef,
): Promise<ChangedFiles> {
  const { data } = await octokit.rest.pulls.listFiles({
    owner: pullRequest.owner,
    repo: pullRequest.repo,
    pull_number: pullRequest.number,
    per_page: PAGE_SIZE,
  });
  return { paths: data.map((file) => file.filename), total: data.length, more: data.length === PAGE_SIZE };
}
