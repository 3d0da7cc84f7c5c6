import { BoundedCache } from './cache.js';
import type { RepositoryName } from '../../github-api/repository-name.js';

/**
 * Branch heads the GitHub forge saw (looked up, written, or told by a push webhook), taken as
 * current for `keepMs` without asking GitHub again. Pushes are what keep the memory true, so with
 * no webhooks `keepMs` is 0 and nothing is remembered. A wrong memory costs a retry, never a lost
 * commit: a branch is only ever fast-forwarded from the head the run saw.
 */
export class BranchHeads {
  private readonly heads = new BoundedCache<string, { sha: string; at: number }>(1024);

  constructor(
    private readonly keepMs: number,
    private readonly now: () => number,
  ) {}

  remember(name: RepositoryName, branch: string, sha: string): void {
    if (this.keepMs > 0) this.heads.set(key(name, branch), { sha, at: this.now() });
  }

  forget(name: RepositoryName, branch: string): void {
    this.heads.set(key(name, branch), { sha: '', at: 0 });
  }

  /** The head remembered for `branch` while it is fresh; null when GitHub must be asked. */
  current(name: RepositoryName, branch: string): string | null {
    const remembered = this.heads.get(key(name, branch));
    const fresh = remembered !== undefined && this.now() - remembered.at < this.keepMs;
    return fresh && remembered.sha !== '' ? remembered.sha : null;
  }
}

/** A branch of a repository, however the repository was spelled. */
function key({ owner, repo }: RepositoryName, branch: string): string {
  return `${owner}/${repo}`.toLowerCase() + `\0${branch.replace(/^refs\/heads\//, '')}`;
}
