import { describe, expect, it } from 'vitest';
import { buildRetrievalQuery, isFollowUp } from '../src/docs/retrieval-query.js';

const user = (text: string) => ({ role: 'user', text });
const assistant = (text: string) => ({ role: 'assistant', text });

describe('buildRetrievalQuery', () => {
  it('uses the last user message alone when it stands on its own', () => {
    const query = buildRetrievalQuery({
      messages: [
        user('How do I add a custom domain?'),
        assistant('Go to settings.'),
        user('How do I set up redirects for old pages?'),
      ],
    });
    expect(query).toBe('How do I set up redirects for old pages?');
  });

  it('brings in the previous user turn for a short follow-up', () => {
    const query = buildRetrievalQuery({
      messages: [
        user('What is the Mintlify CLI?'),
        assistant('A command line tool.'),
        user('how do I configure it?'),
      ],
    });
    expect(query).toBe('how do I configure it?\nWhat is the Mintlify CLI?');
  });

  it('goes back at most two user turns, newest first', () => {
    const query = buildRetrievalQuery({
      messages: [
        user('Tell me about analytics exports'),
        user('and webhooks?'),
        user('and it?'),
        user('why?'),
      ],
    });
    expect(query).toBe('why?\nand it?\nand webhooks?');
  });

  it('appends context values, bounded', () => {
    const query = buildRetrievalQuery({
      messages: [user('What does this option do in docs.json navigation?')],
      context: [{ value: '"drilldown": false' }, { value: '  ' }, { value: 'x'.repeat(5000) }],
    });
    expect(query.startsWith('What does this option do in docs.json navigation?\n"drilldown": false\n')).toBe(
      true,
    );
    expect(query.length).toBeLessThan(800);
  });

  it('is empty without user text', () => {
    expect(buildRetrievalQuery({ messages: [assistant('Hello')] })).toBe('');
    expect(buildRetrievalQuery({ messages: [], context: null })).toBe('');
  });
});

describe('isFollowUp', () => {
  it.each([
    ['how do I configure it?', true],
    ['what about tabs?', true],
    ['and for GitLab?', true],
    ['can the bot call people too?', true],
    ['does the cache still work when the user interrupts?', true],
    ['How do I add a custom domain to my docs site?', false],
    ['Which OpenAPI versions does the API playground support?', false],
  ])('%j -> %s', (message, expected) => {
    expect(isFollowUp(message)).toBe(expected);
  });
});
