import { ToolRefusal } from './tool-refusal.js';

/** Caps on what one run may change (DESIGN.md, Invariants: file count and size are bounded). */
export interface WriteLimits {
  /** Files written, created, deleted or moved (both ends of a move count). */
  maxFilesChanged: number;
  /** Size of one written file, in bytes. */
  maxFileBytes: number;
  /** Sum of the sizes of every file as last written by the run, in bytes. */
  maxTotalBytes: number;
}

export const DEFAULT_WRITE_LIMITS: WriteLimits = {
  maxFilesChanged: 40,
  maxFileBytes: 256 * 1024,
  maxTotalBytes: 2 * 1024 * 1024,
};

/**
 * Keeps count of what a run changed and refuses the change that would pass a limit, before it is
 * made: a refused write leaves the files as they were.
 */
export class ChangeBudget {
  /** Bytes of each changed file as the run last left it (0 once deleted). */
  private readonly changed = new Map<string, number>();

  constructor(private readonly limits: WriteLimits) {}

  /** Refuses writing `bytes` to `file` when a limit would be passed. */
  assertWrite(file: string, bytes: number): void {
    if (bytes > this.limits.maxFileBytes) {
      throw new ToolRefusal(
        `Refused writing ${file}: ${bytes} bytes is more than the ${this.limits.maxFileBytes}-byte limit for one file`,
      );
    }
    this.assertNewFiles([file]);
    const total = this.totalBytes() - (this.changed.get(file) ?? 0) + bytes;
    if (total > this.limits.maxTotalBytes) {
      throw new ToolRefusal(
        `Refused writing ${file}: the run would change ${total} bytes, more than its ${this.limits.maxTotalBytes}-byte limit`,
      );
    }
  }

  /** Refuses touching `files` when they would take the run past its file count. */
  assertNewFiles(files: string[]): void {
    const added = new Set(files.filter((file) => !this.changed.has(file))).size;
    if (this.changed.size + added > this.limits.maxFilesChanged) {
      throw new ToolRefusal(
        `Refused: the run may change at most ${this.limits.maxFilesChanged} files and has changed ${this.changed.size}`,
      );
    }
  }

  record(file: string, bytes: number): void {
    this.changed.set(file, bytes);
  }

  /** The files changed so far, in the order first changed. */
  files(): string[] {
    return [...this.changed.keys()];
  }

  private totalBytes(): number {
    let total = 0;
    for (const bytes of this.changed.values()) total += bytes;
    return total;
  }
}
