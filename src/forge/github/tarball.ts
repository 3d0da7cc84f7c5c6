import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract, type Header } from 'tar-stream';
import { asError, DocwrightError } from '../../core/errors.js';
import { SYMLINK_MODE, TREE_MODE, type TreeEntry } from '../git-ls-tree.js';
import { MemorySnapshot } from '../memory-snapshot.js';
import { normalizePath } from '../overlay.js';

/** How much of a repository the forge holds in memory at once. */
export interface TarballLimits {
  /** Total bytes of the archive's entries (uncompressed). */
  maxBytes: number;
  maxFiles: number;
}

/**
 * The files of one commit, read from GitHub's tarball. Regular files are in memory; symlinks are
 * left out (their target is not content the agent should read) but remembered, so `isSymlink()`
 * and the commit's checks can refuse writing to or through one. `entries` has the shape of
 * `git ls-tree -t` output (without object ids), which is what the change planner checks against.
 */
export class GitHubSnapshot extends MemorySnapshot {
  private readonly symlinks: ReadonlySet<string>;

  constructor(
    commit: string,
    files: Map<string, Buffer>,
    readonly entries: readonly TreeEntry[],
  ) {
    super(commit, files);
    this.symlinks = new Set(
      entries.filter((entry) => entry.mode === SYMLINK_MODE).map((entry) => entry.path),
    );
  }

  isSymlink(path: string): boolean {
    return this.symlinks.has(path);
  }
}

/**
 * Reads a gzipped tarball as GitHub serves it (`git archive` output: a pax global header carrying
 * the commit id, then everything under one `owner-repo-<short sha>/` folder, long names in pax
 * headers) into a snapshot. The stream is consumed as it arrives and abandoned as soon as a limit
 * is passed, so a huge repository costs at most `maxBytes` of memory.
 */
export async function readTarball(
  input: Readable,
  commit: string,
  limits: TarballLimits,
  describe: string,
): Promise<GitHubSnapshot> {
  const files = new Map<string, Buffer>();
  const entries: TreeEntry[] = [];
  const archive = extract();
  // The pipeline's failure is captured as a value at once, so it cannot surface as an unhandled rejection.
  const piping = pipeline(input, createGunzip(), archive).then(
    () => null,
    (error: unknown) => asError(error),
  );
  let total = 0;
  try {
    for await (const entry of archive) {
      total += entry.header.size ?? 0;
      if (total > limits.maxBytes)
        throw tooLarge(describe, `more than ${megabytes(limits.maxBytes)} of files`);
      const kept = classify(entry.header);
      if (kept === null || kept.type === 'tree' || kept.mode === SYMLINK_MODE) {
        if (kept !== null) entries.push(kept);
        entry.resume();
        continue;
      }
      if (files.size >= limits.maxFiles) throw tooLarge(describe, `more than ${limits.maxFiles} files`);
      const chunks: Uint8Array[] = [];
      for await (const chunk of entry) {
        if (!(chunk instanceof Uint8Array))
          throw new DocwrightError('internal_error', 'Unexpected tar entry chunk', { retryable: false });
        chunks.push(chunk);
      }
      files.set(kept.path, Buffer.concat(chunks));
      entries.push(kept);
    }
  } catch (error) {
    archive.destroy();
    input.destroy();
    const failure = await piping;
    if (DocwrightError.isInstance(error) || failure === null) throw error;
    // A broken gzip or tar stream ends the loop with the pipeline's error: say which archive.
    throw new DocwrightError(
      'forge_error',
      `GitHub's archive of ${describe} is unreadable: ${failure.message}`,
      // A download cut short or garbled on the way heals with a fresh download.
      { retryable: true },
    );
  }
  const failure = await piping;
  if (failure !== null) {
    throw new DocwrightError(
      'forge_error',
      `GitHub's archive of ${describe} is unreadable: ${failure.message}`,
      // A download cut short or garbled on the way heals with a fresh download.
      { retryable: true },
    );
  }
  return new GitHubSnapshot(commit, files, entries);
}

/**
 * The tree entry an archive member stands for, with the top-level folder stripped; null for what a
 * snapshot leaves out (the folder itself, hard links and devices, which `git archive` never writes).
 */
function classify(header: Header): TreeEntry | null {
  const slash = header.name.indexOf('/');
  const stripped = slash === -1 ? '' : header.name.slice(slash + 1).replace(/\/+$/, '');
  if (stripped === '') return null;
  let path: string;
  try {
    path = normalizePath(stripped);
  } catch {
    return null; // `..` or an absolute name cannot come from git; never let one into the overlay
  }
  switch (header.type) {
    case 'file':
    case 'contiguous-file':
      // git records only one executable bit; `git archive` writes 0775 or 0664.
      return {
        mode: ((header.mode ?? 0) & 0o100) !== 0 ? '100755' : '100644',
        type: 'blob',
        object: '',
        path,
      };
    case 'symlink':
      return { mode: SYMLINK_MODE, type: 'blob', object: '', path };
    case 'directory':
      return { mode: TREE_MODE, type: 'tree', object: '', path };
    default:
      return null;
  }
}

function tooLarge(describe: string, what: string): DocwrightError {
  return new DocwrightError('payload_too_large', `${describe} holds ${what}: too large to edit in memory`);
}

function megabytes(bytes: number): string {
  return bytes >= 1_000_000 ? `${Math.round(bytes / 1_000_000)} MB` : `${Math.round(bytes / 1000)} kB`;
}
