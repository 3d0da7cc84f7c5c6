import { spawn, type ChildProcessByStdio } from 'node:child_process';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { DocwrightError } from '../core/errors.js';

/** The environment git runs in; values that are undefined are left out. */
export type GitEnvironment = Readonly<Record<string, string | undefined>>;

export interface GitIdentity {
  name: string;
  email: string;
}

export interface GitRunOptions {
  /** Written to git's stdin, which is then closed. Messages and paths travel here, never as arguments. */
  input?: string | Buffer;
  /** Variables for this call only, e.g. `GIT_INDEX_FILE`. */
  env?: Record<string, string>;
  /** Exit codes that are answers rather than failures (e.g. 1 from `rev-parse --verify --quiet`). */
  okExitCodes?: readonly number[];
}

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  exitCode: number;
}

/**
 * What git says when another process holds a lock or the machine is short of something: the same
 * command succeeds once the other process is done or space is freed. Everything else git refuses
 * (a malformed path or message, a missing object) it refuses the same way every time.
 */
const PASSING_GIT_FAILURE =
  /\.lock': File exists|cannot lock ref|Unable to create .*\.lock|Resource temporarily unavailable|No space left on device|Too many open files|Cannot allocate memory|Connection (?:reset|refused|timed out)|timed out/i;

/** A git command failed; carries git's stderr (never the environment it ran with). */
export class GitCommandError extends DocwrightError {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    const detail = stderr.trim() === '' ? '' : `: ${stderr.trim()}`;
    // No exit code: git was killed by a signal (out of memory, a shutdown), not refused the work.
    super('git_error', `git ${args[0] ?? ''} failed (exit code ${String(exitCode)})${detail}`, {
      retryable: exitCode === null || PASSING_GIT_FAILURE.test(stderr),
    });
  }
}

/** The repository path does not exist or is not a git repository (bare or not). */
export class NotAGitRepositoryError extends DocwrightError {
  constructor(readonly repository: string) {
    super('git_error', `Not a git repository: ${repository}`, { retryable: false });
  }
}

/**
 * Options for every call. Why each: quotepath off keeps non-ASCII names readable in messages;
 * splitIndex/fsmonitor/untrackedCache off keep a temporary index from writing `sharedindex.*` files
 * or waking daemons in the user's `.git`; no replace objects so a snapshot is the commit as stored;
 * literal pathspecs so a file named `*.md` means that file.
 */
const GLOBAL_ARGS = [
  '-c',
  'core.quotepath=off',
  '-c',
  'core.splitIndex=false',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.untrackedCache=false',
  '--no-replace-objects',
  '--literal-pathspecs',
];

/** Inherited `GIT_*` variables that are kept: the rest (GIT_DIR, GIT_INDEX_FILE from a hook…) would redirect us. */
const KEPT_GIT_VARIABLES = /^GIT_(EXEC_PATH|TRACE\w*)$/;

/**
 * Runs git without a shell, in a given repository, with an environment that does not depend on the
 * user's git variables or system config. Identity comes from the environment, so no `user.name` is needed.
 */
export class GitRunner {
  private readonly binary: string;
  private readonly baseEnvironment: Record<string, string>;

  constructor(options: { binary: string; environment: GitEnvironment; identity: GitIdentity }) {
    this.binary = options.binary;
    this.baseEnvironment = {
      ...scrubEnvironment(options.environment),
      GIT_CONFIG_NOSYSTEM: '1',
      // English messages, so failures can be recognised (e.g. "not a git repository").
      LC_ALL: 'C',
      GIT_TERMINAL_PROMPT: '0',
      GIT_AUTHOR_NAME: options.identity.name,
      GIT_AUTHOR_EMAIL: options.identity.email,
      GIT_COMMITTER_NAME: options.identity.name,
      GIT_COMMITTER_EMAIL: options.identity.email,
    };
  }

  /** Starts git with piped stdio; the caller owns the process (used for long-lived `cat-file --batch`). */
  spawn(
    repository: string,
    args: readonly string[],
    env: Record<string, string> = {},
  ): ChildProcessByStdio<Writable, Readable, Readable> {
    const absolute = path.resolve(repository);
    return spawn(this.binary, ['-C', absolute, ...GLOBAL_ARGS, ...args], {
      env: {
        ...this.baseEnvironment,
        // Stop discovery at the given folder: a subfolder of some other repository is not a repository.
        GIT_CEILING_DIRECTORIES: path.dirname(absolute),
        ...env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
  }

  /** Runs git to completion; rejects with GitCommandError or NotAGitRepositoryError on failure. */
  run(repository: string, args: readonly string[], options: GitRunOptions = {}): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      const child = this.spawn(repository, args, options.env);
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      // git may exit before reading all input (e.g. a bad argument): EPIPE is reported via the exit code.
      child.stdin.on('error', () => undefined);
      child.on('error', (error) => reject(spawnFailure(this.binary, error)));
      child.on('close', (exitCode) => {
        const result = { stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString('utf8') };
        if (exitCode === 0 || (exitCode !== null && options.okExitCodes?.includes(exitCode))) {
          resolve({ ...result, exitCode });
        } else {
          reject(commandFailure(repository, args, exitCode, result.stderr));
        }
      });
      child.stdin.end(options.input ?? '');
    });
  }

  /** Runs git and returns stdout as text without the final newline. */
  async text(repository: string, args: readonly string[], options: GitRunOptions = {}): Promise<string> {
    const { stdout } = await this.run(repository, args, options);
    return stdout.toString('utf8').replace(/\n$/, '');
  }
}

/** Turns a failed exit into the most specific error: a missing repository is worth its own message. */
export function commandFailure(
  repository: string,
  args: readonly string[],
  exitCode: number | null,
  stderr: string,
): Error {
  if (/not a git repository|cannot change to/i.test(stderr)) {
    return new NotAGitRepositoryError(path.resolve(repository));
  }
  return new GitCommandError(args, exitCode, stderr);
}

function spawnFailure(binary: string, error: NodeJS.ErrnoException): Error {
  if (error.code === 'ENOENT') return new DocwrightError('git_error', `git not found: ${binary}`);
  // EAGAIN, EMFILE, ENOMEM: the machine was busy; starting git again later may work.
  return new DocwrightError('git_error', `Could not start git (${binary}): ${error.message}`, {
    retryable: true,
  });
}

function scrubEnvironment(environment: GitEnvironment): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if (value === undefined) continue;
    if (name.startsWith('GIT_') && !KEPT_GIT_VARIABLES.test(name)) continue;
    result[name] = value;
  }
  return result;
}
