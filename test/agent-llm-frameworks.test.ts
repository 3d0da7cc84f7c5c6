import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LlmAgent } from '../src/agent/llm/llm-agent.js';
import { silentLogger } from '../src/core/logger.js';
import { folderDocsTree } from '../src/docs/docs-tree.js';
import { openDocsSite, siteLayoutOf } from '../src/docs/site-files.js';
import { MemorySnapshot } from '../src/forge/memory-snapshot.js';
import { Overlay } from '../src/forge/overlay.js';
import { parseDocsRoot, WritePolicy } from '../src/write-policy/index.js';
import { scriptedModel } from './helpers/scripted-model.js';

/**
 * The model-driven agent on sites whose navigation lives outside its docs folder (Docusaurus'
 * `sidebars.js`, MkDocs' `mkdocs.yml`): it is told the framework's page format and link style, and
 * it lists, moves and unlists pages through its navigation tools, which edit the framework's file
 * through the framework's editor. The write policy is the engine's: the pages folder and that file.
 */

const FIXTURES = fileURLToPath(new URL('./fixtures/sites/', import.meta.url));

async function siteRun(name: string, docsRoot: string) {
  const tree = folderDocsTree(`${FIXTURES}${name}`);
  const files = await Promise.all(
    tree.paths().map(async (path): Promise<[string, string]> => [path, await tree.read(path)]),
  );
  const snapshot = new MemorySnapshot('base', files);
  const layout = await siteLayoutOf(snapshot, docsRoot);
  const policy = new WritePolicy({
    docsRoot: parseDocsRoot(layout.pagesRoot),
    siteFiles: [layout.navigationFile!],
  });
  return { overlay: new Overlay(snapshot, { policy }), policy, layout };
}

function toolResults(prompt: LanguageModelV3Prompt | undefined): string[] {
  return (prompt ?? []).flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) =>
          part.type === 'tool-result' && part.output.type === 'text' ? [part.output.value] : [],
        )
      : [],
  );
}

describe('the model-driven agent on other docs frameworks', () => {
  it('adds a Docusaurus page and lists it in sidebars.js above the docs folder', async () => {
    const { overlay, policy } = await siteRun('docusaurus3', 'website');
    const { model, prompts } = scriptedModel([
      { calls: [['read_navigation', {}]] },
      {
        calls: [
          ['write_file', { path: 'tutorial-extras/webhooks.md', content: '# Webhooks\n\nGet notified.\n' }],
          ['edit_navigation', { op: 'add', page: 'tutorial-extras/webhooks.md', group: 'Tutorial - Extras' }],
        ],
      },
      { text: 'Add a webhooks page\n\n- added tutorial-extras/webhooks.md' },
    ]);
    const result = await new LlmAgent({ model, name: 'openai:mock' }).run({
      jobId: 'job-1',
      instructions: ['Add a webhooks page to the extras'],
      history: [],
      files: overlay,
      policy,
      signal: new AbortController().signal,
      logger: silentLogger,
    });
    const system = prompts[0]!.find((message) => message.role === 'system')!.content;
    expect(system).toContain('The site is built with Docusaurus');
    const [navigation] = toolResults(prompts[1]);
    expect(navigation).toContain('in website/sidebars.js');
    expect(navigation).toContain('- group "Tutorial - Extras"');
    expect(navigation).toContain('  - tutorial-extras/translate-your-site.md');
    expect(toolResults(prompts[2])).toContain('Done: listed tutorial-extras/webhooks.md in sidebars.js.');
    const site = await openDocsSite(overlay, 'website');
    const entry = site.siteNavigation.entries.find((item) => item.file === 'tutorial-extras/webhooks.md');
    expect(entry?.groups).toEqual(['Tutorial - Extras']);
    expect((await overlay.changes()).map((change) => change.path).sort()).toEqual([
      'website/docs/tutorial-extras/webhooks.md',
      'website/sidebars.js',
    ]);
    expect(result.reply).toContain('Add a webhooks page');
  });

  it('moves and unlists MkDocs pages in mkdocs.yml, and writes nothing else of the config', async () => {
    const { overlay, policy } = await siteRun('mkdocs', '');
    const before = await overlay.read('mkdocs.yml');
    // The two navigation edits come in one step, which the SDK runs at once: each must see the other's.
    const { model, prompts } = scriptedModel([
      {
        calls: [
          ['move_file', { from: 'philosophy.md', to: 'about/philosophy.md' }],
          ['edit_navigation', { op: 'rename', page: 'philosophy.md', to: 'about/philosophy.md' }],
          ['edit_navigation', { op: 'remove', page: 'license.md' }],
          ['write_file', { path: '../mkdocs.yml', content: 'site_name: hijacked\n' }],
        ],
      },
      { text: 'Reorganise' },
    ]);
    await new LlmAgent({ model, name: 'openai:mock' }).run({
      jobId: 'job-1',
      instructions: ['Move philosophy under about/ and drop the licence page from the nav'],
      history: [],
      files: overlay,
      policy,
      signal: new AbortController().signal,
      logger: silentLogger,
    });
    const results = toolResults(prompts[1]);
    expect(results[1]).toBe('Done: renamed philosophy.md in mkdocs.yml.');
    expect(results[2]).toBe('Done: unlisted license.md in mkdocs.yml.');
    expect(results[3]).toMatch(/^Error: Refused "\.\.\/mkdocs\.yml"/);
    const after = await overlay.read('mkdocs.yml');
    expect(after).toContain('about/philosophy.md');
    expect(after).not.toContain('license.md');
    // Outside `nav:` the file is as it was.
    const outsideNav = (text: string) => text.replace(/^nav:\n(?:[ \t-].*\n)*/m, '');
    expect(outsideNav(after)).toBe(outsideNav(before));
  });
});
