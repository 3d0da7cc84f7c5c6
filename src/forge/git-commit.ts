import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { badRequest } from '../errors.js';
import { ancestorsOf, type PlannedChange } from './git-change-plan.js';
import type { GitRunner } from './git-command.js';
import { parseLsTree, type TreeEntry } from './git-ls-tree.js';

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
  const workspace = await mkdtemp(path.join(tmpdir(), 'docwright-commit-'));
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
  await Promise.all(writes.map((write) => writeFile(write.file, write.content)));
  const output = await git.text(repository, ['hash-object', '-w', '--no-filters', '--stdin-paths'], {
    input: `${writes.map((write) => write.file).join('\n')}\n`,
  });
  const lines = output.split('\n');
  if (lines.length !== writes.length) throw new Error('git hash-object returned an unexpected number of ids');
  lines.forEach((id, index) => ids.set(writes[index]?.path ?? '', id));
  return ids;
}

/** `update-index -z --index-info` input: `<mode> SP <id> TAB <path> NUL`; mode 0 removes the path. */
function indexInfo(changes: readonly PlannedChange[], blobs: Map<string, string>, idLength: number): Buffer {
  const zero = '0'.repeat(idLength);
  const records = changes.map((change) => {
    const id = change.content === null ? zero : blobs.get(change.path);
    if (id === undefined) throw new Error(`No blob for ${change.path}`);
    return `${change.mode} ${id}\t${change.path}\0`;
  });
  return Buffer.from(records.join(''), 'utf8');
}
