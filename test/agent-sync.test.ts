/**
 * A docs sync job in the built-in agent: the prompt the app writes from a pull request, the edits
 * the agent can prove (a rename whose two names come from the diff), the pages it lists for people,
 * and the quiet answer when no page is affected.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinAgent } from '../src/agent/builtin/index.js';
import { LlmAgent } from '../src/agent/llm/index.js';
import type { AgentResult } from '../src/agent/types.js';
import { silentLogger } from '../src/core/logger.js';
import { MemorySnapshot } from '../src/forge/memory-snapshot.js';
import { Overlay } from '../src/forge/overlay.js';
import { applyRenames, formatSyncPrompt, parseSyncPrompt } from '../src/impact/index.js';
import { scriptedModel } from './helpers/scripted-model.js';
import { policyFor } from './helpers/write-policy.js';

const RENAME_DIFF = `diff --git a/src/options.ts b/src/options.ts
--- a/src/options.ts
+++ b/src/options.ts
@@ -1,5 +1,5 @@
 export const defaults = {
-  maxRetries: 3,
+  retryLimit: 3,
   timeout: 10,
-  token: process.env.APP_TOKEN,
+  token: readTokenFile(),
 };
`;

const PAGES = {
  'docs/reference/options.md': `---
title: Options
---

## maxRetries

How often a failed request is retried. Default: \`3\`. On the command line: \`--max-retries 5\`.
Not to be confused with \`maxRetriesDelay\`.
`,
  'docs/environment.mdx': `---
title: Environment
---

Set \`APP_TOKEN\` to the token of your account.
`,
  'docs/changelog.md': `---
title: Changelog
---

- 2.0: \`maxRetries\` added.
`,
  'docs/intro.md': '---\ntitle: Intro\n---\n\nWelcome.\n',
};

function overlay(): Overlay {
  return new Overlay(new MemorySnapshot('base', new Map(Object.entries(PAGES))));
}

function run(
  files: Overlay,
  prompt: string,
  agent: BuiltinAgent | LlmAgent = new BuiltinAgent(),
): Promise<AgentResult> {
  return agent.run({
    jobId: 'job_test',
    instructions: [prompt],
    history: [],
    files,
    policy: policyFor('docs'),
    signal: new AbortController().signal,
    logger: silentLogger,
  });
}

const request = {
  htmlUrl: 'https://github.com/acme/client/pull/7',
  title: 'Rename maxRetries to retryLimit',
  body: 'The token now comes from a file.',
  diff: RENAME_DIFF,
};

describe('the sync prompt', () => {
  it('carries the pull request and its diff, and reads back as it was written', () => {
    const prompt = formatSyncPrompt(request);
    expect(prompt.split('\n').slice(0, 4)).toEqual([
      'Docs sync: bring the docs up to date with this code change.',
      '',
      'Code pull request: https://github.com/acme/client/pull/7',
      'Title: Rename maxRetries to retryLimit',
    ]);
    expect(parseSyncPrompt(prompt)).toEqual(request);
    expect(parseSyncPrompt('replace "maxRetries" with "retryLimit"')).toBeNull();
  });

  it('stays within the prompt limit: code files first, then tests, the rest named as left out', () => {
    const section = (file: string, lines: number) =>
      `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n@@ -1,${lines} +1,${lines} @@\n${'-old line\n+new line\n'.repeat(lines)}`;
    const diff = [
      section('package-lock.json', 400),
      section('test/a.test.ts', 100),
      section('src/a.ts', 200),
    ].join('');
    const prompt = formatSyncPrompt({ title: 'Big', body: 'x'.repeat(5_000), diff }, 6_000);
    expect(prompt.length).toBeLessThanOrEqual(6_000);
    const parsed = parseSyncPrompt(prompt)!;
    expect(parsed.diff).toContain('diff --git a/src/a.ts b/src/a.ts');
    expect(parsed.diff).not.toContain('package-lock.json');
    expect(prompt).toContain(
      'Left out of the diff (too long): part of src/a.ts, test/a.test.ts, package-lock.json\n',
    );
    expect(parsed.body.length).toBeLessThanOrEqual(2_001);
  });
});

describe('applyRenames', () => {
  it('renames every spelling of a name of several words, and a one-word name only as code', () => {
    const renames = [{ from: 'maxRetries', to: 'retryLimit' }];
    expect(
      applyRenames('`maxRetries`, --max-retries, MAX_RETRIES, max_retries, maxRetriesDelay', renames),
    ).toEqual({
      text: '`retryLimit`, --retry-limit, RETRY_LIMIT, retry_limit, maxRetriesDelay',
      count: 4,
    });
    expect(
      applyRenames('Set a `timeout`; the timeout is long.', [{ from: 'timeout', to: 'deadline' }]),
    ).toEqual({
      text: 'Set a `deadline`; the timeout is long.',
      count: 1,
    });
  });
});

describe('a docs sync in the built-in agent', () => {
  it('renames what the diff renames on the affected page and lists the other affected pages with evidence', async () => {
    const files = overlay();
    const result = await run(files, formatSyncPrompt(request));
    expect(await files.read('docs/reference/options.md')).toBe(
      PAGES['docs/reference/options.md']
        .replace('## maxRetries', '## retryLimit')
        .replace('`--max-retries 5`', '`--retry-limit 5`'),
    );
    // The changelog names the old option in passing: history, not stale, so not edited.
    expect(await files.read('docs/changelog.md')).toBe(PAGES['docs/changelog.md']);
    expect(await files.read('docs/environment.mdx')).toBe(PAGES['docs/environment.mdx']);
    expect(result.title).toBe('follow "Rename maxRetries to retryLimit"');
    expect(result.reply).toContain(
      'Docs sync for "Rename maxRetries to retryLimit" (https://github.com/acme/client/pull/7).',
    );
    expect(result.reply).toContain('- `reference/options.md`: `maxRetries` → `retryLimit` (2 occurrences)');
    expect(result.reply).toMatch(
      /Other pages the change may make stale, not edited .*\n\n- `environment\.mdx` \(0\.\d\d\)\n {2}- APP_TOKEN removed \(src\/options\.ts:4\); page line 5: Set 'APP_TOKEN' to the token of your account\./,
    );
    expect(result.reply).not.toContain('intro.md');
    expect(result.reply).not.toContain('changelog.md');
  });

  it('changes nothing and says so when no page is affected', async () => {
    const files = overlay();
    const diff = RENAME_DIFF.replaceAll('src/options.ts', 'test/options.test.ts');
    const result = await run(files, formatSyncPrompt({ ...request, diff }));
    expect(await files.changes()).toEqual([]);
    expect(result.reply).toBe(
      'Nothing changed: no docs page is affected by "Rename maxRetries to retryLimit" (https://github.com/acme/client/pull/7). The analysis found no page that names what the change renames, removes or changes.',
    );
    expect(result.title).toBeUndefined();
  });
});

describe('a docs sync with a model', () => {
  it('gives the model the diff and the affected pages with their evidence and the proven renames', async () => {
    const { model, prompts } = scriptedModel([
      {
        calls: [['edit_file', { path: 'environment.mdx', oldText: 'Set `APP_TOKEN` to', newText: 'Put' }]],
      },
      { text: 'Docs sync: the token comes from a file\n\n- environment.mdx: no more APP_TOKEN' },
    ]);
    const files = overlay();
    const result = await run(files, formatSyncPrompt(request), new LlmAgent({ model, name: 'openai:mock' }));
    const asked = JSON.stringify(prompts[0]);
    expect(asked).toContain('+  retryLimit: 3,');
    expect(asked).toContain('- `reference/options.md` (');
    expect(asked).toContain('- `environment.mdx` (');
    expect(asked).toContain('- `maxRetries` → `retryLimit` on `reference/options.md`');
    expect(asked).not.toContain('intro.md');
    expect(result.title).toBe('Docs sync: the token comes from a file');
    expect(await files.read('docs/environment.mdx')).toContain('Put the token of your account.');
  });

  it('asks the model nothing when no page is affected', async () => {
    const { model, prompts } = scriptedModel([]);
    const diff = RENAME_DIFF.replaceAll('src/options.ts', 'test/options.test.ts');
    const result = await run(
      overlay(),
      formatSyncPrompt({ ...request, diff }),
      new LlmAgent({ model, name: 'openai:mock' }),
    );
    expect(prompts).toEqual([]);
    expect(result.reply).toMatch(/^Nothing changed: no docs page is affected by /);
  });
});
