import { UnrecoverableError } from '../core/errors.js';
import { type DocsRoot } from './docs-root.js';
import { matchesGlob } from './glob.js';
import { normalizePath, unsafePathReason } from './repository-path.js';

export interface WritePolicyOptions {
  docsRoot: DocsRoot;
  /**
   * Globs (relative to the repository) from the repository's `writable:` setting: files the
   * defaults refuse that the team lets docwright write, such as `README.md`. They never open
   * `.github/`, dot-folders, symlinks, escapes or the agent's own instructions.
   */
  writable?: readonly string[];
  /** Whether a repository path is a symlink in the job's snapshot. */
  isSymlink?: (repoPath: string) => boolean;
  /**
   * Repository paths of the docs framework's files a job edits besides its pages: the file that
   * holds the navigation (`sidebars.js`, `mkdocs.yml`, `.vitepress/config.mts`, …), which may sit
   * above the pages folder or in a dot-folder. Nothing else of the framework's config or theme.
   */
  siteFiles?: readonly string[];
}

/** The answer for one path: allowed (with its normalised form) or refused with a sentence. */
export type PathVerdict = { allowed: true; path: string } | { allowed: false; path: string; reason: string };

/** A write the policy refuses, reaching a place that must not happen (a bug, or a tampered agent). */
export class WriteRefusedError extends UnrecoverableError {}

/** Files of a repository's own tooling and paperwork: docs edits leave them alone by default. */
const REPOSITORY_FILES =
  /^(?:readme|license|licence|copying|contributing|changelog|code_of_conduct|security|notice)(?:\.(?:md|markdown|txt|rst))?$|^(?:package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|deno\.lock)$/i;
/** What a docs site is made of, when the docs root is the whole repository. */
const DOCUMENTATION_FILE = /\.(?:mdx?|png|jpe?g|gif|svg|webp|avif|ico)$/i;
const NAVIGATION_FILE = /^(?:docs|mint)\.json$/i;
/** The agent's own instructions: a merged change would steer later runs. */
const AGENT_FILES = /^agents\.md$/i;

/**
 * The one answer to "may a job write this path, and if not, why". Both agents, the docs checks,
 * the run and the forges ask it; the reasons are sentences a model and a person can act on.
 */
export class WritePolicy {
  readonly root: DocsRoot;
  private readonly writable: readonly string[];
  private readonly isSymlink: (repoPath: string) => boolean;
  /** The framework's navigation file(s), normalised. */
  readonly siteFiles: ReadonlySet<string>;

  constructor(options: WritePolicyOptions) {
    this.root = options.docsRoot;
    this.writable = options.writable ?? [];
    this.isSymlink = options.isSymlink ?? (() => false);
    this.siteFiles = new Set((options.siteFiles ?? []).map(normalizePath));
  }

  /** Whether a repository path may be written (created, changed, deleted, or a move's either end). */
  check(repoPath: string): PathVerdict {
    const site = this.siteFileVerdict(repoPath);
    if (site !== undefined) return site;
    const early = this.checkCommon(repoPath);
    if (!early.allowed) return early;
    const file = early.path;
    const name = file.split('/').at(-1) ?? file;
    const refuse = (reason: string): PathVerdict => ({ allowed: false, path: file, reason });
    if (name.startsWith('.')) return refuse(`${name} is a dot-file: it steers git or tools, not the docs`);
    if (AGENT_FILES.test(name)) return refuse(`${name} holds the agent's own instructions; people edit it`);
    if (this.writable.some((glob) => matchesGlob(file, glob))) return { allowed: true, path: file };
    if (this.docsPath(file) === undefined)
      return refuse(`${file} is outside the docs folder ${this.rootName()}`);
    if (this.root === '') {
      if (REPOSITORY_FILES.test(name)) {
        return refuse(
          `${file} is a repository file, not a docs page; list it under "writable:" in .github/docwright.yml to let docwright edit it`,
        );
      }
      if (!isDocumentationFile(file)) {
        return refuse(
          `${file} is not a documentation file; with the docs at the repository root only pages (.md, .mdx), docs.json, mint.json, images and snippets/ are written`,
        );
      }
    }
    return { allowed: true, path: file };
  }

