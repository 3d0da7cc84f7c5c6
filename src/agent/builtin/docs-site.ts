import { readFrontmatter } from '../../docs/frontmatter.js';
import { normalizePath } from '../../forge/overlay.js';
import type { Overlay } from '../../forge/overlay.js';

const MARKDOWN_FILE = /\.mdx?$/i;

/** Thrown when an edit would leave the docs root or touch a protected folder (a bug, not user error). */
export class OutsideDocsRootError extends Error {
  override readonly name = 'OutsideDocsRootError';
}

/**
 * The docs of one job: the overlay seen through the project's docs root. Every read and write of
 * the built-in agent goes through here, so the fence (DESIGN.md, Invariants: only inside the docs
 * root, never `.github/`) is checked in one place.
 */
export class DocsSite {
  /** The docs root, normalised: `''` for the repository root, else e.g. `docs`. */
  readonly root: string;
  private readonly titleCache = new Map<string, string | undefined>();

  constructor(
    readonly files: Overlay,
    docsRoot: string,
    /** Whether a path is a symlink in the snapshot: such a page is never edited (no writing through links). */
    private readonly isSymlink: (path: string) => boolean = () => false,
  ) {
    this.root = normalizeRoot(docsRoot);
  }

  /** Repository paths of the Markdown and MDX files the agent may read and edit, sorted. */
  markdownFiles(): string[] {
    return this.files
      .list(this.root)
      .filter((file) => MARKDOWN_FILE.test(file) && this.isWritable(file) && !this.isSymlink(file));
  }

  /** The repository path of a path relative to the docs root. */
  repoPath(docsPath: string): string {
    return this.root === '' ? docsPath : `${this.root}/${docsPath}`;
  }

  /** The path relative to the docs root, or undefined for a file outside it. */
  docsPath(repoPath: string): string | undefined {
    if (this.root === '') return repoPath;
    return repoPath.startsWith(`${this.root}/`) ? repoPath.slice(this.root.length + 1) : undefined;
  }

  /** The page name of a file as the navigation and links write it: `guides/setup` (no extension). */
  slug(repoPath: string): string {
    return (this.docsPath(repoPath) ?? repoPath).replace(MARKDOWN_FILE, '');
  }

  /**
   * Whether the agent may write `repoPath`: inside the docs root and in no dot-folder. Dot-folders
   * (`.github/`, `.vale/`, `.claude/`) hold tooling and workflows, never published pages.
   */
  isWritable(repoPath: string): boolean {
    const relative = this.docsPath(repoPath);
    if (relative === undefined || relative === '') return false;
    const segments = repoPath.split('/');
    if (segments.includes('.github') || segments.includes('node_modules')) return false;
    return !relative.split('/').some((segment) => segment.startsWith('.'));
  }

  exists(repoPath: string): boolean {
    return this.files.exists(repoPath);
  }

  read(repoPath: string): Promise<string> {
    return this.files.read(repoPath);
  }

  write(repoPath: string, content: string): void {
    this.assertWritable(repoPath);
    this.titleCache.delete(repoPath);
    this.files.write(repoPath, content);
  }

  delete(repoPath: string): void {
    this.assertWritable(repoPath);
    this.titleCache.delete(repoPath);
    this.files.delete(repoPath);
  }

  async move(from: string, to: string): Promise<void> {
    this.assertWritable(from);
    this.assertWritable(to);
    this.titleCache.delete(from);
    await this.files.move(from, to);
  }

  /** The frontmatter `title` of a page, if it has one. */
  async title(repoPath: string): Promise<string | undefined> {
    if (!this.titleCache.has(repoPath)) {
      this.titleCache.set(repoPath, readFrontmatter(await this.read(repoPath)).title);
    }
    return this.titleCache.get(repoPath);
  }

  private assertWritable(repoPath: string): void {
    if (!this.isWritable(normalizePath(repoPath))) {
      throw new OutsideDocsRootError(
        `Refusing to write ${repoPath}: outside the docs root or in a protected folder`,
      );
    }
  }
}

function normalizeRoot(docsRoot: string): string {
  const trimmed = docsRoot.trim().replace(/^\/+/, '');
  if (trimmed === '' || trimmed === '.' || trimmed === './') return '';
  return normalizePath(trimmed);
}
