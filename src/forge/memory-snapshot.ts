import { notFound } from '../core/errors.js';
import type { Snapshot } from './types.js';

/** A snapshot held in memory: from a tarball, or built by tests. */
export class MemorySnapshot implements Snapshot {
  private readonly files: Map<string, Buffer>;

  constructor(
    readonly commit: string,
    files: Iterable<[string, Buffer | string]>,
  ) {
    this.files = new Map(
      [...files].map(([file, content]) => [
        file,
        typeof content === 'string' ? Buffer.from(content) : content,
      ]),
    );
  }

  paths(): string[] {
    return [...this.files.keys()].sort();
  }

  has(file: string): boolean {
    return this.files.has(file);
  }

  /** Bytes of a file; 0 when absent. */
  size(file: string): number {
    return this.files.get(file)?.length ?? 0;
  }

  read(file: string): Promise<Buffer> {
    const content = this.files.get(file);
    if (!content) return Promise.reject(notFound(`File not found: ${file}`));
    return Promise.resolve(content);
  }
}
