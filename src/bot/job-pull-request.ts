import type { JobRow } from '../store/index.js';

/** Where a pull request's head is, as a webhook shows it; null when the payload does not say. */
export interface PullRequestHead {
  /** The head branch (`head.ref`). */
  headRef: string | null;
  /** `owner/repo` of the head (`head.repo.full_name`): a fork's when the PR comes from one. */
  headRepository: string | null;
}

/** Whether the pull request comes from a fork, as far as the payload shows (GitHub names are case-insensitive). */
export function isFromFork(repository: string, head: PullRequestHead): boolean {
  return head.headRepository !== null && head.headRepository.toLowerCase() !== repository.toLowerCase();
}

/**
 * Whether the pull request's head is the job's branch in the repository itself. A branch name
 * alone proves nothing: anyone can push a branch named `docwright/job-…` to a fork and open a
 * pull request from it, so the head repository must be the base repository too.
 */
export function headIsJobBranch(repository: string, head: PullRequestHead, job: JobRow): boolean {
  return head.headRepository !== null && !isFromFork(repository, head) && head.headRef === job.branch;
}
