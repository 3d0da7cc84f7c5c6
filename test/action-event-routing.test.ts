import { describe, expect, it } from 'vitest';
import { ActionError } from '../src/action/action-error.js';
import { parseEvent } from '../src/action/event.js';
import { parseInputs } from '../src/action/inputs.js';
import { routeEvent } from '../src/action/route.js';
import { jobMarker } from '../src/github/index.js';
import { examplePayload } from './helpers/github-recorder.js';

const inputs = (values: Record<string, string> = {}) =>
  parseInputs(
    (name) =>
      ({ 'api-key': 'svc_x', 'project-id': 'docs', 'base-url': 'https://api.test', ...values })[name] ?? '',
  );

const issueComment = (body: string, patch: (payload: any) => void = () => {}) =>
  parseEvent(
    'issue_comment',
    examplePayload('issue_comment', 'created', (payload) => {
      payload.comment.body = body;
      patch(payload);
    }),
  );

describe('parseEvent', () => {
  it('reads an issue comment: the comment, its author and the issue thread', () => {
    expect(issueComment('/docs fix it')).toEqual({
      kind: 'comment',
      eventName: 'issue_comment',
      action: 'created',
      comment: {
        id: 492700400,
        kind: 'issue',
        body: '/docs fix it',
        author: { login: 'Codertocat', type: 'User' },
        association: 'OWNER',
      },
      thread: { owner: 'Codertocat', repo: 'Hello-World', number: 1, isPullRequest: false },
      pullRequest: null,
    });
  });

  it('reads a comment on a pull request conversation with the pull request body', () => {
    const event = issueComment('/docs fix it', (payload) => {
      payload.issue.pull_request = { url: 'https://api.github.com/repos/Codertocat/Hello-World/pulls/1' };
      payload.issue.body = `Done.\n${jobMarker('job23')}`;
    });
    expect(event).toMatchObject({
      thread: { number: 1, isPullRequest: true },
      pullRequest: { body: `Done.\n${jobMarker('job23')}`, author: { login: 'Codertocat', type: 'User' } },
    });
  });

  it('reads a review comment into the pull request conversation', () => {
    const payload = examplePayload('pull_request_review_comment', 'created', (event) => {
      event.comment.body = '/docs reword this';
    });
    expect(parseEvent('pull_request_review_comment', payload)).toMatchObject({
      comment: { id: 284312630, kind: 'review', body: '/docs reword this' },
      thread: { owner: 'Codertocat', repo: 'Hello-World', number: 2, isPullRequest: true },
      pullRequest: { body: payload.pull_request.body },
    });
  });

  it('treats every other event as a prompt event', () => {
    expect(parseEvent('workflow_dispatch', examplePayload('workflow_dispatch', undefined))).toEqual({
      kind: 'prompt',
      eventName: 'workflow_dispatch',
    });
    expect(parseEvent('schedule', { schedule: '0 6 * * 1' })).toMatchObject({ kind: 'prompt' });
  });

  it('names the field of a payload that is not what GitHub sends', () => {
    const payload = examplePayload('issue_comment', 'created', (event) => {
      delete event.issue.number;
    });
    expect(() => parseEvent('issue_comment', payload)).toThrow(/issue\.number is missing or wrong/);
  });
});

describe('routeEvent', () => {
  it('turns a new /docs comment into its instruction', () => {
    expect(routeEvent(issueComment('/docs fix the link\nin the quickstart'), inputs())).toMatchObject({
      kind: 'comment',
      instruction: 'fix the link\nin the quickstart',
    });
  });

  it('ignores comments without the command, edited and deleted comments', () => {
    expect(routeEvent(issueComment('Thanks!'), inputs())).toMatchObject({ kind: 'ignore' });
    for (const action of ['edited', 'deleted']) {
      const event = parseEvent(
        'issue_comment',
        examplePayload('issue_comment', action, (payload) => {
          payload.comment.body = '/docs fix it';
        }),
      );
      expect(routeEvent(event, inputs())).toEqual({
        kind: 'ignore',
        reason: `The comment was ${action}; only new comments are commands.`,
      });
    }
  });

  it('ignores bots unless allowed', () => {
    const byBot = issueComment('/docs bump', (payload) => {
      payload.comment.user.login = 'renovate[bot]';
      payload.comment.user.type = 'Bot';
    });
    expect(routeEvent(byBot, inputs())).toMatchObject({
      kind: 'ignore',
      reason: expect.stringContaining('allowed-bots'),
    });
    expect(routeEvent(byBot, inputs({ 'allowed-bots': 'renovate' }))).toMatchObject({ kind: 'comment' });
  });

  it('answers to the configured command only', () => {
    expect(routeEvent(issueComment('/write add a FAQ'), inputs({ command: '/write' }))).toMatchObject({
      kind: 'comment',
      instruction: 'add a FAQ',
    });
    expect(routeEvent(issueComment('/docs add a FAQ'), inputs({ command: '/write' }))).toMatchObject({
      kind: 'ignore',
    });
  });

  it('refuses a bare command with a sentence that shows how to use it', () => {
    expect(() => routeEvent(issueComment('/docs'), inputs())).toThrow(ActionError);
    expect(() => routeEvent(issueComment('/docs'), inputs())).toThrow(
      /no instruction.*\/docs fix the quickstart link/,
    );
  });

  it('takes the prompt input, with job-id for a follow-up, on other events', () => {
    const dispatch = parseEvent('workflow_dispatch', examplePayload('workflow_dispatch', undefined));
    expect(routeEvent(dispatch, inputs({ prompt: ' fix the link ' }))).toEqual({
      kind: 'prompt',
      prompt: 'fix the link',
      jobId: null,
    });
    expect(routeEvent(dispatch, inputs({ prompt: 'more', 'job-id': 'job23' }))).toMatchObject({
      jobId: 'job23',
    });
    const push = parseEvent('push', examplePayload('push', undefined));
    expect(() => routeEvent(push, inputs())).toThrow(/No prompt: on push events the `prompt` input/);
  });
});
