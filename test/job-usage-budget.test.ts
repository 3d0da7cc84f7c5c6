import { execFileSync } from 'node:child_process';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { APICallError } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { LlmAgent } from '../src/agent/llm/index.js';
import type { Config } from '../src/config/config.js';
import type { Job } from '../src/protocol/agent-job.js';
import { scriptedModel, type Step } from './helpers/scripted-model.js';
import { startTestService, type TestService } from './helpers/service.js';

/**
 * What a job spent and what it may spend, through the HTTP API of a running service: usage on the
 * job, its replies, the list and /metrics; limits from the request, the project's settings and the
 * server, each stopping the run at once with nothing committed and the usage so far.
 */

const MODEL = 'openai:gpt-4o-mini';
// The scripted model answers each call with 100 input and 20 output tokens.
const PRICES = { [MODEL]: { input: 1000, output: 5000 } }; // $0.10 + $0.10 = $0.20 a call

const editQuickstart: Step = {
  calls: [['edit_file', { path: 'quickstart.mdx', oldText: 'an empty account', newText: 'a new account' }]],
};
const neverStops: Step[] = Array.from({ length: 30 }, () => ({ calls: [['list_files', {}]] }));

describe('usage and limits of jobs', () => {
  let t: TestService | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  async function start(steps: Step[], config: Partial<Config> = {}, model = scriptedModel(steps).model) {
    const scripted = { model, calls: 0 };
    t = await startTestService({
      config: {
        model: MODEL,
        providers: { openai: { apiKey: 'test' }, anthropic: {} },
        metrics: { token: null },
        ...config,
      },
      overrides: { agentFor: (name) => new LlmAgent({ model: scripted.model, name }) },
    });
    return t;
  }

  async function createJob(service: TestService, body: Record<string, unknown>): Promise<Job> {
    const created = await service.request('POST', '/v2/agent/docs/job', { body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return service.waitForJob(created.body.id as string);
  }

  function branchExists(service: TestService, jobId: string): boolean {
    try {
      execFileSync('git', ['-C', service.repo, 'rev-parse', '--verify', '--quiet', `docwright/job-${jobId}`]);
      return true;
    } catch {
      return false;
    }
  }

  it('shows what a job spent on the job, its reply, the list and /metrics, with the cost from the price', async () => {
    const service = await start([editQuickstart, { text: 'The quickstart starts from a new account.' }], {
      prices: PRICES,
    });
    const done = await createJob(service, { prompt: 'say "a new account" in the quickstart' });
    expect(done).toMatchObject({ status: 'completed', changed: true });
    const expected = { inputTokens: 200, outputTokens: 40, modelCalls: 2, toolCalls: 1, costUsd: 0.4 };
    expect(done.usage).toMatchObject(expected);
    expect(done.usage!.wallMs).toBeGreaterThanOrEqual(0);
    expect(done.messages!.at(-1)!.usage).toMatchObject(expected);
    expect(done.messages![0]!.usage).toBeUndefined();

    const list = await service.request('GET', '/v2/agent/docs/jobs');
    expect(list.status).toBe(200);
    expect((list.body.jobs as Job[])[0]!.usage).toMatchObject(expected);

    const metrics = await (await service.service.app.request('/metrics')).text();
    expect(metrics).toContain('docwright_model_tokens_total{direction="input"} 200');
    expect(metrics).toContain('docwright_model_tokens_total{direction="output"} 40');
    expect(metrics).toContain('docwright_model_calls_total 2');
    expect(metrics).toContain('docwright_tool_calls_total 1');
    expect(metrics).toContain('docwright_model_cost_usd_total 0.4');
  });

  it('stops a job capped at 3 turns at 3, commits nothing, says so, and does not retry it', async () => {
    const scripted = scriptedModel([editQuickstart, ...neverStops]);
    const service = await start([], {}, scripted.model);
    const done = await createJob(service, {
      prompt: 'say "a new account" in the quickstart',
      budget: { max_turns: 3 },
    });
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(
      /^The run stopped at its turn limit \(max_turns: 3 model calls\) before the model finished, so nothing was committed\. It used 360 tokens \(300 in, 60 out\) in 3 model calls and 3 tool calls, /,
    );
    expect(scripted.prompts).toHaveLength(3);
    // The first call edited the quickstart in the run's overlay; none of it reached the repository.
    expect(branchExists(service, done.id)).toBe(false);
    expect(done.usage).toMatchObject({ modelCalls: 3, inputTokens: 300, outputTokens: 60, costUsd: null });
    expect(done.messages!.at(-1)).toMatchObject({
      role: 'agent',
      content: `The job failed: ${done.error}`,
      usage: { modelCalls: 3 },
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(scripted.prompts).toHaveLength(3);
  });

  it("holds the project's cost limit from its settings, and refuses a cost limit with no price before any call", async () => {
    const scripted = scriptedModel(neverStops);
    const service = await start([], { prices: PRICES }, scripted.model);
    await service.service.store.projects.applySettings('docs', {
      baseRef: 'main',
      docsRoot: '' as never,
      model: null,
      writable: [],
      budget: { maxCostUsd: 0.5 },
    });
    const capped = await createJob(service, { prompt: 'list the files' });
    expect(capped.status).toBe('failed');
    expect(capped.error).toMatch(
      /^The run stopped at its cost limit \(max_cost: \$0\.50\) before the model finished, so nothing was committed\. It used 360 tokens .* about \$0\.60\. Raise `max_cost`/,
    );
    expect(scripted.prompts).toHaveLength(3);
    expect(capped.usage?.costUsd).toBeCloseTo(0.6);

    await t!.cleanup();
    const unpriced = scriptedModel(neverStops);
    const second = await start([], {}, unpriced.model);
    const refused = await createJob(second, { prompt: 'list the files', budget: { max_cost: 2 } });
    expect(refused.status).toBe('failed');
    expect(refused.error).toBe(
      `The job has a cost limit (max_cost: $2.00) but no price is known for ${MODEL}, so nothing was started. Set its price in DOCWRIGHT_MODEL_PRICES, or remove max_cost.`,
    );
    expect(unpriced.prompts).toHaveLength(0);
  });

  it("takes the server's limits for jobs that set none, the job's own over them", async () => {
    const scripted = scriptedModel([...neverStops, ...neverStops]);
    const service = await start([], { jobBudget: { maxTurns: 2 } }, scripted.model);
    const byServer = await createJob(service, { prompt: 'list the files' });
    expect(byServer.error).toMatch(/max_turns: 2 model calls/);
    const byJob = await createJob(service, { prompt: 'list the files', budget: { max_turns: 4 } });
    expect(byJob.error).toMatch(/max_turns: 4 model calls/);
    expect(scripted.prompts).toHaveLength(6);
  });

  it('does not spend the budget again when a transient error retries the run', async () => {
    let calls = 0;
    const scripted = scriptedModel(neverStops);
    const flaky = Object.assign(
      Object.create(Object.getPrototypeOf(scripted.model) as object),
      scripted.model,
      {
        doGenerate: (options: LanguageModelV3CallOptions) => {
          calls += 1;
          // The third call meets an outage the provider says may pass.
          if (calls === 3)
            return Promise.reject(
              new APICallError({
                message: 'The server is overloaded',
                url: 'https://api.example.com/v1/chat/completions',
                requestBodyValues: {},
                statusCode: 503,
                isRetryable: true,
              }),
            );
          return scripted.model.doGenerate(options);
        },
      },
    ) as typeof scripted.model;
    const service = await start([], {}, flaky);
    const done = await createJob(service, { prompt: 'list the files', budget: { max_turns: 3 } });
    expect(done.status).toBe('failed');
    // Two calls before the outage, then one after it: three in all, as the limit says.
    expect(done.error).toMatch(/max_turns: 3 model calls.* in 3 model calls/);
    expect(done.usage).toMatchObject({ modelCalls: 3 });
  });

  it('refuses a budget that is not one, naming the field', async () => {
    const service = await start([]);
    for (const [budget, message] of [
      [{ max_turns: 0 }, 'budget.max_turns must be at least 1'],
      [{ max_cost: -1 }, 'budget.max_cost must be more than 0'],
      [{ max_steps: 3 }, 'max_steps'],
      ['lots', 'budget must be an object'],
    ] as const) {
      const refused = await service.request('POST', '/v2/agent/docs/job', {
        body: { prompt: 'list the files', budget },
      });
      expect(refused.status).toBe(400);
      expect(String(refused.body.error)).toContain(message);
    }
  });

  describe('model errors that say what to do', () => {
    function failingFirst(error: APICallError, steps: Step[]) {
      const scripted = scriptedModel(steps);
      const calls: number[] = [];
      const model = Object.assign(
        Object.create(Object.getPrototypeOf(scripted.model) as object),
        scripted.model,
        {
          doGenerate: (options: LanguageModelV3CallOptions) => {
            calls.push(Date.now());
            return calls.length === 1 ? Promise.reject(error) : scripted.model.doGenerate(options);
          },
        },
      ) as typeof scripted.model;
      return { model, calls };
    }
    const apiError = (statusCode: number, message: string, headers: Record<string, string> = {}) =>
      new APICallError({
        message,
        url: 'https://api.example.com/v1/chat/completions',
        requestBodyValues: {},
        statusCode,
        responseHeaders: headers,
        responseBody: JSON.stringify({ error: { message } }),
        isRetryable: statusCode === 429 || statusCode >= 500,
      });

    it('waits out a rate limit for as long as Retry-After says, then finishes', async () => {
      const { model, calls } = failingFirst(apiError(429, 'Rate limit reached', { 'retry-after': '0.4' }), [
        editQuickstart,
        { text: 'Done.' },
      ]);
      const service = await start([], {}, model);
      const done = await createJob(service, { prompt: 'say "a new account" in the quickstart' });
      expect(done.status).toBe('completed');
      expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(390);
    });

    it.each([
      [
        401,
        'Incorrect API key provided: sk-proj-****',
        /^The model provider refused the credentials \(HTTP 401\): Incorrect API key provided.*Check the key/,
      ],
      [
        404,
        'The model `gpt-9` does not exist or you do not have access to it.',
        /^The model provider does not know the model or its endpoint \(HTTP 404\): The model `gpt-9` does not exist/,
      ],
      [
        400,
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 190000 tokens.",
        /^The request and the files the model read grew past its context window, so nothing was committed .*Ask for a smaller change/,
      ],
    ])('fails at once, in words, on HTTP %i', async (status, message, sentence) => {
      const { model, calls } = failingFirst(apiError(status, message), [{ text: 'never reached' }]);
      const service = await start([], {}, model);
      const done = await createJob(service, { prompt: 'list the files' });
      expect(done.status).toBe('failed');
      expect(done.error).toMatch(sentence);
      expect(calls).toHaveLength(1);
    });
  });
});
