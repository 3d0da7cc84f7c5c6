import path from 'node:path';
import type { FileChange, Snapshot } from './types.js';

/**
 * An in-memory layer over a snapshot: the agent reads and writes here, and `changes()` is what the
 * forge commits. Paths are normalised and checked once, here, so no writer can escape the repository.
 */
export class Overlay {
  private readonly written = new Map<string, Buffer | null>();

  constructor(private readonly base: Snapshot) {}

  get baseCommit(): string {
    return this.base.commit;
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
      if (content === null || content === undefined) throw new Error(`File not found: ${key}`);
      return content;
    }
    if (!this.base.has(key)) throw new Error(`File not found: ${key}`);
    return this.base.read(key);
  }

  async read(file: string): Promise<string> {
    return (await this.readBuffer(file)).toString('utf8');
  }

  write(file: string, content: string | Buffer): void {
    this.written.set(
      normalizePath(file),
      typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
    );
  }

  delete(file: string): void {
    const key = normalizePath(file);
    if (!this.exists(key)) throw new Error(`File not found: ${key}`);
    this.written.set(key, null);
  }

  async move(from: string, to: string): Promise<void> {
    const content = await this.readBuffer(from);
    if (this.exists(to)) throw new Error(`File already exists: ${normalizePath(to)}`);
    this.write(to, content);
    this.delete(from);
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

/**
 * Normalises a repository-relative path and refuses anything that could leave the repository:
 * absolute paths, `..` segments, empty names and NUL bytes.
 */
export function normalizePath(file: string): string {
  if (file.includes('\0')) throw new Error(`Invalid path: ${JSON.stringify(file)}`);
  const posix = file.replaceAll('\\', '/');
  if (posix.startsWith('/') || /^[a-zA-Z]:/.test(posix))
    throw new Error(`Absolute paths are not allowed: ${file}`);
  if (posix.split('/').includes('..')) throw new Error(`Paths may not contain "..": ${file}`);
  const normalized = path.posix.normalize(posix).replace(/^\.\//, '').replace(/\/$/, '');
  if (normalized === '' || normalized === '.') throw new Error(`Invalid path: ${JSON.stringify(file)}`);
  return normalized;
}
