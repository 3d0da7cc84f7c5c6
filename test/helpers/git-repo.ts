/**
 * Temporary git repositories for tests.
 *
 *   const repo = await createGitRepo({ 'docs/index.md': '# Hi\n', 'logo.png': bytes });
 *   const repo = await createGitRepo({ fromDir: 'examples/sample-docs' }, { bare: true });
 *   ... repo.dir (the repository path), repo.head (the commit `main` points at)
 *   await repo.cleanup();
 *
 * The repository has one commit on `main` holding exactly the given files. Git runs with an
 * isolated environment (no system or global config, fixed identity), so tests behave the same on
 * every machine. `runGit(dir, args)` runs any other git command the same way.
 */
import { execFile } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { devNull, tmpdir } from 'node:os';
import path from 'node:path';

/** A file's content; `{ symlink }` makes a symbolic link, `executable` sets mode 100755. */
export type RepoFile =
  string | Uint8Array | { symlink: string } | { content: string | Uint8Array; executable: true };

export interface CreateGitRepoOptions {
  /** A bare repository (no working tree), like a server-side clone. */
  bare?: boolean;
  /** Message of the initial commit (default `Initial commit`). */
  message?: string;
}

export interface GitRepo {
  /** The repository path: the working tree of a non-bare repository, the git folder of a bare one. */
  dir: string;
  /** The initial commit, which `main` points at. */
  head: string;
  /** Removes the repository (and any folder created with it). */
  cleanup(): Promise<void>;
}

/** The environment of every git call here: no user or system config, a fixed identity. */
export function testGitEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('GIT_')) environment[name] = value;
  }
  return {
    ...environment,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: devNull,
    GIT_AUTHOR_NAME: 'Test Author',
    GIT_AUTHOR_EMAIL: 'author@example.com',
    GIT_COMMITTER_NAME: 'Test Author',
    GIT_COMMITTER_EMAIL: 'author@example.com',
    ...extra,
  };
}

/** Runs git in `dir` and returns stdout as a Buffer (`.toString()` for text); rejects with stderr. */
export function runGit(
  dir: string,
  args: string[],
  options: { input?: string | Buffer; env?: Record<string, string> } = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      ['-C', dir, ...args],
      { env: testGitEnvironment(options.env), encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`git ${args.join(' ')} failed: ${stderr.toString()}`));
        else resolve(stdout);
      },
    );
    child.stdin?.on('error', () => undefined); // git may exit before reading: the exit code tells
    child.stdin?.end(options.input ?? '');
  });
}

/** Creates a repository whose `main` holds exactly `files` (or a copy of the folder `fromDir`). */
export async function createGitRepo(
  files: Record<string, RepoFile> | { fromDir: string },
  options: CreateGitRepoOptions = {},
): Promise<GitRepo> {
  const root = await mkdtemp(path.join(tmpdir(), 'docwright-test-repo-'));
  const cleanup = () => rm(root, { recursive: true, force: true });
  try {
    const work = path.join(root, options.bare ? 'work' : 'repo');
    await mkdir(work);
    await runGit(work, ['init', '-q', '-b', 'main']);
    await populate(work, files);
    await runGit(work, ['add', '-A']);
    await runGit(work, ['commit', '-q', '--no-verify', '-m', options.message ?? 'Initial commit']);
    const head = (await runGit(work, ['rev-parse', 'HEAD'])).toString().trim();
    if (!options.bare) return { dir: work, head, cleanup };
    const dir = path.join(root, 'repo.git');
    await runGit(root, ['init', '-q', '--bare', '-b', 'main', dir]);
    await runGit(work, ['push', '-q', dir, 'main']);
    await rm(work, { recursive: true, force: true });
    return { dir, head, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

async function populate(work: string, files: Record<string, RepoFile> | { fromDir: string }): Promise<void> {
  if (isFromDir(files)) {
    await cp(files.fromDir, work, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (source) => path.basename(source) !== '.git',
    });
    return;
  }
  for (const [name, file] of Object.entries(files)) {
    const target = path.join(work, name);
    await mkdir(path.dirname(target), { recursive: true });
    if (typeof file === 'object' && 'symlink' in file) {
      await symlink(file.symlink, target);
    } else if (typeof file === 'object' && 'executable' in file) {
      await writeFile(target, file.content);
      await chmod(target, 0o755);
    } else {
      await writeFile(target, file);
    }
  }
}

function isFromDir(files: Record<string, RepoFile> | { fromDir: string }): files is { fromDir: string } {
  // A record whose only key is `fromDir` is read as a folder to copy, not as one file named so.
  return Object.keys(files).length === 1 && typeof files.fromDir === 'string';
}