  /** Whether a repository path may be read by an agent: safe, inside the docs folder, no symlink. */
  checkRead(repoPath: string): PathVerdict {
    const site = this.siteFileVerdict(repoPath);
    if (site !== undefined) return site;
    const early = this.checkCommon(repoPath);
    if (!early.allowed) return early;
    if (this.docsPath(early.path) === undefined) {
      return {
        allowed: false,
        path: early.path,
        reason: `${early.path} is outside the docs folder ${this.rootName()}`,
      };
    }
    return early;
  }

  /**
   * The verdict on a path given relative to the docs root (how the model's tools name files),
   * for reading or for writing. The path as given is checked before the docs root is put in front.
   */
  checkDocsPath(docsPath: string, access: 'read' | 'write'): PathVerdict {
    const unsafe = unsafePathReason(docsPath);
    if (unsafe !== undefined) return { allowed: false, path: String(docsPath), reason: unsafe };
    const repoPath = this.repoPath(docsPath);
    return access === 'read' ? this.checkRead(repoPath) : this.check(repoPath);
  }

  /** The normalised path when it may be written; otherwise throws WriteRefusedError with the reason. */
  assert(repoPath: string): string {
    const verdict = this.check(repoPath);
    if (!verdict.allowed)
      throw new WriteRefusedError(`Refused to write ${JSON.stringify(repoPath)}: ${verdict.reason}`);
    return verdict.path;
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

  /** `docs/`, or `the repository root`. */
  rootName(): string {
    return this.root === '' ? 'the repository root' : `${this.root}/`;
  }

  /**
   * The verdict on the framework's navigation file: allowed wherever it sits (a dot-folder such as
   * `.vitepress/` included) unless it is reached through a symlink; undefined for any other path.
   */
  private siteFileVerdict(raw: string): PathVerdict | undefined {
    if (this.siteFiles.size === 0 || unsafePathReason(raw) !== undefined) return undefined;
    const file = normalizePath(raw);
    if (!this.siteFiles.has(file)) return undefined;
    const segments = file.split('/');
    for (let index = 1; index <= segments.length; index += 1) {
      const prefix = segments.slice(0, index).join('/');
      if (this.isSymlink(prefix)) {
        return {
          allowed: false,
          path: file,
          reason: `${prefix} is a symbolic link; writing through it could land outside the repository`,
        };
      }
    }
    return { allowed: true, path: file };
  }

  /** Spelling, dot-folders, node_modules and symlinks: what holds for reads and writes alike. */
  private checkCommon(raw: string): PathVerdict {
    const unsafe = unsafePathReason(raw);
    if (unsafe !== undefined) return { allowed: false, path: String(raw), reason: unsafe };
    const file = normalizePath(raw);
    const refuse = (reason: string): PathVerdict => ({ allowed: false, path: file, reason });
    const segments = file.split('/');
    const folders = segments.slice(0, -1);
    const dotFolder = folders.find((segment) => segment.startsWith('.'));
    if (dotFolder !== undefined) return refuse(`${dotFolder}/ is a dot-folder: it holds tooling, not docs`);
    if (folders.includes('node_modules')) return refuse('node_modules/ holds installed packages, not docs');
    for (let index = 1; index <= segments.length; index += 1) {
      const prefix = segments.slice(0, index).join('/');
      if (this.isSymlink(prefix)) {
        return refuse(`${prefix} is a symbolic link; writing through it could land outside the repository`);
      }
    }
    return { allowed: true, path: file };
  }
}

/** At a repository-root docs folder: pages, navigation, images, and anything under snippets/. */
function isDocumentationFile(file: string): boolean {
  const name = file.split('/').at(-1) ?? file;
  return (
    DOCUMENTATION_FILE.test(name) ||
    NAVIGATION_FILE.test(name) ||
    file.split('/').slice(0, -1).includes('snippets')
  );
}
