import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { badRequest, DocwrightError } from '../core/errors.js';
import { ancestorsOf, type PlannedChange } from './git-change-plan.js';
import type { GitRunner } from './git-command.js';
import { parseLsTree, type TreeEntry } from './git-ls-tree.js';

/**
 * Temporary commit folders are named after the process that made them, so that a later start can
 * tell the folders of a process that was killed mid-commit from those of one still running.
 */
const WORKSPACE_PREFIX = 'docwright-commit-';
/** Folders of the older, unnumbered naming are removed once they are this old. */
const UNNUMBERED_WORKSPACE_MAX_AGE_MS = 60 * 60 * 1000;

/**
 * Removes the temporary commit folders that processes killed during a commit left behind (a
 * SIGKILL skips the `finally` that removes them). Folders of live processes are left alone: other
 * docwright processes on this machine may be committing right now. Returns the folders removed.
 */
export async function removeStaleCommitFolders(folder = tmpdir(), now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    if (!name.startsWith(WORKSPACE_PREFIX)) continue;
    const full = path.join(folder, name);
    const pid = /^docwright-commit-(\d+)-/.exec(name)?.[1];
    const stale = pid ? !isAlive(Number(pid)) : await olderThan(full, now - UNNUMBERED_WORKSPACE_MAX_AGE_MS);
    if (!stale) continue;
    await rm(full, { recursive: true, force: true });
    removed.push(full);
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function olderThan(file: string, cutoff: number): Promise<boolean> {
  const stats = await stat(file).catch(() => null);
  return stats !== null && stats.mtimeMs < cutoff;
}

/** Paths per `ls-tree` call, so a large change set stays far below the argument-length limit. */
const PATHS_PER_CALL = 500;

/**
 * The parent tree's entries for the given paths and every folder above them. The folders are asked
 * for explicitly: `ls-tree` silently stops at a symlink or file in the way of a deeper path, and
 * that entry is exactly what the checks need to see. (Asking for a folder also lists its direct
 * children, which is harmless.)
 */
export async function readParentEntries(
  git: GitRunner,
  repository: string,
  parent: string,
  paths: readonly string[],
): Promise<TreeEntry[]> {
  const wanted = [...new Set(paths.flatMap((file) => [...ancestorsOf(file), file]))];
  const entries: TreeEntry[] = [];
  for (let start = 0; start < wanted.length; start += PATHS_PER_CALL) {
    const chunk = wanted.slice(start, start + PATHS_PER_CALL);
    const { stdout } = await git.run(repository, ['ls-tree', '-t', '-z', parent, '--', ...chunk]);
    entries.push(...parseLsTree(stdout));
  }
  return entries;
}

/**
 * Writes the planned changes as a commit object on top of `parent` and returns its id, using a
 * temporary index in a temporary folder: the repository's own index and working tree are never
 * read or written, and concurrent commits never share an index. No ref is moved here.
 */
export async function writeCommitObject(
  git: GitRunner,
  repository: string,
  parent: string,
  changes: readonly PlannedChange[],
  message: string,
): Promise<string> {
  const workspace = await mkdtemp(path.join(tmpdir(), `${WORKSPACE_PREFIX}${process.pid}-`));
  try {
    const env = { GIT_INDEX_FILE: path.join(workspace, 'index') };
    await git.run(repository, ['read-tree', parent], { env });
    const blobs = await hashBlobs(git, repository, workspace, changes);
    await git.run(repository, ['update-index', '-z', '--index-info'], {
      env,
      input: indexInfo(changes, blobs, parent.length),
    });
    const [tree, parentTree] = await Promise.all([
      git.text(repository, ['write-tree'], { env }),
      git.text(repository, ['rev-parse', '--verify', `${parent}^{tree}`]),
    ]);
    if (tree === parentTree) throw badRequest('Nothing to commit: the changes leave every file as it was');
    // The message goes through stdin, so quotes, newlines and any Unicode arrive untouched.
    const body = message.endsWith('\n') ? message : `${message}\n`;
    return await git.text(repository, ['commit-tree', '--no-gpg-sign', tree, '-p', parent], { input: body });
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

/**
 * Stores the written contents as blobs with one `hash-object` process. `--no-filters` keeps the
 * bytes exact: `.gitattributes` and `core.autocrlf` must not rewrite what the agent wrote.
 */
async function hashBlobs(
  git: GitRunner,
  repository: string,
  workspace: string,
  changes: readonly PlannedChange[],
): Promise<Map<string, string>> {
  const writes: { path: string; content: Buffer; file: string }[] = [];
  for (const change of changes) {
    if (change.content === null) continue;
    writes.push({
      path: change.path,
      content: change.content,
      file: path.join(workspace, `blob-${writes.length}`),
    });
  }
  const ids = new Map<string, string>();
  if (writes.length === 0) return ids;
  await Promise.all(writes.map((write) => writeFile(write.file, write.content, { mode: 0o600 })));
  const output = await git.text(repository, ['hash-object', '-w', '--no-filters', '--stdin-paths'], {
    input: `${writes.map((write) => write.file).join('\n')}\n`,
  });
  const lines = output.split('\n');
  if (lines.length !== writes.length)
    throw new DocwrightError('git_error', 'git hash-object returned an unexpected number of ids', {
      retryable: false,
    });
  lines.forEach((id, index) => ids.set(writes[index]?.path ?? '', id));
  return ids;
}

/** `update-index -z --index-info` input: `<mode> SP <id> TAB <path> NUL`; mode 0 removes the path. */
function indexInfo(changes: readonly PlannedChange[], blobs: Map<string, string>, idLength: number): Buffer {
  const zero = '0'.repeat(idLength);
  const records = changes.map((change) => {
    const id = change.content === null ? zero : blobs.get(change.path);
    if (id === undefined)
      throw new DocwrightError('internal_error', `No blob for ${change.path}`, { retryable: false });
    return `${change.mode} ${id}\t${change.path}\0`;
  });
  return Buffer.from(records.join(''), 'utf8');
}
