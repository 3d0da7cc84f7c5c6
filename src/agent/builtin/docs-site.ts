import { readFrontmatter } from '../../docs/frontmatter.js';
import type { Overlay } from '../../forge/overlay.js';
import type { WritePolicy } from '../../write-policy/index.js';

const MARKDOWN_FILE = /\.mdx?$/i;

/** A page the agent found but may not write, and the write policy's reason. */
export interface SkippedFile {
  file: string;
  reason: string;
}

/**
 * The docs of one job: the overlay seen through the project's docs root. Which files may be
 * written is the write policy's answer; the overlay enforces it again on every write.
 */
export class DocsSite {
  /** The docs root, normalised: `''` for the repository root, else e.g. `docs`. */
  readonly root: string;
  private readonly titleCache = new Map<string, string | undefined>();

  constructor(
    readonly files: Overlay,
    readonly policy: WritePolicy,
  ) {
    this.root = policy.root;
  }

  /** Repository paths of the Markdown and MDX files the agent may read and edit, sorted. */
  markdownFiles(): string[] {
    return this.markdownUnderRoot().filter((file) => this.policy.check(file).allowed);
  }

  /** The Markdown and MDX files under the docs root that the policy keeps the agent from writing. */
  skippedFiles(): SkippedFile[] {
    return this.markdownUnderRoot().flatMap((file) => {
      const verdict = this.policy.check(file);
      return verdict.allowed ? [] : [{ file, reason: verdict.reason }];
    });
  }

  /** The repository path of a path relative to the docs root. */
  repoPath(docsPath: string): string {
    return this.policy.repoPath(docsPath);
  }

  /** The path relative to the docs root, or undefined for a file outside it. */
  docsPath(repoPath: string): string | undefined {
    return this.policy.docsPath(repoPath);
  }

  /** The page name of a file as the navigation and links write it: `guides/setup` (no extension). */
  slug(repoPath: string): string {
    return (this.docsPath(repoPath) ?? repoPath).replace(MARKDOWN_FILE, '');
  }

  /** Why the agent may not write `repoPath`, or undefined when it may. */
  writeRefusal(repoPath: string): string | undefined {
    const verdict = this.policy.check(repoPath);
    return verdict.allowed ? undefined : verdict.reason;
  }

  isWritable(repoPath: string): boolean {
    return this.policy.check(repoPath).allowed;
  }

  exists(repoPath: string): boolean {
    return this.files.exists(repoPath);
  }

  read(repoPath: string): Promise<string> {
    return this.files.read(repoPath);
  }

  write(repoPath: string, content: string): void {
    this.titleCache.delete(repoPath);
    this.files.write(repoPath, content);
  }

  /** Replaces every occurrence of `search` in a file within the output budget; returns the count. */
  replaceAll(repoPath: string, search: string, replacement: string): Promise<number> {
    this.titleCache.delete(repoPath);
    return this.files.replaceAll(repoPath, search, replacement);
  }

  delete(repoPath: string): void {
    this.titleCache.delete(repoPath);
    this.files.delete(repoPath);
  }

  async move(from: string, to: string): Promise<void> {
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

  private markdownUnderRoot(): string[] {
    return this.files.list(this.root).filter((file) => MARKDOWN_FILE.test(file));
  }
}
