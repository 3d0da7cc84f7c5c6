import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { LlmAgent } from '../src/agent/llm/index.js';
import { findJobMarker } from '../src/github/index.js';
import { issueComment, startBotHarness, type BotHarness } from './fixtures/bot/harness.js';
import { scriptedModel, type Step } from './helpers/scripted-model.js';

/**
 * The App with a model: the repository's settings name the model and its limits; the status
 * comment says what the run spent, and a run stopped at a limit says which and commits nothing.
 */

const MODEL = 'openai:gpt-4o-mini';
const edit: Step = {
  calls: [['edit_file', { path: 'quickstart.mdx', oldText: 'an empty account', newText: 'a new account' }]],
};
const neverStops: Step[] = Array.from({ length: 20 }, () => ({ calls: [['list_files', {}]] }));

let t: BotHarness | undefined;

afterEach(async () => {
  await t?.close();
  t = undefined;
  nock.cleanAll();
});

async function start(steps: Step[], settings: string) {
  const scripted = scriptedModel(steps);
  t = await startBotHarness({
    agentFor: (name) => new LlmAgent({ model: scripted.model, name }),
    config: {
      providers: { openai: { apiKey: 'test' }, anthropic: {} },
      prices: { [MODEL]: { input: 1000, output: 5000 } },
    },
  });
  t.github.permissions.set('maintainer', 'write');
  t.github.settingsFiles.set('.github/docwright.yml', settings);
  return { t, prompts: scripted.prompts };
}

async function command(harness: BotHarness) {
  await harness.receive('issue_comment', issueComment('/docs say "a new account" in the quickstart'));
  const status = () => harness.github.comments.find((comment) => findJobMarker(comment.body));
  const job = await harness.settle(findJobMarker(status()!.body)!);
  return { job, body: status()!.body };
}

describe('the App with a model', () => {
  it('shows what the run spent in the status comment', async () => {
    const { t } = await start(
      [edit, { text: 'The quickstart starts from a new account.' }],
      `model: ${MODEL}\n`,
    );
    const { job, body } = await command(t);
    expect(job.status).toBe('completed');
    expect(body).toContain('Pull request ready:**');
    // Two calls of 100 input and 20 output tokens, at $1,000 and $5,000 a million.
    expect(body).toContain('240 tokens in 2 model calls, about $0.40');
  });

  it('stops at the turn limit of the settings, commits nothing, and says so in the thread', async () => {
    const { t, prompts } = await start([edit, ...neverStops], `model: ${MODEL}\nbudget:\n  max_turns: 3\n`);
    const { job, body } = await command(t);
    expect(job.status).toBe('failed');
    expect(prompts).toHaveLength(3);
    expect(body).toContain(
      '❌ **The job failed.** The run stopped at its turn limit (max_turns: 3 model calls)',
    );
    expect(body).toContain('so nothing was committed');
    expect(body).toContain('360 tokens in 3 model calls, about $0.60');
    expect(t.github.git.resolve(job.branch)).toBeUndefined();
    expect(t.github.pulls).toHaveLength(0);
  });
});
