import type { DiffFile, DiffHunk, ParsedDiff } from './diff-types.js';

/**
 * Hunk lines kept at most. A 5 MB diff is about 100,000 lines; past this many the rest of the diff
 * is skipped (and `truncated` set) so that a vendored dump pasted into a pull request cannot make
 * the analysis slow or large.
 */
const MAX_DIFF_LINES = 200_000;

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;

export interface ParseDiffOptions {
  /** Hunk lines kept at most; default MAX_DIFF_LINES. */
  maxLines?: number;
}

/**
 * Parses unified diff text: `git diff` / `git show` / `git format-patch` output (extended headers,
 * renames, copies, binary markers, quoted paths) and plain `diff -u` / `diff -ru` output. Never throws:
 * lines it does not understand are skipped. CRLF line ends and `\ No newline at end of file`
 * markers are handled; hunk lines are counted from the `@@` header, so a removed line that reads
 * `-- x` is not mistaken for a file header.
 */
export function parseUnifiedDiff(text: string, options: ParseDiffOptions = {}): ParsedDiff {
  const parser = new DiffParser(options.maxLines ?? MAX_DIFF_LINES);
  const lines = text.split('\n');
  for (let index = 0; index < lines.length && !parser.full; index += 1) {
    const line = lines[index]!;
    index = parser.read(line.endsWith('\r') ? line.slice(0, -1) : line, lines, index);
  }
  return parser.finish();
}

/** The reading state: the file being read, the open hunk and how many of its lines are left. */
class DiffParser {
  private readonly files: DiffFile[] = [];
  private file: DiffFile | undefined;
  /** The current file came from a `diff --git` header, so its `---`/`+++` lines carry a/ b/ prefixes. */
  private gitFile = false;
  private hunk: DiffHunk | undefined;
  private oldLeft = 0;
  private newLeft = 0;
  private oldNext = 0;
  private newNext = 0;
  private kept = 0;
  private truncated = false;

  constructor(private readonly maxLines: number) {}

  get full(): boolean {
    return this.truncated;
  }

  /** Reads one line (without its line end); returns the index of the last line consumed. */
  read(line: string, lines: readonly string[], index: number): number {
    if (this.hunk && (this.oldLeft > 0 || this.newLeft > 0) && this.readHunkLine(line)) return index;
    this.hunk = undefined;
    if (line.startsWith('diff --git ')) this.startGitFile(line);
    else if (line.startsWith('diff ') || line.startsWith('Only in ')) this.closeFile();
    else if (line.startsWith('--- ') && (lines[index + 1] ?? '').startsWith('+++ ')) {
      this.readFileHeaders(line, stripCr(lines[index + 1]!));
      return index + 1;
    } else if (line.startsWith('@@ ')) this.openHunk(line);
    else if (this.file && this.gitFile) this.readExtendedHeader(line);
    return index;
  }

  finish(): ParsedDiff {
    this.closeFile();
    return { files: this.files, truncated: this.truncated };
  }

  /** One line inside a hunk; false when the line cannot belong to it (a short or damaged hunk). */
  private readHunkLine(line: string): boolean {
    const hunk = this.hunk!;
    const marker = line[0];
    if (marker === '\\') return true;
    if (this.kept >= this.maxLines) {
      this.truncated = true;
      return true;
    }
    const text = line.slice(1);
    if ((marker === ' ' || line === '') && this.oldLeft > 0 && this.newLeft > 0) {
      // Some mailers and editors strip the single space of an empty context line.
      hunk.lines.push({ kind: 'context', text, oldLine: this.oldNext++, newLine: this.newNext++ });
      this.oldLeft -= 1;
      this.newLeft -= 1;
    } else if (marker === '-' && this.oldLeft > 0) {
      hunk.lines.push({ kind: 'removed', text, oldLine: this.oldNext++ });
      this.oldLeft -= 1;
    } else if (marker === '+' && this.newLeft > 0) {
      hunk.lines.push({ kind: 'added', text, newLine: this.newNext++ });
      this.newLeft -= 1;
    } else return false;
    this.kept += 1;
    return true;
  }

  private openHunk(line: string): void {
    const match = HUNK_HEADER.exec(line);
    if (!match) return;
    if (!this.file) this.file = { status: 'modified', binary: false, hunks: [] };
    const [, oldStart, oldLines, newStart, newLines, section] = match;
    this.hunk = {
      oldStart: Number(oldStart),
      oldLines: oldLines === undefined ? 1 : Number(oldLines),
      newStart: Number(newStart),
      newLines: newLines === undefined ? 1 : Number(newLines),
      section: (section ?? '').trim(),
      lines: [],
    };
    this.oldLeft = this.hunk.oldLines;
    this.newLeft = this.hunk.newLines;
    this.oldNext = this.hunk.oldStart;
    this.newNext = this.hunk.newStart;
    this.file.hunks.push(this.hunk);
  }

