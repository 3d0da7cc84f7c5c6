import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LlmAgent } from '../src/agent/llm/index.js';
import { MemorySnapshot } from '../src/forge/memory-snapshot.js';
import { Overlay } from '../src/forge/overlay.js';
import { silentLogger } from '../src/core/logger.js';
import { languageModel } from '../src/models/models.js';
import { policyFor } from './helpers/write-policy.js';

/**
 * The real provider code paths (request building, response parsing, tool calls) against the
 * providers' wire formats, with the network mocked by nock: nothing leaves the machine.
 */

function repository() {
  return new Overlay(
    new MemorySnapshot('base', [
      ['docs.json', JSON.stringify({ navigation: [{ group: 'Start', pages: ['setup'] }] })],
      ['setup.mdx', '---\ntitle: Setup\n---\n\nRun `acme install`.\n'],
    ]),
  );
}

function runInput(files: Overlay) {
  return {
    jobId: 'job-1',
    instructions: ['Rename the install command to setup'],
    history: [],
    files,
    policy: policyFor(),
    signal: new AbortController().signal,
    logger: silentLogger,
  };
}

/** An OpenAI chat completion holding tool calls, or a final message. */
function completion(index: number, message: Record<string, unknown>, finishReason: string) {
  return {
    id: `chatcmpl-${index}`,
    object: 'chat.completion',
    created: 1_760_000_000 + index,
    model: 'gpt-4o-mini-2024-07-18',
    choices: [
      { index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finishReason },
    ],
    usage: { prompt_tokens: 400, completion_tokens: 30, total_tokens: 430 },
  };
}

function toolCall(id: string, name: string, args: Record<string, unknown>) {
  return { id, type: 'function', function: { name, arguments: JSON.stringify(args) } };
}

beforeEach(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});

describe('the model-driven agent over the real providers', () => {
  it('speaks OpenAI chat completions: tools sent, tool calls parsed, tool results returned', async () => {
    const bodies: Record<string, any>[] = [];
    const record = (body: Record<string, any>) => {
      bodies.push(body);
      return true;
    };
    const api = nock('https://api.openai.com', { reqheaders: { authorization: 'Bearer test' } })
      .post('/v1/chat/completions', record)
      .reply(
        200,
        completion(
          1,
          { tool_calls: [toolCall('call_read', 'read_file', { path: 'setup.mdx' })] },
          'tool_calls',
        ),
      )
      .post('/v1/chat/completions', record)
      .reply(
        200,
        completion(
          2,
          {
            tool_calls: [
              toolCall('call_edit', 'edit_file', {
                path: 'setup.mdx',
                oldText: 'acme install',
                newText: 'acme setup',
              }),
            ],
          },
          'tool_calls',
        ),
      )
      .post('/v1/chat/completions', record)
      .reply(
        200,
        completion(3, { content: 'Rename acme install to acme setup\n\nEdited setup.mdx.' }, 'stop'),
      );

    const model = languageModel('openai:gpt-4o-mini', { openai: { apiKey: 'test' }, anthropic: {} });
    const files = repository();
    const result = await new LlmAgent({ model: model!, name: 'openai:gpt-4o-mini' }).run(runInput(files));

    expect(api.isDone()).toBe(true);
    expect(nock.pendingMocks()).toEqual([]);
    expect(result.title).toBe('Rename acme install to acme setup');
    expect(await files.read('setup.mdx')).toContain('Run `acme setup`.');

    const [first, second, third] = bodies;
    expect(first!.model).toBe('gpt-4o-mini');
    expect(first!.messages[0].role).toBe('system');
    expect(first!.messages[1]).toEqual({ role: 'user', content: 'Rename the install command to setup' });
    expect(first!.tools.map((tool: any) => tool.function.name)).toEqual([
      'list_files',
      'read_file',
      'search_docs',
      'write_file',
      'edit_file',
      'delete_file',
      'move_file',
      'read_navigation',
      'edit_navigation',
    ]);
    expect(first!.tools[4].function.parameters.required).toEqual(['path', 'oldText', 'newText']);
    // The tool call comes back as an assistant message, its result as a `tool` message with its id.
    expect(second!.messages.at(-2).tool_calls[0]).toMatchObject({ id: 'call_read', type: 'function' });
    expect(second!.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_read' });
    expect(second!.messages.at(-1).content).toContain('Run `acme install`.');
    expect(third!.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_edit',
      content: 'Edited setup.mdx at line 5.',
    });
  });

  it('speaks Anthropic messages too', async () => {
    const bodies: Record<string, any>[] = [];
    const api = nock('https://api.anthropic.com', { reqheaders: { 'x-api-key': 'test' } })
      .post('/v1/messages', (body) => bodies.push(body) > 0)
      .reply(200, {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'list_files', input: {} }],
        stop_reason: 'tool_use',
        usage: { input_tokens: 300, output_tokens: 20 },
      })
      .post('/v1/messages', (body) => bodies.push(body) > 0)
      .reply(200, {
        id: 'msg_2',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'Nothing to change' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 320, output_tokens: 5 },
      });
    const model = languageModel('anthropic:claude-sonnet-4-5', { openai: {}, anthropic: { apiKey: 'test' } });
    const result = await new LlmAgent({ model: model!, name: 'anthropic:claude-sonnet-4-5' }).run(
      runInput(repository()),
    );
    expect(api.isDone()).toBe(true);
    expect(result.reply).toBe('Nothing to change');
    expect(bodies[0]!.tools).toHaveLength(9);
    const toolResult = bodies[1]!.messages.at(-1).content[0];
    expect(toolResult).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1' });
    expect(JSON.stringify(toolResult.content)).toContain('docs.json');
  });
});
