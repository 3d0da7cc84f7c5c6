import { describe, expect, it } from 'vitest';
import { BuiltinAgent } from '../src/agent/builtin/index.js';
import { MemorySnapshot } from '../src/forge/memory-snapshot.js';
import { Overlay } from '../src/forge/overlay.js';
import { silentLogger } from '../src/core/logger.js';
import { policyFor } from './helpers/write-policy.js';

describe('the built-in agent and symlinks', () => {
  it('never edits a page that is a symlink, and still edits the real pages', async () => {
    const files = new Overlay(
      new MemorySnapshot('c0', [
        ['a.mdx', '# A\n\nAcme is here.\n'],
        ['b.mdx', 'Acme secret outside the repository\n'],
      ]),
    );
    const result = await new BuiltinAgent().run({
      jobId: 'j',
      instructions: ['replace "Acme" with "Zeta"'],
      history: [],
      files,
      policy: policyFor('', { isSymlink: (path) => path === 'b.mdx' }),
      signal: new AbortController().signal,
      logger: silentLogger,
    });
    const changes = await files.changes();
    expect(changes.map((change) => change.path)).toEqual(['a.mdx']);
    expect(result.reply).toContain('a.mdx');
  });
});
