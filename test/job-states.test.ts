import { describe, expect, it } from 'vitest';
import { JOB_STATUSES } from '../src/protocol/agent-job.js';
import { nextStatus, runEnd, statusAfter, statusesAllowing } from '../src/store/job-states.js';
import { openStore } from '../src/store/index.js';

describe("the job's state machine", () => {
  it('reopens a finished or failed job with a message, never an archived one', () => {
    expect(statusesAllowing('message').sort()).toEqual(['active', 'completed', 'failed']);
    expect(statusAfter('message')).toBe('active');
    expect(nextStatus('archived', 'message')).toBeUndefined();
  });

  it('archives any job not archived yet, once', () => {
    expect(statusesAllowing('archive').sort()).toEqual(['active', 'completed', 'failed']);
    expect(statusAfter('archive')).toBe('archived');
  });

  it('ends a run completed or failed, active again when follow-ups wait, and archived stays archived', () => {
    expect(nextStatus('active', runEnd({ failed: false, messagesWaiting: false }))).toBe('completed');
    expect(nextStatus('active', runEnd({ failed: true, messagesWaiting: false }))).toBe('failed');
    expect(nextStatus('active', runEnd({ failed: true, messagesWaiting: true }))).toBe('active');
    for (const failed of [false, true])
      for (const messagesWaiting of [false, true])
        expect(nextStatus('archived', runEnd({ failed, messagesWaiting }))).toBe('archived');
  });

  it('names only statuses the wire format knows', () => {
    for (const event of ['message', 'archive', 'run-succeeded', 'run-failed', 'run-left-messages'] as const)
      for (const status of statusesAllowing(event)) expect(JOB_STATUSES).toContain(status);
  });

  it('is what the store writes: a message to an archived job is refused, and the job stays archived', async () => {
    const store = await openStore({ memory: true });
    try {
      await store.projects.create({ id: 'p', repository: '/r', baseRef: 'main' });
      await store.jobs.create({
        id: 'j',
        projectId: 'p',
        prompt: 'x',
        model: 'builtin',
        repositoryUrl: 'file:///r',
        branch: 'b',
      });
      const claimed = await store.jobs.claim('w', 60_000);
      await store.jobs.archive('p', 'j');
      expect(
        await store.jobs.finishRun('j', 'w', { handledMessageIds: [claimed!.pending[0]!.id], reply: 'done' }),
      ).toBe(true);
      expect((await store.jobs.get('p', 'j'))?.status).toBe('archived');
      await expect(store.jobs.addMessage('p', 'j', 'again')).rejects.toMatchObject({
        code: 'conflict',
        retryable: false,
      });
    } finally {
      await store.close();
    }
  });
});
