import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelAnswerer } from '../src/assistant/answer/model.js';
import { startTestService, type TestService } from './helpers/service.js';

const V2 = '/discovery/v2/assistant/docs/message';
const V1 = '/discovery/v1/assistant/docs/message';
const ask = (text: string, extra: Record<string, unknown> = {}) => ({
  fp: 'anonymous',
  messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text }] }],
  ...extra,
});

/** The SSE chunks of a v2 response body. */
function chunks(body: string): any[] {
  return body
    .split('\n\n')
    .filter((event) => event.startsWith('data: ') && event !== 'data: [DONE]')
    .map((event) => JSON.parse(event.slice(6)));
}

describe('assistant endpoints', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ startWorker: false });
  });
  afterAll(() => t.cleanup());

  const post = (
    path: string,
    body: unknown,
    key: string | null = t.assistantKey,
    headers: Record<string, string> = {},
  ) =>
    t.service.app.request(path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('streams a v2 answer with the AI SDK headers: start, sources, text, finish with the threadId, [DONE]', async () => {
    const response = await post(V2, ask('How do I set an environment variable?'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const threadId = response.headers.get('x-thread-id');
    const body = await response.text();
    expect(body.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const parts = chunks(body);
    expect(parts[0]).toEqual({ type: 'start', messageId: expect.any(String), messageMetadata: { threadId } });
    expect(parts.filter((part) => part.type === 'source-url').length).toBeGreaterThan(0);
    const types = parts.map((part) => part.type);
    expect(types.indexOf('text-start')).toBeGreaterThan(types.lastIndexOf('source-url'));
    expect(types.filter((type) => type === 'text-delta').length).toBeGreaterThan(3);
    expect(parts.at(-1)).toEqual({ type: 'finish', messageMetadata: { threadId } });
    expect(JSON.stringify(parts)).not.toContain('finishReason');
  });

  it('says the docs do not cover a question they do not cover, without sources', async () => {
    const parts = chunks(await (await post(V2, ask('What is the capital of France?'))).text());
    const text = parts
      .filter((part) => part.type === 'text-delta')
      .map((part) => part.delta)
      .join('');
    expect(text).toMatch(/couldn't find an answer to that in the docs/);
    expect(parts.some((part) => part.type === 'source-url')).toBe(false);
  });

  it('uses currentPath and the filter in retrieval', async () => {
    const parts = chunks(
      await (
        await post(V2, ask('errors', { currentPath: '/api/introduction', retrievalPageSize: 2 }))
      ).text(),
    );
    expect(parts.find((part) => part.type === 'source-url').url).toMatch(/^\/api\//);
    const none = chunks(await (await post(V2, ask('custom domains', { filter: { language: 'fr' } }))).text());
    expect(none.some((part) => part.type === 'source-url')).toBe(false);
  });

  it.each([
    ['fp missing', { messages: ask('x').messages }, /fp is required/],
    ['messages missing', { fp: 'a' }, /messages is required/],
    ['messages empty', { fp: 'a', messages: [] }, /messages must not be empty/],
    [
      'last message not from the user',
      { fp: 'a', messages: [{ role: 'assistant', parts: [] }] },
      /must end with a user message/,
    ],
    [
      'retrievalPageSize too large',
      ask('x', { retrievalPageSize: 51 }),
      /retrievalPageSize must be at most 50/,
    ],
    [
      'retrievalPageSize not a number',
      ask('x', { retrievalPageSize: 'five' }),
      /retrievalPageSize must be a number/,
    ],
    [
      'currentPath too long',
      ask('x', { currentPath: `/${'a'.repeat(200)}` }),
      /currentPath must be at most 200/,
    ],
    [
      'a context item of an unknown type',
      ask('x', { context: [{ type: 'image', value: 'x' }] }),
      /context type must be code or textSelection/,
    ],
    [
      'a message in the version 1 shape',
      { fp: 'anonymous', messages: [{ role: 'user', content: 'How do I install it?' }] },
      /messages\.0\.parts: parts is required: version 2 messages carry their text as parts, e\.g\. \[\{"type":"text"/,
    ],
    [
      'filter groups not strings',
      ask('x', { filter: { groups: 'Guides' } }),
      /filter.groups must be an array/,
    ],
  ])('400 names the field when %s', async (_case, body, message) => {
    const response = await post(V2, body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: expect.stringMatching(message),
      code: 'invalid_request',
      retryable: false,
    });
  });

  it('400 when a v1 message has no content', async () => {
    const response = await post(V1, ask('x'));
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error).toMatch(
      /messages.0.content: version 1 messages need a content string/,
    );
  });

  it('401 without a key, 403 for an admin key or another domain, 404 for an unknown thread', async () => {
    expect((await post(V2, ask('x'), null)).status).toBe(401);
    const admin = await post(V2, ask('x'), t.adminKey);
    expect(admin.status).toBe(403);
    expect(((await admin.json()) as any).error).toMatch(/Admin keys cannot call the assistant/);
    const otherDomain = await post('/discovery/v2/assistant/other/message', ask('x'));
    expect(otherDomain.status).toBe(403);
    const thread = await post(V2, ask('x', { threadId: 'thread_doesnotexist' }));
    expect(thread.status).toBe(404);
    expect(await thread.json()).toEqual({
      error: 'Thread thread_doesnotexist not found',
      code: 'not_found',
      retryable: false,
    });
  });

  it('answers "What is Acme Cloud?" asked in a thread whose answer cited other pages', async () => {
    const first = await post(V2, ask('add a custom domain', { retrievalPageSize: 1 }));
    const threadId = first.headers.get('x-thread-id')!;
    expect(chunks(await first.text()).some((chunk) => chunk.type === 'source-url')).toBe(true);
    const second = await post(V2, ask('What is Acme Cloud?', { threadId, retrievalPageSize: 1 }));
    expect(second.status).toBe(200);
    const parts = chunks(await second.text());
    expect(parts.filter((chunk) => chunk.type === 'error')).toEqual([]);
    expect(parts.at(-1)).toEqual({ type: 'finish', messageMetadata: { threadId } });
  });

  it('a thread of another domain is not found', async () => {
    const response = await post(V2, ask('custom domains'));
    const threadId = response.headers.get('x-thread-id')!;
    await response.text();
    const otherKey = (
      await t.service.store.keys.create({ kind: 'assistant', projectId: 'other', domain: 'other' })
    ).key;
    const other = await post('/discovery/v2/assistant/other/message', ask('more', { threadId }), otherKey);
    expect(other.status).toBe(404);
  });

  it('answers CORS preflights and exposes the thread header; the agent endpoints do not', async () => {
    const preflight = await t.service.app.request(V2, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://docs.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    const response = await post(V2, ask('x'), t.assistantKey, { origin: 'https://docs.example.com' });
    expect(response.headers.get('access-control-expose-headers')).toContain('X-Thread-Id');
    await response.text();
    const agent = await t.service.app.request('/v2/agent/docs/jobs', {
      method: 'OPTIONS',
      headers: { origin: 'https://docs.example.com' },
    });
    expect(agent.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('assistant origins, limits and model answers', () => {
  it('charges no quota for a malformed request, and answers 503 when a project model has no provider key', async () => {
    const t = await startTestService({ startWorker: false });
    try {
      const send = (body: string) =>
        t.service.app.request(V2, {
          method: 'POST',
          headers: { authorization: `Bearer ${t.assistantKey}`, 'content-type': 'application/json' },
          body,
        });
      const first = await send(JSON.stringify(ask('custom domains')));
      const remaining = Number(first.headers.get('ratelimit-remaining'));
      await first.text();
      expect((await send('{bad')).status).toBe(400);
      const next = await send(JSON.stringify(ask('custom domains')));
      expect(Number(next.headers.get('ratelimit-remaining'))).toBe(remaining - 1);
      await next.text();

      await t.service.store.projects.create({
        id: 'claude',
        repository: t.repo,
        baseRef: 'main',
        domain: 'claude',
        model: 'anthropic:claude-x',
      });
      const key = (
        await t.service.store.keys.create({ kind: 'assistant', projectId: 'claude', domain: 'claude' })
      ).key;
      const unavailable = await t.service.app.request('/discovery/v2/assistant/claude/message', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(ask('custom domains')),
      });
      expect(unavailable.status).toBe(503);
      expect(((await unavailable.json()) as any).error).toMatch(/model is not configured on the server/);
    } finally {
      await t.cleanup();
    }
  });

  it('allows only the configured origins of a domain', async () => {
    const t = await startTestService({ startWorker: false });
    try {
      await t.service.store.projects.create({
        id: 'site',
        repository: t.repo,
        baseRef: 'main',
        domain: 'site',
        allowedOrigins: ['https://docs.site.dev'],
      });
      const preflight = (origin: string) =>
        t.service.app.request('/discovery/v2/assistant/site/message', {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST' },
        });
      expect((await preflight('https://docs.site.dev')).headers.get('access-control-allow-origin')).toBe(
        'https://docs.site.dev',
      );
      expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await t.cleanup();
    }
  });

  it('429 with Retry-After past the per-key limit', async () => {
    const t = await startTestService({
      startWorker: false,
      config: { assistantLimits: { keyPerMonth: 2, projectPerHour: 100, ipPerDay: 100 } },
    });
    try {
      const statuses = [];
      for (let index = 0; index < 3; index += 1) {
        const response = await t.service.app.request(V2, {
          method: 'POST',
          headers: { authorization: `Bearer ${t.assistantKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(ask('custom domains')),
        });
        statuses.push(response.status);
        if (response.status === 429) {
          expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
          expect(((await response.json()) as any).code).toBe('rate_limited');
        } else await response.text();
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await t.cleanup();
    }
  });

  it('streams a model answer through streamText, and a model failure becomes a generic error chunk', async () => {
    const prompts: unknown[] = [];
    const model = new MockLanguageModelV3({
      doStream: (options) => {
        prompts.push(options.prompt);
        return Promise.resolve({
          stream: simulateReadableStream({
            chunks: [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: 'Run `acme domains add` ' },
              { type: 'text-delta', id: 't', delta: 'with your domain [1].' },
              { type: 'text-end', id: 't' },
              {
                type: 'finish',
                finishReason: { unified: 'stop', raw: 'stop' },
                usage: { inputTokens: { total: 10 }, outputTokens: { total: 5 } },
              },
            ] as never,
          }),
        });
      },
    });
    const failing = new MockLanguageModelV3({
      doStream: () => Promise.reject(new Error('upstream 500 with secret sk-live-123')),
    });
    let answerer = new ModelAnswerer(model, 'openai:mock');
    const t = await startTestService({ startWorker: false, overrides: { answererFor: () => answerer } });
    try {
      const request = () =>
        t.service.app.request(V2, {
          method: 'POST',
          headers: { authorization: `Bearer ${t.assistantKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(ask('How do I add a custom domain?')),
        });
      const parts = chunks(await (await request()).text());
      expect(
        parts
          .filter((part) => part.type === 'text-delta')
          .map((part) => part.delta)
          .join(''),
      ).toBe('Run `acme domains add` with your domain [1].');
      expect(JSON.stringify(prompts[0])).toContain('[1] Custom domains');
      expect(parts.at(-1).type).toBe('finish');

      answerer = new ModelAnswerer(failing, 'openai:mock');
      const failed = await (await request()).text();
      expect(chunks(failed).find((part) => part.type === 'error')).toEqual({
        type: 'error',
        errorText: 'The assistant could not finish this answer. Please try again.',
      });
      expect(failed).not.toContain('sk-live-123');
      // The thread id of the failed answer still continues the conversation.
      const failedThread = chunks(failed)[0].messageMetadata.threadId;
      answerer = new ModelAnswerer(model, 'openai:mock');
      const again = await t.service.app.request(V2, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.assistantKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(ask('try again', { threadId: failedThread })),
      });
      expect(again.status).toBe(200);
      await again.text();
      // The empty turn the failure left is not sent to the model; the two questions are joined.
      const lastPrompt = JSON.stringify(prompts.at(-1));
      expect(lastPrompt).toContain('How do I add a custom domain?');
      expect(lastPrompt).toContain('try again');
      answerer = new ModelAnswerer(failing, 'openai:mock');

      const v1 = await t.service.app.request(V1, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.assistantKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ fp: 'x', messages: [{ role: 'user', content: 'custom domains', parts: [] }] }),
      });
      const lines = (await v1.text()).trim().split('\n');
      expect(lines[0]).toMatch(/^f:\{"messageId":"msg_/);
      expect(lines.at(-1)).toBe('3:"The assistant could not finish this answer. Please try again."');
    } finally {
      await t.cleanup();
    }
  });
});
