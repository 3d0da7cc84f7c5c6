import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, rate, type Asked } from './helpers/reader-feedback.js';
import { startTestService, type TestService } from './helpers/service.js';

describe('POST /discovery/v2/assistant/<domain>/feedback', () => {
  let t: TestService;
  let answer: Asked;
  beforeAll(async () => {
    t = await startTestService({ startWorker: false });
    answer = await ask(t, 'docs', t.assistantKey, 'How do I set an environment variable?', 'reader-1');
    expect(answer.status).toBe(200);
    expect(answer.messageId).toMatch(/^msg_/);
  });
  afterAll(() => t.cleanup());

  const stored = () =>
    t.service.store.database.db
      .selectFrom('feedback')
      .selectAll()
      .where('thread_id', '=', answer.threadId)
      .execute();

  it('records a rating of an answer, and a second rating replaces the first', async () => {
    const first = await rate(t, 'docs', t.assistantKey, {
      threadId: answer.threadId,
      messageId: answer.messageId,
      rating: 'down',
      comment: '  It does not say where the file goes.  ',
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      threadId: answer.threadId,
      messageId: answer.messageId,
      rating: 'down',
      comment: 'It does not say where the file goes.',
    });
    expect(first.headers.get('ratelimit-limit')).toBeTruthy();
    const second = await rate(t, 'docs', t.assistantKey, {
      threadId: answer.threadId,
      messageId: answer.messageId,
      rating: 'up',
    });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ rating: 'up', comment: null, createdAt: first.body.createdAt });
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ rating: 'up', comment: null, fp: 'reader-1', project_id: 'docs' });
  });

  it('keeps no key a reader pastes into a comment', async () => {
    const response = await rate(t, 'docs', t.assistantKey, {
      threadId: answer.threadId,
      messageId: answer.messageId,
      rating: 'down',
      comment: `my key ${t.adminKey} did not work`,
    });
    expect(response.status).toBe(200);
    expect(JSON.stringify(await stored())).not.toContain(t.adminKey);
  });

  it('names what is wrong with a bad body', async () => {
    const cases: [unknown, RegExp][] = [
      [{ messageId: answer.messageId, rating: 'up' }, /threadId is required/],
      [{ threadId: answer.threadId, rating: 'up' }, /messageId is required/],
      [
        { threadId: answer.threadId, messageId: answer.messageId, rating: 'meh' },
        /rating must be "up" or "down"/,
      ],
      [
        { threadId: answer.threadId, messageId: answer.messageId, rating: 'up', comment: 5 },
        /comment must be a string/,
      ],
      [
        { threadId: answer.threadId, messageId: answer.messageId, rating: 'up', comment: 'x'.repeat(2001) },
        /comment must be at most 2000 characters/,
      ],
      ['[1, 2]', /the body must be a JSON object/],
      ['{"threadId":', /not valid JSON/],
    ];
    for (const [body, message] of cases) {
      const response = await rate(t, 'docs', t.assistantKey, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.error).toMatch(message);
    }
  });

  it('413 for a body far larger than a rating', async () => {
    const response = await rate(t, 'docs', t.assistantKey, {
      threadId: answer.threadId,
      messageId: answer.messageId,
      rating: 'up',
      comment: 'x'.repeat(40_000),
    });
    expect(response.status).toBe(413);
    expect(response.body.error).toMatch(/Feedback body is larger than/);
  });

  it('404 for an unknown thread, a thread of another domain, an unknown message; 400 for a question', async () => {
    const unknownThread = await rate(t, 'docs', t.assistantKey, {
      threadId: 'thr_nope',
      messageId: answer.messageId,
      rating: 'up',
    });
    expect(unknownThread.status).toBe(404);
    expect(unknownThread.body.error).toBe('Thread thr_nope not found');

    const otherKey = (
      await t.service.store.keys.create({ kind: 'assistant', projectId: 'other', domain: 'other' })
    ).key;
    const elsewhere = await rate(t, 'other', otherKey, {
      threadId: answer.threadId,
      messageId: answer.messageId,
      rating: 'up',
    });
    expect(elsewhere.status).toBe(404);

    const unknownMessage = await rate(t, 'docs', t.assistantKey, {
      threadId: answer.threadId,
      messageId: 'msg_nope',
      rating: 'up',
    });
    expect(unknownMessage.status).toBe(404);
    expect(unknownMessage.body.error).toMatch(/Message msg_nope not found in thread/);

    // The question's id is the client's own (`q1` in the helper): it names a message, not an answer.
    const question = await rate(t, 'docs', t.assistantKey, {
      threadId: answer.threadId,
      messageId: 'q1',
      rating: 'up',
    });
    expect(question.status).toBe(400);
    expect(question.body.error).toMatch(/is the reader's question, not an answer/);
  });

  it('takes only an assistant key of the domain', async () => {
    const body = { threadId: answer.threadId, messageId: answer.messageId, rating: 'up' };
    expect((await rate(t, 'docs', null, body)).status).toBe(401);
    expect((await rate(t, 'docs', 'svc_dsc_unknown', body)).status).toBe(401);
    const admin = await rate(t, 'docs', t.adminKey, body);
    expect(admin.status).toBe(403);
    expect(admin.body.error).toMatch(/use an assistant key/);
    const otherKey = (
      await t.service.store.keys.create({ kind: 'assistant', projectId: 'other', domain: 'other' })
    ).key;
    const wrongDomain = await rate(t, 'docs', otherKey, body);
    expect(wrongDomain.status).toBe(403);
    expect(wrongDomain.body.error).toMatch(/does not belong to the domain docs/);
  });

  it('answers CORS preflights as the message route does', async () => {
    const response = await t.service.app.request('/discovery/v2/assistant/docs/feedback', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://docs.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('feedback and the assistant limits', () => {
  it('429 with Retry-After once the key has spent its uses on questions and ratings', async () => {
    const t = await startTestService({
      startWorker: false,
      config: { assistantLimits: { keyPerMonth: 2, projectPerHour: 100, ipPerDay: 100 } },
    });
    try {
      const answer = await ask(t, 'docs', t.assistantKey, 'custom domains');
      const body = { threadId: answer.threadId, messageId: answer.messageId, rating: 'up' };
      expect((await rate(t, 'docs', t.assistantKey, body)).status).toBe(200);
      const refused = await rate(t, 'docs', t.assistantKey, body);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // A malformed rating costs nothing and says what is wrong, even past the limit.
      expect((await rate(t, 'docs', t.assistantKey, { rating: 'up' })).status).toBe(400);
    } finally {
      await t.cleanup();
    }
  });
});
