import { UnrecoverableError } from '../core/errors.js';

/** How much one run may change (README, "Configuration"): every agent is held to the same caps. */
export interface OutputBudget {
  /** Files written, created or deleted (both ends of a move count). */
  maxFilesChanged: number;
  /** Size of one file as written, in bytes. */
  maxFileBytes: number;
  /** Sum of the sizes of every file as the run last left it, in bytes. */
  maxTotalBytes: number;
}

/** Generous for real docs work (a rename across a large site), small enough to keep a run in memory. */
export const DEFAULT_OUTPUT_BUDGET: OutputBudget = {
  maxFilesChanged: 200,
  maxFileBytes: 1024 * 1024,
  maxTotalBytes: 8 * 1024 * 1024,
};

/** A run that would pass its output budget: it fails in words and is not retried (it would again). */
export class OutputBudgetError extends UnrecoverableError {}

/**
 * Counts what a run changed and refuses the change that would pass a cap, before it is made:
 * a refused write leaves the files as they were.
 */
export class OutputBudgetMeter {
  /** Bytes of each changed file as the run last left it (0 once deleted). */
  private readonly changed = new Map<string, number>();
  private total = 0;

  constructor(private readonly budget: OutputBudget) {}

  /** Refuses leaving `file` at `bytes` when a cap would be passed. */
  assertWrite(file: string, bytes: number): void {
    if (bytes > this.budget.maxFileBytes) {
      throw new OutputBudgetError(
        `${overBudget} ${file} would be ${formatBytes(bytes)}, more than the ${formatBytes(this.budget.maxFileBytes)} allowed for one file (DOCWRIGHT_MAX_FILE_BYTES)`,
      );
    }
    this.assertFiles([file]);
    const total = this.total - (this.changed.get(file) ?? 0) + bytes;
    if (total > this.budget.maxTotalBytes) {
      throw new OutputBudgetError(
        `${overBudget} the changed files would come to ${formatBytes(total)}, more than the ${formatBytes(this.budget.maxTotalBytes)} a run may write (DOCWRIGHT_MAX_CHANGE_BYTES)`,
      );
    }
  }

  /** Refuses touching `files` when they would take the run past its file count. */
  assertFiles(files: readonly string[]): void {
    const added = new Set(files.filter((file) => !this.changed.has(file))).size;
    if (this.changed.size + added > this.budget.maxFilesChanged) {
      throw new OutputBudgetError(
        `${overBudget} it would change more than ${this.budget.maxFilesChanged} files (DOCWRIGHT_MAX_FILES_CHANGED)`,
      );
    }
  }

  record(file: string, bytes: number): void {
    this.total += bytes - (this.changed.get(file) ?? 0);
    this.changed.set(file, bytes);
  }

  /** The files changed so far, in the order first changed. */
  files(): string[] {
    return [...this.changed.keys()];
  }
}

const overBudget = 'The request was stopped and nothing was committed, because the change is too large:';

/** `1.5 MiB`, `900 KiB`, `312 bytes`. */
function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
}
