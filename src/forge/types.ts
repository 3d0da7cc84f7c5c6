/**
 * The Forge is the one adapter between a job and a repository host (local git now, GitHub with the
 * Probot issue). A job never touches a working tree: it reads a snapshot of a commit, edits an
 * in-memory overlay (./overlay.ts), and the forge turns the overlay's changes into one commit.
 */

/** A read-only view of the files of one commit. */
export interface Snapshot {
  /** The commit the snapshot was read from. */
  readonly commit: string;
  /** Every file path in the commit (POSIX, relative to the repository root, no leading slash). */
  paths(): string[];
  has(path: string): boolean;
  read(path: string): Promise<Buffer>;
  /** Releases what the snapshot holds open (e.g. a `git cat-file` process); reads after it fail. */
  close?(): void;
}

/** One file of a change set: `content: null` deletes the file. */
export interface FileChange {
  path: string;
  content: Buffer | null;
}

export interface CommitInfo {
  sha: string;
  message: string;
}

export interface CommitRequest {
  repository: string;
  /** Branch to create or fast-forward, e.g. `docwright/job-abc`. */
  branch: string;
  /** The commit the changes apply to (becomes the parent). */
  parent: string;
  /** The branch head the caller saw, or null when the branch must not exist yet (compare-and-set). */
  expectedHead: string | null;
  changes: FileChange[];
  message: string;
}

export interface PullRequestRequest {
  repository: string;
  base: string;
  head: string;
  title: string;
  body: string;
  /** The page of the pull request this head already has (the job's `prLink`), if known: updated, not looked for. */
  existing?: string | null;
}

export interface Forge {
  /** The commit a branch or ref points at, or null when it does not exist. */
  resolveRef(repository: string, ref: string): Promise<string | null>;
  readCommit(repository: string, sha: string): Promise<CommitInfo>;
  snapshot(repository: string, commit: string): Promise<Snapshot>;
  /** Writes the changes as one commit on `branch`; fails when the branch moved since `expectedHead`. */
  commit(request: CommitRequest): Promise<CommitInfo>;
  /** Opens (or finds) the pull request of `head`; null when the forge has no code review (local git). */
  ensurePullRequest(request: PullRequestRequest): Promise<{ url: string } | null>;
  /** The address shown as `source.repository` (a router may need to look the repository up first). */
  repositoryUrl(repository: string): string | Promise<string>;
}
