import type { Overlay } from '../../forge/overlay.js';
import { UnrecoverableError } from '../../core/errors.js';
import { REDACTED, redactSecrets } from '../../core/redact.js';
import { matchesGlob } from '../../write-policy/glob.js';
import type { PathGuard } from './path-guard.js';
import { ToolRefusal } from './tool-refusal.js';

/** Files listed at most per call: enough to see a site's layout, small enough for a prompt. */
const MAX_LISTED = 400;
/** Lines returned per read unless the model asks for a range. */
const DEFAULT_READ_LINES = 400;

/**
 * The docs of one job as the model's tools see them: the overlay behind the path guard. Every
 * method returns text for the model; a refused call throws a ToolRefusal, which the tool turns
 * into its result. The overlay holds the run to its output budget (a budget hit ends the run).
 * `log` records each change for the reply.
 */
export class DocsWorkspace {
  /** One line per change made, e.g. `edited guides/setup.mdx`. */
  readonly log: string[] = [];
  /**
   * What ended the run from inside a tool (the output budget is spent): the model is told, and
   * the agent stops its loop and fails the run with it, since another try cannot fit either.
   */
  failure: UnrecoverableError | undefined;

  constructor(
    private readonly files: Overlay,
    private readonly guard: PathGuard,
  ) {}

  /** Docs-relative paths of the files changed so far. */
  changedFiles(): string[] {
    return this.files.touched().map((file) => this.guard.docsPath(file) ?? file);
  }

  list(glob = '**'): string {
    const all = this.files.list(this.guard.root).flatMap((file) => {
      const docsPath = this.guard.docsPath(file);
      return docsPath === undefined || !matchesGlob(docsPath, glob) ? [] : [docsPath];
    });
    if (all.length === 0) return `No files match ${glob}.`;
    const shown = all.slice(0, MAX_LISTED).join('\n');
    return all.length > MAX_LISTED
      ? `${shown}\n(${all.length - MAX_LISTED} more; narrow the pattern to see them)`
      : shown;
  }

  async read(path: string, startLine = 1, endLine?: number): Promise<string> {
    const file = this.existing(path);
    const buffer = await this.files.readBuffer(file);
    if (buffer.subarray(0, 8000).includes(0)) throw new ToolRefusal(`${path} is a binary file`);
    const lines = buffer.toString('utf8').split('\n');
    const first = Math.max(1, Math.floor(startLine));
    const last = Math.min(lines.length, Math.floor(endLine ?? first + DEFAULT_READ_LINES - 1));
    if (first > lines.length) throw new ToolRefusal(`${path} has only ${lines.length} lines`);
    const text = lines.slice(first - 1, last).join('\n');
    const more =
      last < lines.length ? `\n(${lines.length - last} more lines; read from line ${last + 1})` : '';
    return `${path}, lines ${first}-${last} of ${lines.length}:\n${text}${more}`;
  }

  /** Runs a change; an error that must end the run is kept in `failure` before it is passed on. */
  private change<T>(body: () => T): T {
    const keep = (error: unknown) => {
      if (error instanceof UnrecoverableError) this.failure ??= error;
      return error;
    };
    try {
      const result = body();
      if (result instanceof Promise) {
        return result.catch((error: unknown) => {
          throw keep(error);
        }) as T;
      }
      return result;
    } catch (error) {
      throw keep(error);
    }
  }

  write(path: string, content: string): string {
    return this.change(() => this.writeFile(path, content));
  }

  private writeFile(path: string, content: string): string {
    const file = this.guard.resolveWritable(path);
    const clean = redactSecrets(content);
    const bytes = Buffer.byteLength(clean);
    const existed = this.files.exists(file);
    this.files.write(file, clean);
    this.log.push(`${existed ? 'rewrote' : 'created'} ${path}`);
    return `${existed ? 'Rewrote' : 'Created'} ${path} (${bytes} bytes).${redactionNote(content, clean)}`;
  }

  async edit(path: string, oldText: string, newText: string): Promise<string> {
    const file = this.writableExisting(path);
    const content = await this.files.read(file);
    return this.change(() => this.editText(path, file, content, oldText, newText));
  }

  private editText(path: string, file: string, content: string, oldText: string, newText: string): string {
    if (oldText === '') throw new ToolRefusal('oldText is empty; give the exact text to replace');
    if (oldText === newText) throw new ToolRefusal('oldText and newText are the same; nothing to change');
    const count = occurrences(content, oldText);
    if (count === 0) {
      throw new ToolRefusal(
        `oldText was not found in ${path}. Read the file again and copy the text exactly, whitespace and line breaks included.`,
      );
    }
    if (count > 1) {
      throw new ToolRefusal(
        `oldText occurs ${count} times in ${path}; include more of the surrounding text so that it matches once.`,
      );
    }
    const replacement = redactSecrets(newText);
    const at = content.indexOf(oldText);
    const updated = content.slice(0, at) + replacement + content.slice(at + oldText.length);
    this.files.write(file, updated);
    this.log.push(`edited ${path}`);
    const line = content.slice(0, at).split('\n').length;
    return `Edited ${path} at line ${line}.${redactionNote(newText, replacement)}`;
  }

  delete(path: string): string {
    const file = this.writableExisting(path);
    this.change(() => this.files.delete(file));
    this.log.push(`deleted ${path}`);
    return `Deleted ${path}. Update the links and navigation entries that pointed to it.`;
  }

  async move(from: string, to: string): Promise<string> {
    const source = this.writableExisting(from);
    const target = this.guard.resolveWritable(to);
    if (this.files.exists(target))
      throw new ToolRefusal(`${to} already exists; delete it first or pick another name`);
    await this.change(() => this.files.move(source, target));
    this.log.push(`moved ${from} to ${to}`);
    return `Moved ${from} to ${to}. Update the links and navigation entries that pointed to the old path.`;
  }

  /** The repository path of an existing file the run may write, or a refusal naming the problem. */
  private writableExisting(path: string): string {
    this.existing(path);
    return this.guard.resolveWritable(path);
  }

  /** The repository path of an existing file, or a refusal naming the problem. */
  private existing(path: string): string {
    const file = this.guard.resolve(path);
    if (!this.files.exists(file)) {
      throw new ToolRefusal(`${path} does not exist; list_files shows the files there are`);
    }
    return file;
  }
}

function occurrences(text: string, search: string): number {
  let count = 0;
  for (let index = text.indexOf(search); index !== -1; index = text.indexOf(search, index + 1)) count += 1;
  return count;
}

/** A note for the model when secrets were taken out of what it wrote. */
function redactionNote(original: string, written: string): string {
  return original === written
    ? ''
    : ` Secret-looking strings were replaced by ${REDACTED}; never write credentials into the docs.`;
}
