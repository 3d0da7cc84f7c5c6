import type { PlannedChange } from '../git-change-plan.js';
import { TREE_MODE, type TreeEntry } from '../git-ls-tree.js';
import { GitHubSnapshot } from './tarball.js';

/** Total bytes of a snapshot's files: what keeping it in memory costs. */
function snapshotBytes(snapshot: GitHubSnapshot): number {
  let total = 0;
  for (const entry of snapshot.entries) {
    if (entry.type === 'blob') total += snapshot.size(entry.path);
  }
  return total;
}

/**
 * The snapshot of a commit the forge just wrote: its parent's files with the planned changes
 * applied. A follow-up run then starts from its own last commit without downloading it again.
 * Folders are derived from the files, as git has no empty ones.
 */
export async function snapshotAfter(
  parent: GitHubSnapshot,
  commit: string,
  changes: readonly PlannedChange[],
): Promise<GitHubSnapshot> {
  const files = new Map<string, Buffer>();
  for (const path of parent.paths()) files.set(path, await parent.read(path));
  const leaves = new Map<string, TreeEntry>(
    parent.entries.filter((entry) => entry.type !== 'tree').map((entry) => [entry.path, entry]),
  );
  for (const change of changes) {
    if (change.content === null) {
      files.delete(change.path);
      leaves.delete(change.path);
    } else {
      files.set(change.path, change.content);
      leaves.set(change.path, { mode: change.mode, type: 'blob', object: '', path: change.path });
    }
  }
  const folders = new Set<string>();
  for (const path of leaves.keys()) {
    const parts = path.split('/');
    for (let depth = 1; depth < parts.length; depth += 1) folders.add(parts.slice(0, depth).join('/'));
  }
  const entries: TreeEntry[] = [
    ...[...folders].map((path): TreeEntry => ({ mode: TREE_MODE, type: 'tree', object: '', path })),
    ...leaves.values(),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return new GitHubSnapshot(commit, files, entries);
}

/**
 * Snapshots kept for the next run on the same commit or its child, least recently used first out,
 * within a budget of bytes (a child shares its parent's unchanged buffers, so this overcounts).
 */
export class SnapshotMemory {
  private readonly kept = new Map<string, { snapshot: GitHubSnapshot; bytes: number }>();
  private total = 0;

  constructor(private readonly budgetBytes: number) {}

  get(key: string): GitHubSnapshot | undefined {
    const entry = this.kept.get(key);
    if (entry === undefined) return undefined;
    this.kept.delete(key);
    this.kept.set(key, entry);
    return entry.snapshot;
  }

  keep(key: string, snapshot: GitHubSnapshot): void {
    const bytes = snapshotBytes(snapshot);
    if (bytes > this.budgetBytes) return;
    const previous = this.kept.get(key);
    if (previous) {
      this.kept.delete(key);
      this.total -= previous.bytes;
    }
    this.kept.set(key, { snapshot, bytes });
    this.total += bytes;
    for (const [oldest, entry] of this.kept) {
      if (this.total <= this.budgetBytes) break;
      this.kept.delete(oldest);
      this.total -= entry.bytes;
    }
  }
}
