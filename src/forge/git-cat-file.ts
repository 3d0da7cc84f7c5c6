import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { DocwrightError } from '../core/errors.js';
import { commandFailure, type GitRunner } from './git-command.js';

const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
const EMPTY = Buffer.alloc(0);

interface Waiter {
  object: string;
  resolve(content: Buffer): void;
  reject(error: Error): void;
}

/**
 * Reads objects through one long-lived `git cat-file --batch` per repository view: starting a
 * process per file costs milliseconds each, which adds up to seconds on a docs tree of a thousand
 * pages. Requests are pipelined; git answers them in order. The process starts on the first read
 * and is closed after `idleMilliseconds` without reads, so an idle snapshot holds no process.
 */
export class CatFileBatch {
  private current: BatchProcess | null = null;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly git: GitRunner,
    private readonly repository: string,
    private readonly idleMilliseconds = 1_000,
  ) {}

  /** The content of one object, by its full id (blob ids come from `ls-tree`, so no names are parsed). */
  read(object: string): Promise<Buffer> {
    if (!OBJECT_ID.test(object))
      return Promise.reject(
        new DocwrightError('internal_error', `Not an object id: ${object}`, { retryable: false }),
      );
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.current?.ended === true) this.current = null; // crashed or killed: start afresh
    this.current ??= new BatchProcess(this.git, this.repository, () => this.onIdle());
    return this.current.request(object);
  }

  /** Ends the git process now (pending reads still complete). Reading again restarts it. */
  close(): void {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.current?.end();
    this.current = null;
  }

  private onIdle(): void {
    const idle = this.current;
    this.idleTimer = setTimeout(() => {
      if (this.current === idle && idle?.pending === 0) this.close();
    }, this.idleMilliseconds);
    // An idle reader must not keep a command-line run alive.
    this.idleTimer.unref();
  }
}

/** One `cat-file --batch` process, its queue of waiting reads and its output parser. */
class BatchProcess {
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private readonly waiting: Waiter[] = [];
  private readonly parser: BatchOutputParser;
  private stderr = '';
  private exited = false;

  constructor(
    git: GitRunner,
    private readonly repository: string,
    private readonly onIdle: () => void,
  ) {
    this.parser = new BatchOutputParser(
      (content) => this.settle((waiter) => waiter.resolve(content)),
      // git names an object it does not have: it will not have it on a second asking either.
      (line) =>
        this.settle((waiter) =>
          waiter.reject(new DocwrightError('git_error', `git cat-file: ${line}`, { retryable: false })),
        ),
    );
    this.child = git.spawn(repository, ['cat-file', '--batch']);
    this.child.stdout.on('data', (chunk: Buffer) => this.parser.push(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.child.stdin.on('error', () => undefined); // reported through 'close' below
    this.child.on('error', (error) => this.failAll(error));
    this.child.on('close', (exitCode) => {
      this.exited = true;
      this.failAll(commandFailure(this.repository, ['cat-file', '--batch'], exitCode, this.stderr));
    });
  }

  get ended(): boolean {
    return this.exited;
  }

  get pending(): number {
    return this.waiting.length;
  }

  request(object: string): Promise<Buffer> {
    // The next read starts a fresh process, so the same read may work then.
    if (this.exited)
      return Promise.reject(
        new DocwrightError('git_error', 'git cat-file --batch has exited', { retryable: true }),
      );
    return new Promise((resolve, reject) => {
      this.waiting.push({ object, resolve, reject });
      this.child.stdin.write(`${object}\n`);
    });
  }

  end(): void {
    this.child.stdin.end();
  }

  private settle(action: (waiter: Waiter) => void): void {
    const waiter = this.waiting.shift();
    if (waiter !== undefined) action(waiter);
    if (this.waiting.length === 0) this.onIdle();
  }

  private failAll(error: Error): void {
    this.exited = true;
    for (const waiter of this.waiting.splice(0)) waiter.reject(error);
  }
}

/**
 * Parses `cat-file --batch` output: `<id> <type> <size>\n<content>\n` per object, or
 * `<name> missing\n`. Contents are copied into a buffer of the announced size, so a large file
 * arriving in many chunks is not re-concatenated on every chunk.
 */
class BatchOutputParser {
  private header: Buffer = EMPTY;
  private body: { data: Buffer; filled: number } | null = null;
  private expectNewline = false;

  constructor(
    private readonly onObject: (content: Buffer) => void,
    private readonly onOther: (headerLine: string) => void,
  ) {}

  push(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.body !== null) {
        offset = this.fillBody(this.body, chunk, offset);
      } else if (this.expectNewline) {
        this.expectNewline = false;
        offset += 1;
      } else {
        const end = chunk.indexOf(0x0a, offset);
        if (end === -1) {
          this.header = Buffer.concat([this.header, chunk.subarray(offset)]);
          return;
        }
        const line = Buffer.concat([this.header, chunk.subarray(offset, end)]).toString('utf8');
        this.header = EMPTY;
        offset = end + 1;
        this.onHeader(line);
      }
    }
  }

  private fillBody(body: { data: Buffer; filled: number }, chunk: Buffer, offset: number): number {
    const count = Math.min(body.data.length - body.filled, chunk.length - offset);
    chunk.copy(body.data, body.filled, offset, offset + count);
    body.filled += count;
    if (body.filled === body.data.length) this.finishBody(body.data);
    return offset + count;
  }

  private onHeader(line: string): void {
    const match = /^[0-9a-f]+ [a-z]+ (\d+)$/.exec(line);
    if (match?.[1] === undefined) {
      this.onOther(line);
      return;
    }
    const size = Number(match[1]);
    if (size === 0) this.finishBody(EMPTY);
    else this.body = { data: Buffer.allocUnsafe(size), filled: 0 };
  }

  private finishBody(data: Buffer): void {
    this.body = null;
    this.expectNewline = true;
    this.onObject(data);
  }
}