  private startGitFile(line: string): void {
    this.closeFile();
    const [oldPath, newPath] = gitHeaderPaths(line.slice('diff --git '.length));
    this.file = { oldPath, newPath, status: 'modified', binary: false, hunks: [] };
    this.gitFile = true;
  }

  /** `--- old` and `+++ new`: the paths of a `diff -u` file, or the confirmed paths of a git one. */
  private readFileHeaders(oldHeader: string, newHeader: string): void {
    let oldPath = headerPath(oldHeader.slice(4));
    let newPath = headerPath(newHeader.slice(4));
    const prefixed =
      this.gitFile || ((oldPath ?? 'a/').startsWith('a/') && (newPath ?? 'b/').startsWith('b/'));
    if (prefixed) {
      oldPath = oldPath?.replace(/^a\//, '');
      newPath = newPath?.replace(/^b\//, '');
    }
    if (!this.gitFile || !this.file) {
      this.closeFile();
      this.file = { oldPath, newPath, status: 'modified', binary: false, hunks: [] };
    } else {
      this.file.oldPath = oldPath;
      this.file.newPath = newPath;
    }
    if (oldPath === undefined) this.file.status = 'added';
    else if (newPath === undefined) this.file.status = 'deleted';
    else if (oldPath !== newPath && this.file.status === 'modified') this.file.status = 'renamed';
  }

  private readExtendedHeader(line: string): void {
    const file = this.file!;
    if (line.startsWith('new file mode')) file.status = 'added';
    else if (line.startsWith('deleted file mode')) file.status = 'deleted';
    else if (line.startsWith('rename from ')) file.oldPath = unquote(line.slice(12));
    else if (line.startsWith('rename to ')) {
      file.newPath = unquote(line.slice(10));
      file.status = 'renamed';
    } else if (line.startsWith('copy to ')) {
      file.newPath = unquote(line.slice(8));
      file.status = 'added';
    } else if (line.startsWith('Binary files ') || line === 'GIT binary patch') file.binary = true;
  }

  private closeFile(): void {
    const file = this.file;
    this.file = undefined;
    this.hunk = undefined;
    this.gitFile = false;
    if (!file || (file.oldPath === undefined && file.newPath === undefined)) return;
    if (file.status === 'added') file.oldPath = undefined;
    if (file.status === 'deleted') file.newPath = undefined;
    this.files.push(file);
  }
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** The path of a `---`/`+++` line: a diff -u timestamp after a tab is dropped; `/dev/null` is no file. */
function headerPath(rest: string): string | undefined {
  const path = rest.startsWith('"') ? unquote(rest) : rest.split('\t')[0]!.trimEnd();
  return path === '/dev/null' || path === '' ? undefined : path;
}

/**
 * The two paths of `diff --git a/x b/y`. Paths with spaces are ambiguous there; git quotes paths
 * with unusual characters, and an unrenamed file has the same path twice, which splits it exactly.
 * The `---`/`+++` and `rename` lines, when present, override this guess.
 */
function gitHeaderPaths(rest: string): [string | undefined, string | undefined] {
  const quoted = [...rest.matchAll(/"(?:[^"\\]|\\.)*"|\S+/g)].map((match) => match[0]);
  if (rest.includes('"') && quoted.length === 2)
    return [strip(unquote(quoted[0]!), 'a/'), strip(unquote(quoted[1]!), 'b/')];
  const half = (rest.length - 1) / 2;
  const [first, second] = [rest.slice(0, half), rest.slice(half + 1)];
  if (Number.isInteger(half) && rest[half] === ' ') {
    if (first === second) return [first, second];
    if (first.startsWith('a/') && second.startsWith('b/') && first.slice(2) === second.slice(2))
      return [first.slice(2), second.slice(2)];
  }
  const split = rest.indexOf(' b/');
  if (split > 0) return [strip(rest.slice(0, split), 'a/'), rest.slice(split + 3)];
  const [left, right] = rest.split(' ');
  return [left, right ?? left];
}

function strip(path: string, prefix: string): string {
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** Git's C-style quoting of paths (`"caf\303\251.md"`): octal escapes are UTF-8 bytes. */
function unquote(path: string): string {
  const trimmed = path.trim();
  if (!trimmed.startsWith('"') || !trimmed.endsWith('"') || trimmed.length < 2) return trimmed;
  const bytes: number[] = [];
  const body = trimmed.slice(1, -1);
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 };
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index]!;
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      continue;
    }
    const octal = /^[0-7]{3}/.exec(body.slice(index + 1));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      index += 3;
    } else {
      const next = body[index + 1] ?? '';
      bytes.push(simple[next] ?? next.charCodeAt(0));
      index += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
