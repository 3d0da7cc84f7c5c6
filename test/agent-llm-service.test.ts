import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LlmAgent } from '../src/agent/llm/index.js';
import { scriptedModel, type Step } from './helpers/scripted-model.js';
import { startTestService, type TestService } from './helpers/service.js';

const MODEL = 'openai:gpt-4o-mini';
const NEW_PAGE =
  '---\ntitle: Webhooks\ndescription: Get events.\n---\n\nSet up first: [Setup](/guides/setp).\n';

describe('the model-driven agent in the service', () => {
  let t: TestService | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  async function start(steps: Step[]) {
    const scripted = scriptedModel(steps);
    t = await startTestService({
      config: { model: MODEL, providers: { openai: { apiKey: 'test' }, anthropic: {} } },
      overrides: { agentFor: (model) => new LlmAgent({ model: scripted.model, name: model }) },
    });
    return { t, prompts: scripted.prompts };
  }

  const addPage: Step = {
    calls: [
      ['write_file', { path: 'guides/webhooks.mdx', content: NEW_PAGE }],
      [
        'edit_file',
        {
          path: 'docs.json',
          oldText: '"guides/deploy-an-app",',
          newText: '"guides/deploy-an-app",\n          "guides/webhooks",',
        },
      ],
    ],
  };

  it('creates a job over HTTP, repairs what the docs checks found, and commits to the job branch', async () => {
    const { t, prompts } = await start([
      addPage,
      { text: 'Add a webhooks guide' },
      {
        calls: [
          ['edit_file', { path: 'guides/webhooks.mdx', oldText: '/guides/setp', newText: '/guides/setup' }],
        ],
      },
      { text: 'Add a webhooks guide\n\nCreated `guides/webhooks.mdx` and listed it under Guides.' },
    ]);
    const created = await t.request('POST', '/v2/agent/docs/job', {
      body: { prompt: 'Add a page about webhooks' },
    });
    expect(created.status).toBe(201);
    const done = await t.waitForJob(created.body.id);

    expect(done).toMatchObject({ status: 'completed', model: MODEL });
    expect(done.messages?.at(-1)?.content).toBe(
      'Add a webhooks guide\n\nCreated `guides/webhooks.mdx` and listed it under Guides.\n\n**Files changed (2):** `docs.json`, `guides/webhooks.mdx`',
    );
    const branch = `docwright/job-${created.body.id}`;
    expect(t.git('rev-list', '--count', `main..${branch}`)).toBe('1');
    expect(t.git('log', '-1', '--format=%s', branch)).toBe('Add a webhooks guide');
    expect(t.git('show', `${branch}:guides/webhooks.mdx`)).toContain('[Setup](/guides/setup)');
    expect(t.git('show', `${branch}:docs.json`)).toContain('"guides/webhooks"');
    // The repair round told the model what was wrong, where.
    const repairPrompt = JSON.stringify(prompts[2]);
    expect(repairPrompt).toContain('guides/webhooks.mdx:6');
    expect(repairPrompt).toContain('the link /guides/setp points to /guides/setp, which is not a page');
  });

  it('lists what is still wrong after the repair rounds in the reply and the commit', async () => {
    const { t, prompts } = await start([
      addPage,
      { text: 'Add a webhooks guide' },
      { text: 'Add a webhooks guide (the link is intended)' },
      { text: 'Add a webhooks guide (still intended)' },
    ]);
    const created = await t.request('POST', '/v2/agent/docs/job', {
      body: { prompt: 'Add a page about webhooks' },
    });
    const done = await t.waitForJob(created.body.id);
    expect(prompts).toHaveLength(4); // the first turn and two repair rounds
    const reply = done.messages?.at(-1)?.content ?? '';
    expect(reply).toBe(
      'Add a webhooks guide (still intended)\n\n**Files changed (2):** `docs.json`, `guides/webhooks.mdx`\n\n**Docs checks:** 1 finding in 1 file to look at (they do not stop the change):\n\n- `guides/webhooks.mdx:6`: the link /guides/setp points to /guides/setp, which is not a page',
    );
    expect(t.git('log', '-1', '--format=%B', `docwright/job-${created.body.id}`)).toContain(
      '**Docs checks:**',
    );
  });

  it('checks the built-in agent too: a broken link it writes is listed in the reply', async () => {
    t = await startTestService();
    const created = await t.request('POST', '/v2/agent/docs/job', {
      body: { prompt: 'replace "(/installation)" with "(/instalation)"' },
    });
    const done = await t.waitForJob(created.body.id);
    expect(done.status).toBe('completed');
    expect(done.messages?.at(-1)?.content).toContain(
      [
        '**Docs checks:** 2 findings in 2 files to look at (they do not stop the change):',
        '',
        '- `changelog.mdx:18`: the link /instalation points to /instalation, which is not a page',
        '- `quickstart.mdx:11`: the link /instalation points to /instalation, which is not a page',
      ].join('\n'),
    );
  });

  it('refuses a path through a symlink of the repository', async () => {
    const { t, prompts } = await start([
      {
        calls: [
          ['write_file', { path: 'escape/owned.md', content: 'x' }],
          ['read_file', { path: 'escape' }],
        ],
      },
      { text: 'Could not write there' },
    ]);
    await fs.symlink('..', path.join(t.repo, 'escape'));
    execFileSync('git', ['-C', t.repo, 'add', 'escape']);
    execFileSync('git', [
      '-C',
      t.repo,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@example.com',
      'commit',
      '-qm',
      'link',
    ]);
    const created = await t.request('POST', '/v2/agent/docs/job', { body: { prompt: 'Write outside' } });
    const done = await t.waitForJob(created.body.id);
    expect(done).toMatchObject({ status: 'completed', prLink: null });
    const results = JSON.stringify(prompts[1]);
    expect(results).toContain('Refused \\"escape/owned.md\\": escape is a symbolic link');
    expect(results).toContain('Refused \\"escape\\": escape is a symbolic link');
  });
});
