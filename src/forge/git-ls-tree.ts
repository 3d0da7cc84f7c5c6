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
    if (tab === -1 || tab > end) throw new Error('Unexpected git ls-tree output');
    const [mode, type, object] = output.toString('latin1', start, tab).split(' ');
    if (mode === undefined || object === undefined || !isEntryType(type)) {
      throw new Error('Unexpected git ls-tree output');
    }
    entries.push({ mode, type, object, path: output.toString('utf8', tab + 1, end) });
    start = end + 1;
  }
  return entries;
}

function isEntryType(type: string | undefined): type is TreeEntry['type'] {
  return type === 'blob' || type === 'tree' || type === 'commit';
}
