/**
 * The shape of a parsed unified diff: what changed in which file, line by line, with the line
 * numbers a person would look up on either side of the change.
 */

/** How a file changed, as git reports it (a copy counts as added: the new path is what is new). */
type DiffFileStatus = 'added' | 'deleted' | 'renamed' | 'modified';

/** One line of a hunk. `oldLine` is set for removed and context lines, `newLine` for added and context lines. */
export interface DiffLine {
  kind: 'added' | 'removed' | 'context';
  text: string;
  oldLine?: number;
  newLine?: number;
}

/** One `@@ -a,b +c,d @@ section` block. */
export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** What follows the second `@@`: git's guess at the enclosing function or section, often empty. */
  section: string;
  lines: DiffLine[];
}

/** One file of the diff. */
export interface DiffFile {
  /** Path before the change; undefined for an added file. */
  oldPath?: string;
  /** Path after the change; undefined for a deleted file. */
  newPath?: string;
  status: DiffFileStatus;
  /** Git said the content is binary ("Binary files … differ" or a binary patch): there are no hunks. */
  binary: boolean;
  hunks: DiffHunk[];
}

/** A parsed diff. `truncated` says lines were left unread because the diff passed the line cap. */
export interface ParsedDiff {
  files: DiffFile[];
  truncated: boolean;
}

/** The path a file is known by: its new path, or its old one when it was deleted. */
export function diffFilePath(file: DiffFile): string {
  return file.newPath ?? file.oldPath ?? '';
}
