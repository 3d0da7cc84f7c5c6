import { describe, expect, it } from 'vitest';
import { queryConcepts } from '../src/docs/fts-query.js';
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

describe('queryConcepts', () => {
  const alternatives = (text: string, term: string) =>
    queryConcepts(text).find((concept) => concept.term === term)?.alternatives;

  it('searches a word ending in "-us" or "-as" in both numbers, which the stemmer keeps apart', () => {
    expect(alternatives('what do the job statuses mean', 'statuses')).toContain('"status"');
    expect(alternatives('job status', 'status')).toContain('"statuses"');
    expect(alternatives('rename an alias', 'alias')).toContain('"aliases"');
    // Words the stemmer already matches with their plural get nothing more.
    expect(alternatives('list the jobs', 'jobs')).toEqual(['"jobs"']);
  });

  it("adds the docs' words for the reader's (an LLM is a model, the docs chat is the assistant)", () => {
    expect(alternatives('does the docs chat work without an llm', 'llm')).toContain('"model"');
    expect(alternatives('does the docs chat work without an llm', 'docs chat')).toContain('"assistant"');
    // A chat widget may be a support tool's, not the docs' assistant: "chat" alone stays itself.
    expect(alternatives('add a chat widget', 'chat')).toEqual(['"chat"']);
    expect(alternatives('is there an openapi spec', 'spec')).toContain('"specification"');
  });
});
