import { DocwrightError } from '../core/errors.js';

/** One entry of `git ls-tree -z` output. */
export interface TreeEntry {
  /** Octal mode as git prints it: `100644`, `100755`, `120000` (symlink), `040000`, `160000` (submodule). */
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  object: string;
  path: string;
}

export const SYMLINK_MODE = '120000';
export const TREE_MODE = '040000';

/** Parses `git ls-tree -z` output (`<mode> SP <type> SP <object> TAB <path> NUL` per entry). */
export function parseLsTree(output: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let start = 0;
  while (start < output.length) {
    let end = output.indexOf(0, start);
    if (end === -1) end = output.length;
    const tab = output.indexOf(0x09, start);
    if (tab === -1 || tab > end) throw unexpectedOutput();
    const [mode, type, object] = output.toString('latin1', start, tab).split(' ');
    if (mode === undefined || object === undefined || !isEntryType(type)) {
      throw unexpectedOutput();
    }
    entries.push({ mode, type, object, path: output.toString('utf8', tab + 1, end) });
    start = end + 1;
  }
  return entries;
}

/** Output git would never print: the same command prints it again, so trying again is no use. */
function unexpectedOutput(): DocwrightError {
  return new DocwrightError('git_error', 'Unexpected git ls-tree output', { retryable: false });
}

function isEntryType(type: string | undefined): type is TreeEntry['type'] {
  return type === 'blob' || type === 'tree' || type === 'commit';
}
