import path from 'node:path';
import { normalizeDocsRoot } from '../../checks/index.js';
import { ToolRefusal } from './tool-refusal.js';

export interface PathGuardOptions {
  /** The project's docs root, relative to the repository; '' for the root. */
  docsRoot: string;
  /** Whether a repository path is a symlink in the job's snapshot (see LocalGitSnapshot.isSymlink). */
  isSymlink?: (repoPath: string) => boolean;
}

/** Longer paths are not docs pages; refusing them keeps error messages and listings readable. */
const MAX_PATH_LENGTH = 400;

/**
 * The one fence every path of the model's tools passes (DESIGN.md, Invariants): paths are relative
 * to the docs root and stay inside it; no absolute paths, no `..`, no dot-folders (`.github/`
 * holds workflows that run with the repository's secrets, `.git` is not content), and nothing that
 * is, or goes through, a symlink, which a checkout would follow out of the folder.
 */
export class PathGuard {
  /** The docs root, normalised: '' or e.g. `docs`. */
  readonly root: string;
  private readonly isSymlink: (repoPath: string) => boolean;

  constructor(options: PathGuardOptions) {
    this.root = normalizeDocsRoot(options.docsRoot);
    this.isSymlink = options.isSymlink ?? (() => false);
  }

  /** The repository path of a docs-relative path the model gave, or a ToolRefusal saying why not. */
  resolve(docsPath: string): string {
    const relative = this.normalize(docsPath);
    const repoPath = this.root === '' ? relative : `${this.root}/${relative}`;
    const segments = repoPath.split('/');
    for (let index = 1; index <= segments.length; index += 1) {
      const prefix = segments.slice(0, index).join('/');
      if (this.isSymlink(prefix)) {
        throw new ToolRefusal(`Refused ${docsPath}: ${this.docsPath(prefix) ?? prefix} is a symlink`);
      }
    }
    return repoPath;
  }

  /**
   * Refuses writes that are not docs: dot-files (`.gitattributes`, `.gitmodules` steer git itself)
   * and the agent's own instructions (`AGENTS.md`), which a merged change would feed into the
   * prompts of later runs.
   */
  assertWritable(repoPath: string, docsPath: string): void {
    const name = repoPath.split('/').at(-1) ?? '';
    if (name.startsWith('.'))
      throw new ToolRefusal(`Refused ${docsPath}: dot-files are not docs and are off limits`);
    if (name === 'AGENTS.md')
      throw new ToolRefusal(`Refused ${docsPath}: AGENTS.md holds the agent's instructions; people edit it`);
  }

  /** The docs-relative path of a repository path, or undefined when it is outside the docs root. */
  docsPath(repoPath: string): string | undefined {
    if (this.root === '') return repoPath;
    return repoPath.startsWith(`${this.root}/`) ? repoPath.slice(this.root.length + 1) : undefined;
  }

  private normalize(docsPath: string): string {
    const refuse = (why: string) => new ToolRefusal(`Refused ${JSON.stringify(docsPath)}: ${why}`);
    if (typeof docsPath !== 'string' || docsPath.trim() === '') throw refuse('the path is empty');
    if (docsPath.length > MAX_PATH_LENGTH) throw refuse('the path is too long');
    if ([...docsPath].some((character) => character.charCodeAt(0) < 0x20)) {
      throw refuse('the path holds control characters');
    }
    const posix = docsPath.trim().replaceAll('\\', '/');
    if (posix.startsWith('/') || /^[A-Za-z]:/.test(posix) || posix.startsWith('~')) {
      throw refuse('absolute paths are not allowed; give the path relative to the docs folder');
    }
    const segments = posix.split('/');
    if (segments.includes('..')) throw refuse('paths may not contain ".."');
    const normalized = path.posix.normalize(posix).replace(/^\.\//, '').replace(/\/+$/, '');
    if (normalized === '' || normalized === '.') throw refuse('that is the docs folder itself, not a file');
    const parts = normalized.split('/');
    if (parts.some((part) => part === '.git' || part === '.github')) {
      throw refuse('.git and .github are never read or written');
    }
    if (parts.slice(0, -1).some((part) => part.startsWith('.'))) {
      throw refuse('dot-folders hold tooling, not docs, and are off limits');
    }
    return normalized;
  }
}
