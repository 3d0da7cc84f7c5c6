/**
 * The workflow commands the Action writes, in the formats GitHub's runner reads: what a workflow
 * sees of the step depends on each byte here.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkflowCommands } from '../src/action/workflow-commands.js';

let dir: string;
let written: string[];
const commands = (env: NodeJS.ProcessEnv) => new WorkflowCommands(env, (text) => void written.push(text));

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-commands-'));
  written = [];
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

describe('the workflow commands of a step', () => {
  it('reads an input from INPUT_<NAME>, in capitals with spaces as underscores, trimmed', () => {
    const step = commands({ 'INPUT_GITHUB-TOKEN': '  ghs_x \n', INPUT_MY_INPUT: 'yes' });
    expect(step.getInput('github-token')).toBe('ghs_x');
    expect(step.getInput('my input')).toBe('yes');
    expect(step.getInput('missing')).toBe('');
  });

  it('writes annotations and masks as ::command:: lines, with %, CR and LF percent-encoded', () => {
    const step = commands({});
    step.warning('50% done\r\nsecond line');
    step.error('failed');
    step.notice('note');
    step.debug('detail');
    step.setSecret('svc_secret');
    step.info('plain 100%');
    expect(written.join('')).toBe(
      [
        '::warning::50%25 done%0D%0Asecond line',
        '::error::failed',
        '::notice::note',
        '::debug::detail',
        '::add-mask::svc_secret',
        'plain 100%',
        '',
      ].join(os.EOL),
    );
  });

  it('writes where a warning points as properties, with `:` and `,` percent-encoded too', () => {
    const step = commands({});
    step.warning('may be stale\nline two', { file: 'docs/a,b:c.md', line: 12, title: 'docs may be stale' });
    step.warning('no line', { file: 'docs/x.md', line: undefined });
    expect(written.join('')).toBe(
      [
        '::warning file=docs/a%2Cb%3Ac.md,line=12,title=docs may be stale::may be stale%0Aline two',
        '::warning file=docs/x.md::no line',
        '',
      ].join(os.EOL),
    );
  });

  it('appends each output to GITHUB_OUTPUT as a block between one random delimiter, so values may span lines', async () => {
    const file = path.join(dir, 'output');
    await fs.writeFile(file, '');
    const step = commands({ GITHUB_OUTPUT: file });
    step.setOutput('job-id', 'k3n5');
    step.setOutput('reply', 'line one\nline two');
    const text = await fs.readFile(file, 'utf8');
    const blocks = [...text.matchAll(/^(.+?)<<(ghadelimiter_[0-9a-f-]{36})\n([\s\S]*?)\n\2$/gm)];
    expect(blocks.map((block) => [block[1], block[3]])).toEqual([
      ['job-id', 'k3n5'],
      ['reply', 'line one\nline two'],
    ]);
    expect(blocks[0]![2]).not.toBe(blocks[1]![2]);
    expect(written).toEqual([]);
  });

  it('falls back to the set-output command outside a runner', () => {
    commands({}).setOutput('pr-link', 'https://github.com/o/r/pull/1');
    expect(written.join('')).toBe(
      `${os.EOL}::set-output name=pr-link::https://github.com/o/r/pull/1${os.EOL}`,
    );
  });

  it('appends Markdown to GITHUB_STEP_SUMMARY, and says so when there is no summary file', async () => {
    const file = path.join(dir, 'summary');
    await fs.writeFile(file, '# Earlier step\n');
    commands({ GITHUB_STEP_SUMMARY: file }).appendSummary('| Job | k3n5 |\n');
    expect(await fs.readFile(file, 'utf8')).toBe('# Earlier step\n| Job | k3n5 |\n');
    expect(() => commands({}).appendSummary('x')).toThrow(/GITHUB_STEP_SUMMARY/);
  });

  it('fails the step with the message as its error annotation', () => {
    const before = process.exitCode;
    try {
      commands({}).setFailed('Job k3n5 failed: the MDX does not parse.');
      expect(process.exitCode).toBe(1);
      expect(written.join('')).toBe(`::error::Job k3n5 failed: the MDX does not parse.${os.EOL}`);
    } finally {
      process.exitCode = before;
    }
  });
});
