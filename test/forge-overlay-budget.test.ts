import { describe, expect, it } from 'vitest';
import { UnrecoverableError } from '../src/core/errors.js';
import { MemorySnapshot } from '../src/forge/memory-snapshot.js';
import { OutputBudgetError, type OutputBudget } from '../src/write-policy/output-budget.js';
import { Overlay } from '../src/forge/overlay.js';
import { WriteRefusedError } from '../src/write-policy/index.js';
import { policyFor } from './helpers/write-policy.js';

const BUDGET: OutputBudget = { maxFilesChanged: 3, maxFileBytes: 1000, maxTotalBytes: 1500 };

function overlay(files: Record<string, string>, budget = BUDGET): Overlay {
  return new Overlay(new MemorySnapshot('base', Object.entries(files)), {
    budget,
    policy: policyFor('docs'),
  });
}

describe('the overlay: one place for the write policy and the output budget of every agent', () => {
  it('replaces every occurrence and counts them, in bytes of any script', async () => {
    const files = overlay({ 'docs/a.md': 'één e, ë and e — e\n' });
    expect(await files.replaceAll('docs/a.md', 'e', 'E')).toBe(3);
    expect(await files.read('docs/a.md')).toBe('één E, ë and E — E\n');
    expect(await files.replaceAll('docs/a.md', 'zzz', 'y')).toBe(0);
    expect(await files.replaceAll('docs/a.md', 'één', '')).toBe(1);
    expect(await files.read('docs/a.md')).toBe(' E, ë and E — E\n');
  });

  it('refuses a replacement whose result would pass the per-file cap before building it', async () => {
    const files = overlay({ 'docs/a.md': 'e'.repeat(500) });
    const huge = 'x'.repeat(50_000_000);
    const error = await files.replaceAll('docs/a.md', 'e', huge).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutputBudgetError);
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect((error as Error).message).toBe(
      'The request was stopped and nothing was committed, because the change is too large: docs/a.md would be 23841.9 MiB, more than the 1000 bytes allowed for one file (DOCWRIGHT_MAX_FILE_BYTES)',
    );
    expect(await files.changes()).toEqual([]);
  });

  it('refuses the change that passes the file count or the total bytes, and keeps what came before', async () => {
    const files = overlay({ 'docs/a.md': 'a', 'docs/b.md': 'b', 'docs/c.md': 'c', 'docs/d.md': 'd' });
    files.write('docs/a.md', 'x'.repeat(800));
    expect(() => files.write('docs/b.md', 'x'.repeat(800))).toThrow(
      /the changed files would come to 1.6 KiB, more than the 1.5 KiB a run may write/,
    );
    files.write('docs/b.md', 'y');
    files.delete('docs/c.md');
    expect(() => files.delete('docs/d.md')).toThrow(/more than 3 files \(DOCWRIGHT_MAX_FILES_CHANGED\)/);
    await expect(files.move('docs/d.md', 'docs/e.md')).rejects.toThrow(/more than 3 files/);
    expect((await files.changes()).map((change) => change.path)).toEqual([
      'docs/a.md',
      'docs/b.md',
      'docs/c.md',
    ]);
  });

  it('asks the write policy on every write, delete and move', async () => {
    const files = overlay({ 'docs/a.md': 'a', 'README.md': 'r' });
    expect(() => files.write('.github/workflows/x.yml', 'x')).toThrow(WriteRefusedError);
    expect(() => files.delete('README.md')).toThrow(/README\.md is outside the docs folder docs\//);
    await expect(files.move('docs/a.md', 'docs/AGENTS.md')).rejects.toThrow(/agent's own instructions/);
    expect(await files.changes()).toEqual([]);
  });
});
