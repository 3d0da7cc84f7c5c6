import { conflict, notFound } from '../core/errors.js';
import { normalizePath, type WritePolicy } from '../write-policy/index.js';
import {
  DEFAULT_OUTPUT_BUDGET,
  OutputBudgetMeter,
  type OutputBudget,
} from '../write-policy/output-budget.js';
import type { FileChange, Snapshot } from './types.js';

export { normalizePath };

export interface OverlayOptions {
  /** Every write, delete and move is asked here first (a refusal throws WriteRefusedError). */
  policy?: WritePolicy;
  /** Caps on what may be changed; default DEFAULT_OUTPUT_BUDGET. */
  budget?: OutputBudget;
}

/**
 * An in-memory layer over a snapshot: the agent reads and writes here, and `changes()` is what the
 * forge commits. Every writer of every agent comes through here, so the write policy and the output
 * budget are enforced in this one place: a refused change throws before anything is stored.
 */
export class Overlay {
  private readonly written = new Map<string, Buffer | null>();
  private readonly meter: OutputBudgetMeter;
  private readonly policy: WritePolicy | undefined;

  constructor(
    private readonly base: Snapshot,
    options: OverlayOptions = {},
  ) {
    this.policy = options.policy;
    this.meter = new OutputBudgetMeter(options.budget ?? DEFAULT_OUTPUT_BUDGET);
  }

  /** Repository paths written, created or deleted so far, in the order first changed. */
  touched(): string[] {
    return this.meter.files();
  }

  get baseCommit(): string {
    return this.base.commit;
  }

  /** Every current file path, sorted: with `read`, what a docs tree is read from (`docsTreeOf`). */
  paths(): string[] {
    return this.list();
  }

  /** Current file paths, sorted; with `prefix`, only those under that folder. */
  list(prefix = ''): string[] {
    const all = new Set(this.base.paths());
    for (const [file, content] of this.written) {
      if (content === null) all.delete(file);
      else all.add(file);
    }
    const folder = prefix === '' ? '' : normalizePath(prefix).replace(/\/?$/, '/');
    return [...all].filter((file) => folder === '' || file.startsWith(folder)).sort();
  }

  exists(file: string): boolean {
    const key = normalizePath(file);
    if (this.written.has(key)) return this.written.get(key) !== null;
    return this.base.has(key);
  }

  async readBuffer(file: string): Promise<Buffer> {
    const key = normalizePath(file);
    if (this.written.has(key)) {
      const content = this.written.get(key);
      if (content === null || content === undefined) throw notFound(`File not found: ${key}`);
      return content;
    }
    if (!this.base.has(key)) throw notFound(`File not found: ${key}`);
    return this.base.read(key);
  }

  async read(file: string): Promise<string> {
    return (await this.readBuffer(file)).toString('utf8');
  }

  write(file: string, content: string | Buffer): void {
    const key = this.writableKey(file);
    // A string is measured before it is encoded, so an oversized one is never copied.
    const bytes = typeof content === 'string' ? Buffer.byteLength(content, 'utf8') : content.length;
    this.meter.assertWrite(key, bytes);
    this.written.set(key, typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
    this.meter.record(key, bytes);
  }

  delete(file: string): void {
    const key = this.writableKey(file);
    if (!this.exists(key)) throw notFound(`File not found: ${key}`);
    this.meter.assertFiles([key]);
    this.written.set(key, null);
    this.meter.record(key, 0);
  }

  async move(from: string, to: string): Promise<void> {
    const [source, target] = [this.writableKey(from), this.writableKey(to)];
    const content = await this.readBuffer(source);
    // Taken until someone deletes it: waiting does not free the name.
    if (this.exists(target)) throw conflict(`File already exists: ${target}`, { retryable: false });
    this.meter.assertFiles([source, target]);
    this.write(target, content);
    this.delete(source);
  }

  /**
   * Replaces every occurrence of `search` in a file and returns how many there were. The
   * occurrences are counted and the new size checked against the budget before the new content is
   * built, so a replacement that would blow up a file (one letter by a long text) costs no memory.
   */
  async replaceAll(file: string, search: string, replacement: string): Promise<number> {
    const key = normalizePath(file);
    const content = await this.readBuffer(key);
    const needle = Buffer.from(search, 'utf8');
    const positions: number[] = [];
    for (
      let at = content.indexOf(needle);
      at !== -1 && needle.length > 0;
      at = content.indexOf(needle, at + needle.length)
    ) {
      positions.push(at);
    }
    if (positions.length === 0) return 0;
    this.writableKey(key);
    const replacementBytes = Buffer.byteLength(replacement, 'utf8');
    const size = content.length + positions.length * (replacementBytes - needle.length);
    this.meter.assertWrite(key, size);
    const inserted = Buffer.from(replacement, 'utf8');
    const result = Buffer.allocUnsafe(size);
    let from = 0;
    let to = 0;
    for (const at of positions) {
      to += content.copy(result, to, from, at);
      to += inserted.copy(result, to);
      from = at + needle.length;
    }
    content.copy(result, to, from);
    this.write(key, result);
    return positions.length;
  }

  /** The normalised key of a path the policy lets the run write. */
  private writableKey(file: string): string {
    return this.policy ? this.policy.assert(file) : normalizePath(file);
  }

  /** The net change against the snapshot: writes equal to the base content are dropped. */
  async changes(): Promise<FileChange[]> {
    const result: FileChange[] = [];
    for (const [file, content] of [...this.written].sort(([a], [b]) => a.localeCompare(b))) {
      const inBase = this.base.has(file);
      if (content === null) {
        if (inBase) result.push({ path: file, content: null });
      } else if (!inBase || !(await this.base.read(file)).equals(content)) {
        result.push({ path: file, content });
      }
    }
    return result;
  }
}
