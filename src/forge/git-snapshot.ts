import { notFound } from '../core/errors.js';
import type { CatFileBatch } from './git-cat-file.js';
import { SYMLINK_MODE, type TreeEntry } from './git-ls-tree.js';
import type { Snapshot } from './types.js';

/**
 * The files of one commit of a local repository. Paths come from one `ls-tree` run; contents are
 * read on demand through a shared `cat-file --batch` process. Submodules are not files and are left
 * out; a symlink appears as a file whose content is its target (what git stores), and
 * `isSymlink()` tells them apart so no writer follows one.
 */
export class LocalGitSnapshot implements Snapshot {
  private readonly blobs = new Map<string, TreeEntry>();
  private readonly sorted: string[];

  constructor(
    readonly commit: string,
    entries: readonly TreeEntry[],
    private readonly reader: CatFileBatch,
  ) {
    for (const entry of entries) if (entry.type === 'blob') this.blobs.set(entry.path, entry);
    this.sorted = [...this.blobs.keys()].sort();
  }

  paths(): string[] {
    return [...this.sorted];
  }

  has(path: string): boolean {
    return this.blobs.has(path);
  }

  isSymlink(path: string): boolean {
    return this.blobs.get(path)?.mode === SYMLINK_MODE;
  }

  read(path: string): Promise<Buffer> {
    const entry = this.blobs.get(path);
    if (entry === undefined) return Promise.reject(notFound(`File not found: ${path}`));
    return this.reader.read(entry.object);
  }

  /** Stops the reader process now instead of after its idle delay. */
  close(): void {
    this.reader.close();
  }
}
