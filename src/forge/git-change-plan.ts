import { badRequest } from '../core/errors.js';
import { SYMLINK_MODE, type TreeEntry } from './git-ls-tree.js';
import { normalizePath, unsafePathReason } from '../write-policy/index.js';
import type { FileChange } from './types.js';

/** One line of the temporary index update: a blob to write with its mode, or a deletion. */
export interface PlannedChange {
  path: string;
  /** `100644`/`100755` for a write (an existing file keeps its mode), `0` for a deletion. */
  mode: string;
  content: Buffer | null;
}

const REGULAR_FILE_MODE = '100644';

/**
 * Normalises the paths of a change set and refuses an empty set, duplicates, and any path the
 * write policy says no repository may hold (`.github/`, `.git`, escapes, look-alike separators),
 * asked here again because a forge may be handed changes by any caller.
 */
export function normalizeChanges(changes: readonly FileChange[]): FileChange[] {
  if (changes.length === 0) throw badRequest('Nothing to commit: the change set is empty');
  const seen = new Set<string>();
  return changes.map((change) => {
    const unsafe = unsafePathReason(change.path);
    if (unsafe !== undefined) throw badRequest(`Refusing to write ${JSON.stringify(change.path)}: ${unsafe}`);
    const file = normalizePath(change.path);
    if (seen.has(file)) throw badRequest(`The change set names ${file} twice`);
    seen.add(file);
    return { path: file, content: change.content };
  });
}

/** Every folder above a path, outermost first: `a/b/c.md` -> `a`, `a/b`. */
export function ancestorsOf(file: string): string[] {
  const segments = file.split('/');
  return segments.slice(0, -1).map((_, index) => segments.slice(0, index + 1).join('/'));
}

/**
 * Checks the changes against the parent tree's entries for those paths and their folders (from
 * `ls-tree -t`), and decides each file's mode. Refused: writing to or through a symlink (the
 * checkout would follow it out of the folder), replacing a folder or submodule by a file, writing
 * below a file that stays, and deleting what is not a file. Git's index would otherwise replace
 * the conflicting entries silently, so the commit would hold more than the change set.
 */
export function planChanges(
  changes: readonly FileChange[],
  parentEntries: readonly TreeEntry[],
): PlannedChange[] {
  const entries = new Map(parentEntries.map((entry) => [entry.path, entry]));
  const deleted = new Set(changes.filter((change) => change.content === null).map((change) => change.path));
  const written = new Set(changes.filter((change) => change.content !== null).map((change) => change.path));
  return changes.map((change) => {
    for (const folder of ancestorsOf(change.path)) {
      const entry = entries.get(folder);
      if (entry?.mode === SYMLINK_MODE)
        throw badRequest(`Refusing to write through symlink ${folder}: ${change.path}`);
      if (entry !== undefined && entry.type !== 'tree' && !deleted.has(folder)) {
        throw badRequest(`Cannot write ${change.path}: ${folder} is a ${describe(entry)}`);
      }
      if (change.content !== null && written.has(folder)) {
        throw badRequest(`The change set writes both ${folder} and ${change.path}`);
      }
    }
    return planOne(change, entries.get(change.path));
  });
}

function planOne(change: FileChange, entry: TreeEntry | undefined): PlannedChange {
  if (change.content === null) {
    if (entry?.type !== 'blob')
      throw badRequest(`Cannot delete ${change.path}: not a file in the parent commit`);
    return { path: change.path, mode: '0', content: null };
  }
  if (entry?.mode === SYMLINK_MODE) throw badRequest(`Refusing to write to symlink ${change.path}`);
  if (entry !== undefined && entry.type !== 'blob') {
    throw badRequest(`Cannot write ${change.path}: it is a ${describe(entry)}`);
  }
  return { path: change.path, mode: entry?.mode ?? REGULAR_FILE_MODE, content: change.content };
}

function describe(entry: TreeEntry): string {
  if (entry.type === 'tree') return 'folder';
  if (entry.type === 'commit') return 'submodule';
  return entry.mode === SYMLINK_MODE ? 'symlink' : 'file';
}
