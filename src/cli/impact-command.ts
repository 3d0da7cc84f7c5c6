import { execFile } from 'node:child_process';
import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { InvalidArgumentError, type Command } from 'commander';
import {
  analyzeImpact,
  pagesLeftStale,
  parseUnifiedDiff,
  readImpactInput,
  describeEvidence,
  type ImpactEvidence,
  type ImpactPage,
} from '../impact/index.js';
import { EXIT, UsageError } from './exit-codes.js';

const git = promisify(execFile);

/** A `git diff` of a big range can be large; past this it is refused rather than read to the end. */
const MAX_DIFF_BYTES = 64 * 2 ** 20;

interface ImpactCommandOptions {
  docs: string;
  patch?: string;
  range?: string;
  json?: boolean;
  limit?: number;
  check?: boolean;
  all?: boolean;
}

/** What the command prints and how it ends. */
interface ImpactCommandResult {
  output: string;
  /** Written to stderr: the `--check` warning. */
  warning?: string;
  exitCode: number;
}

/**
 * Adds `docwright impact` to the program. Its usage errors (a missing flag, a bad `--limit`,
 * `--patch` with `--range`) exit with 2, so a CI step can tell "the docs may be stale" (1) from
 * "the step is written wrong" (2).
 */
export function registerImpactCommand(
  program: Command,
  examples: (...lines: string[]) => string,
  readStdin: () => Promise<string> = () => readStream(process.stdin),
): void {
  program
    .command('impact')
    .description('rank the docs pages a code change makes stale, each with its evidence')
    .requiredOption('--docs <dir>', 'the docs root: the folder holding the pages')
    .option('--patch <file|->', 'a unified diff (git diff, diff -u); - reads it from stdin')
    .option('--range <base>..<head>', 'the diff of a range of commits of the git repository here')
    .option('--limit <n>', 'list at most this many pages', limit)
    .option('--check', 'exit with 1 when a listed page is not itself changed by the same diff')
    .option('--all', 'every page with any evidence, best first, each marked affected or not')
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : EXIT.usage))
    .addHelpText(
      'after',
      examples(
        'git diff main | docwright impact --docs docs --patch -',
        'docwright impact --docs docs --range origin/main..HEAD --check',
        'docwright impact --docs docs --patch change.diff --json --limit 5',
        'docwright impact --docs docs --range origin/main..HEAD --json --all',
      ),
    )
    .action(async (options: ImpactCommandOptions) => {
      try {
        // --json is the program's option (written before or after the command): here it prints
        // {"needsDocs","chance","pages":[{"path","score","affected","evidence"}]}, most affected first.
        const json = program.opts<{ json?: boolean }>().json === true;
        const result = await impactCommand({ ...options, json }, readStdin);
        if (result.output !== '') process.stdout.write(`${result.output}\n`);
        if (result.warning) process.stderr.write(`${result.warning}\n`);
        process.exitCode = result.exitCode;
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        process.stderr.write(`docwright impact: ${error.message}\n`);
        process.exitCode = EXIT.usage;
      }
    });
}

/**
 * `docwright impact`: reads the diff (a file, stdin, or a git range) and the docs, and lists the
 * pages the change makes stale. Only pages the analysis calls affected are listed.
 */
async function impactCommand(
  options: ImpactCommandOptions,
  readStdin: () => Promise<string>,
): Promise<ImpactCommandResult> {
  if ((options.patch === undefined) === (options.range === undefined))
    throw new UsageError('give the change either as --patch <file|-> or as --range <base>..<head>.');
  const diff =
    options.range !== undefined ? await rangeDiff(options.range) : await patchText(options.patch!, readStdin);
  let input;
  try {
    input = await readImpactInput(options.docs, diff);
  } catch (error) {
    // A docs root that is missing or a file is a mistake in the command line.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const parsed = parseUnifiedDiff(diff);
  const result = analyzeImpact({ ...input, diff: parsed });
  const listed = result.pages.filter((page) => page.affected);
  // --all shows the ranking behind the list: every page with evidence, the listed ones marked.
  const shown = (options.all ? result.pages : listed).slice(0, options.limit);
  const output = options.json
    ? JSON.stringify(
        {
          needsDocs: result.judgement.needsDocs,
          chance: result.judgement.chance,
          pages: shown.map(jsonPage),
        },
        null,
        2,
      )
    : text(shown, options.all === true);
  if (!options.check) return { output, exitCode: EXIT.ok };
  const stale = pagesLeftStale(
    listed,
    parsed,
    await docsRootInRepository(options.docs, options.range !== undefined),
  );
  if (stale.length === 0) return { output, exitCode: EXIT.ok };
  const names = stale.map((page) => page.path).join(', ');
  return {
    output,
    warning: `docwright impact: docs may be stale: ${names} ${stale.length === 1 ? 'is' : 'are'} affected by the change but not changed with it.`,
    exitCode: EXIT.failed,
  };
}

function jsonPage(page: ImpactPage): {
  path: string;
  score: number;
  affected: boolean;
  evidence: ImpactEvidence[];
} {
  return { path: page.path, score: page.score, affected: page.affected, evidence: page.evidence };
}

/**
 * One page a line with its score, then its evidence indented beneath it; with --all, the pages
 * not listed as affected say so after their score.
 */
function text(pages: readonly ImpactPage[], all: boolean): string {
  if (pages.length === 0)
    return all ? 'No docs page has any evidence of this change.' : 'No docs page is affected by this change.';
  return pages
    .map((page) =>
      [
        `${page.path}  ${page.score.toFixed(2)}${all && !page.affected ? '  (not affected)' : ''}`,
        ...page.evidence.map((item) => `  ${describeEvidence(item)}`),
      ].join('\n'),
    )
    .join('\n');
}

async function patchText(patch: string, readStdin: () => Promise<string>): Promise<string> {
  if (patch === '-') return readStdin();
  try {
    return await readFile(patch, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT'
        ? `the patch file ${patch} does not exist.`
        : code === 'EISDIR'
          ? `${patch} is a folder; --patch takes a diff file or - for stdin.`
          : `cannot read the patch file ${patch} (${code ?? String(error)}).`,
    );
  }
}

/** `git diff base..head` of the repository around the working directory. */
async function rangeDiff(range: string): Promise<string> {
  if (!/^[^\s.][^\s]*?\.\.[^\s.][^\s]*$/.test(range) || range.includes('...') || range.startsWith('-'))
    throw new UsageError(`--range takes <base>..<head>, such as origin/main..HEAD; got "${range}".`);
  try {
    const { stdout } = await git('git', ['diff', '--no-color', '--no-ext-diff', range, '--'], {
      maxBuffer: MAX_DIFF_BYTES,
    });
    return stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new UsageError(`git diff ${range} failed: ${stderr || (error as Error).message}`);
  }
}

/**
 * The docs root relative to the repository root, which the diff's paths are relative to: the git
 * repository's top level when there is one (always for `--range`), else the working directory.
 */
async function docsRootInRepository(docs: string, inGit: boolean): Promise<string> {
  let top = process.cwd();
  try {
    top = (await git('git', ['rev-parse', '--show-toplevel'])).stdout.trim();
  } catch (error) {
    if (inGit) throw error;
  }
  return path
    .relative(await realpath(top), await realpath(docs))
    .split(path.sep)
    .join('/');
}

function limit(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new InvalidArgumentError('must be a whole number of pages, 1 or more');
  return number;
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
