import { conflict, DocwrightError } from '../../core/errors.js';
import type { PlannedChange } from '../git-change-plan.js';
import type { TreeEntry } from '../git-ls-tree.js';
import { isRefusal } from '../../github-api/request-error.js';
import type { GitHubClient } from '../../github-api/types.js';
import type { RepositoryName } from '../../github-api/repository-name.js';
import { BranchMovedError } from '../local-git.js';

/** Entries per `POST /git/trees` (the bound; GitHub documents none, large bodies time out). */
const TREE_CHUNK_SIZE = 100;
/** Inline text per tree request; past it the chunk closes early, so one request body stays small. */
const CHUNK_TEXT_BYTES = 4_000_000;
/** Text files larger than this go through `POST /git/blobs` instead of riding in the tree body. */
const INLINE_TEXT_LIMIT = 512_000;

type TreeMode = '100644' | '100755' | '040000' | '160000' | '120000';

/** One element of the `tree` array of `POST /repos/{owner}/{repo}/git/trees`. */
interface TreeItem {
  path: string;
  mode: TreeMode;
  type: 'blob';
  /** A blob id, or null to delete the path; absent when `content` is given. */
  sha?: string | null;
  content?: string;
}

/**
 * Writes the planned changes as trees on top of `baseTree` and returns the last tree's id.
 * Deletions come first, so a file replaced by a folder is gone before the folder's entries land,
 * whichever chunk they fall in. Each chunk's tree is the next chunk's `base_tree`.
 */
export async function writeTree(
  client: GitHubClient,
  name: RepositoryName,
  baseTree: string,
  changes: readonly PlannedChange[],
  parentEntries: ReadonlyMap<string, TreeEntry>,
): Promise<string> {
  const ordered = [
    ...changes.filter((change) => change.content === null),
    ...changes.filter((change) => change.content !== null),
  ];
  const items: TreeItem[] = [];
  for (const change of ordered) items.push(await treeItem(client, name, change, parentEntries));
  let tree = baseTree;
  for (const chunk of chunkItems(items)) {
    const { data } = await client.rest.git.createTree({ ...name, base_tree: tree, tree: chunk });
    tree = data.sha;
  }
  return tree;
}

/** Splits tree items into requests of at most TREE_CHUNK_SIZE entries and CHUNK_TEXT_BYTES of text. */
function chunkItems(items: readonly TreeItem[]): TreeItem[][] {
  const chunks: TreeItem[][] = [];
  let current: TreeItem[] = [];
  let textBytes = 0;
  for (const item of items) {
    const size = item.content === undefined ? 0 : Buffer.byteLength(item.content, 'utf8');
    if (current.length === TREE_CHUNK_SIZE || (current.length > 0 && textBytes + size > CHUNK_TEXT_BYTES)) {
      chunks.push(current);
      current = [];
      textBytes = 0;
    }
    current.push(item);
    textBytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Text that survives a UTF-8 round trip goes inline; anything else is uploaded as a base64 blob. */
async function treeItem(
  client: GitHubClient,
  name: RepositoryName,
  change: PlannedChange,
  parentEntries: ReadonlyMap<string, TreeEntry>,
): Promise<TreeItem> {
  if (change.content === null) {
    // The tree API wants a valid mode even for a deletion; the parent's entry has it.
    const mode = treeMode(parentEntries.get(change.path)?.mode ?? '100644');
    return { path: change.path, mode, type: 'blob', sha: null };
  }
  const mode = treeMode(change.mode);
  const text = asText(change.content);
  if (text !== null) return { path: change.path, mode, type: 'blob', content: text };
  const { data } = await client.rest.git.createBlob({
    ...name,
    content: change.content.toString('base64'),
    encoding: 'base64',
  });
  return { path: change.path, mode, type: 'blob', sha: data.sha };
}

/** The content as a string when sending it as JSON text keeps every byte; null otherwise. */
function asText(content: Buffer): string | null {
  if (content.length > INLINE_TEXT_LIMIT || content.includes(0)) return null;
  const text = content.toString('utf8');
  return Buffer.from(text, 'utf8').equals(content) ? text : null;
}

function treeMode(mode: string): TreeMode {
  if (mode === '100644' || mode === '100755' || mode === '120000' || mode === '040000' || mode === '160000') {
    return mode;
  }
  throw new DocwrightError('forge_error', `Unexpected tree entry mode ${mode}`, { retryable: false });
}

/**
 * Points `refs/heads/<branch>` at `sha`: created when `expectedHead` is null, otherwise
 * fast-forwarded with `force: false`. GitHub's REST API has no compare-and-set on refs, but a
 * fast-forward never drops a commit someone else pushed, which is what the check protects; a
 * branch that moved on (or appeared) is a BranchMovedError, as with the local forge.
 */
export async function moveBranch(
  client: GitHubClient,
  name: RepositoryName,
  branch: string,
  sha: string,
  expectedHead: string | null,
  currentHead: () => Promise<string | null>,
): Promise<void> {
  try {
    if (expectedHead === null) {
      await client.rest.git.createRef({ ...name, ref: `refs/heads/${branch}`, sha });
    } else {
      await client.rest.git.updateRef({ ...name, ref: `heads/${branch}`, sha, force: false });
    }
  } catch (error) {
    const moved =
      isRefusal(error, 'Reference already exists') ||
      isRefusal(error, 'Update is not a fast forward') ||
      isRefusal(error, 'Reference does not exist');
    if (!moved) throw error;
    const actual = await currentHead().catch(() => null);
    // Still at the expected head, yet refused: the new commit does not build on it (parent != head).
    if (actual !== null && actual === expectedHead) {
      throw conflict(`Cannot move ${branch}: the new commit does not descend from its head ${actual}`);
    }
    throw new BranchMovedError(branch, expectedHead, actual);
  }
}
