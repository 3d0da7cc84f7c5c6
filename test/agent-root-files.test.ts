import { describe, expect, it } from 'vitest';
import { BuiltinAgent } from '../src/agent/builtin/index.js';
import { LlmAgent } from '../src/agent/llm/index.js';
import type { AgentRunInput } from '../src/agent/types.js';
import { MemorySnapshot } from '../src/forge/memory-snapshot.js';
import { Overlay } from '../src/forge/overlay.js';
import { silentLogger } from '../src/core/logger.js';
import { scriptedModel } from './helpers/scripted-model.js';
import { policyFor } from './helpers/write-policy.js';

/** A repository whose docs root is the repository root, with the files a team keeps there. */
const REPOSITORY: Record<string, string> = {
  'README.md': '# Acme\n\nSome documentation lives here.\n',
  'AGENTS.md': 'Some documentation rules for agents.\n',
  'CHANGELOG.md': '# Changes\n\nSome documentation changed.\n',
  'index.mdx': '---\ntitle: Home\n---\n\nSome documentation for Acme.\n',
};

function input(instruction: string, writable: string[] = []): AgentRunInput {
  const policy = policyFor('', { writable });
  return {
    jobId: 'job-root',
    instructions: [instruction],
    history: [],
    files: new Overlay(new MemorySnapshot('base', Object.entries(REPOSITORY)), { policy }),
    policy,
    signal: new AbortController().signal,
    logger: silentLogger,
  };
}

async function changedPaths(files: Overlay): Promise<string[]> {
  return (await files.changes()).map((change) => change.path);
}

describe('a repository-root docs folder: README.md and AGENTS.md stay as they are', () => {
  it('the built-in agent replaces text in the pages only, and lists what it skipped and why', async () => {
    const run = input('replace "Some documentation" with "Some docs"');
    const result = await new BuiltinAgent().run(run);
    expect(await changedPaths(run.files)).toEqual(['index.mdx']);
    expect(result.reply).toContain('Skipped 3 files that also contain it:');
    expect(result.reply).toContain('`README.md`: README.md is a repository file, not a docs page');
    expect(result.reply).toContain('`CHANGELOG.md`: CHANGELOG.md is a repository file');
    expect(result.reply).toContain("`AGENTS.md`: AGENTS.md holds the agent's own instructions");
  });

  it('the built-in agent writes README.md when the settings list it under writable:, never AGENTS.md', async () => {
    const run = input('replace "Some documentation" with "Some docs"', ['README.md', 'AGENTS.md']);
    const result = await new BuiltinAgent().run(run);
    expect((await changedPaths(run.files)).sort()).toEqual(['README.md', 'index.mdx']);
    expect(result.reply).toContain("`AGENTS.md`: AGENTS.md holds the agent's own instructions");
  });

  it('the built-in agent says why it will not touch a page that is there but off limits', async () => {
    for (const instruction of ['remove the page README', 'append a section "Rules" to AGENTS.md with "x"']) {
      const run = input(instruction);
      const result = await new BuiltinAgent().run(run);
      expect(result.reply, instruction).toMatch(
        /^Nothing changed: `(README|AGENTS)\.md` may not be written: /,
      );
      expect(await changedPaths(run.files)).toEqual([]);
    }
  });

  it('the model-driven agent is refused README.md and AGENTS.md in words, and edits the page', async () => {
    const { model, prompts } = scriptedModel([
      {
        calls: [
          ['edit_file', { path: 'README.md', oldText: 'Some documentation', newText: 'Some docs' }],
          ['edit_file', { path: 'AGENTS.md', oldText: 'Some documentation', newText: 'Some docs' }],
          ['write_file', { path: 'package.json', content: '{}' }],
          ['edit_file', { path: 'index.mdx', oldText: 'Some documentation', newText: 'Some docs' }],
        ],
      },
      { text: 'Replaced it in the docs page.' },
    ]);
    const run = input('replace "Some documentation" with "Some docs"');
    const result = await new LlmAgent({ model, name: 'openai:test' }).run(run);
    const answers = prompts[1]!
      .filter((message) => message.role === 'tool')
      .flatMap((message) => message.content)
      .map((part) => (part.type === 'tool-result' && part.output.type === 'text' ? part.output.value : ''));
    expect(answers[0]).toMatch(
      /^Error: Refused "README\.md": README\.md is a repository file, not a docs page/,
    );
    expect(answers[1]).toMatch(/^Error: Refused "AGENTS\.md": AGENTS\.md holds the agent's own instructions/);
    expect(answers[2]).toMatch(/^Error: Refused "package\.json": package\.json is a repository file/);
    expect(answers[3]).toBe('Edited index.mdx at line 5.');
    expect(await changedPaths(run.files)).toEqual(['index.mdx']);
    expect(result.reply).toContain('Replaced it in the docs page.');
  });
});
