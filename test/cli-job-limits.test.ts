import { describe, expect, it } from 'vitest';
import { jobCreate, remote } from '../src/cli/job-commands.js';

/** `docwright job create --max-turns/--max-tokens/--max-cost`: the limits go with the new job. */
describe('docwright job create with limits', () => {
  const job = {
    id: 'k3n5p7q9r2s4t6u8v2wx',
    status: 'active',
    source: { repository: 'file:///srv/docs', ref: 'docwright/job-k3n5p7q9r2s4t6u8v2wx' },
    model: 'openai:gpt-5-mini',
    prLink: null,
    createdAt: '2026-11-28T10:00:00.000Z',
    archivedAt: null,
  };
  const reporter = { note: () => {}, command: 'docwright' };

  it('sends the limits as the API takes them, and nothing when none is given', async () => {
    const bodies: unknown[] = [];
    const fetchStub = (_url: string | URL | Request, init?: RequestInit) => {
      bodies.push(JSON.parse(init?.body as string));
      return Promise.resolve(Response.json(job, { status: 201 }));
    };
    const target = remote({ url: 'http://127.0.0.1:1', key: 'svc_x', project: 'docs' }, {}, fetchStub);
    await jobCreate(
      target,
      'document the rate limits',
      { maxTurns: '30', maxTokens: '200000', maxCost: '2.5' },
      reporter,
    );
    await jobCreate(target, 'document the rate limits', {}, reporter);
    expect(bodies).toEqual([
      { prompt: 'document the rate limits', budget: { max_turns: 30, max_tokens: 200_000, max_cost: 2.5 } },
      { prompt: 'document the rate limits' },
    ]);
  });

  it('refuses a limit that is not a positive number before asking the server', async () => {
    let asked = false;
    const fetchStub = () => {
      asked = true;
      return Promise.resolve(Response.json(job, { status: 201 }));
    };
    const target = remote({ url: 'http://127.0.0.1:1', key: 'svc_x', project: 'docs' }, {}, fetchStub);
    await expect(jobCreate(target, 'x', { maxTurns: '2.5' }, reporter)).rejects.toThrow(
      '--max-turns must be a whole number greater than 0, not "2.5"',
    );
    await expect(jobCreate(target, 'x', { maxCost: 'free' }, reporter)).rejects.toThrow(
      '--max-cost must be a number greater than 0, not "free"',
    );
    expect(asked).toBe(false);
  });
});
