/**
 * The demo project `serve` creates on a first start: docwright's own docs/, which a newcomer chats
 * with first. The questions the README and the assistant page show are answered from the pages
 * that answer them, through the route a reader's browser calls, with the offline answerer.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemo } from '../src/cli/demo.js';
import { loadConfig } from '../src/config/config.js';
import { silentLogger } from '../src/core/logger.js';
import { createService } from '../src/service/service.js';

type Service = Awaited<ReturnType<typeof createService>>;

interface Answer {
  sources: string[];
  text: string;
}

describe("the demo: docwright's own docs", () => {
  let dataDir: string;
  let service: Service;
  let assistantKey: string;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-demo-'));
    service = await createService(
      { ...loadConfig({}, { dataDir }), logLevel: 'silent' },
      { logger: silentLogger },
    );
    const demo = await ensureDemo(service.store, dataDir, process.env);
    assistantKey = demo!.keys!.assistant;
  });
  afterAll(async () => {
    await service.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  async function ask(question: string): Promise<Answer> {
    const response = await service.app.request('/discovery/v2/assistant/demo/message', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${assistantKey}` },
      body: JSON.stringify({
        fp: 'anonymous',
        messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: question }] }],
      }),
    });
    expect(response.status).toBe(200);
    const parts = (await response.text())
      .split('\n\n')
      .filter((event) => event.startsWith('data: ') && event !== 'data: [DONE]')
      .map((event) => JSON.parse(event.slice(6)));
    return {
      sources: parts.filter((part) => part.type === 'source-url').map((part) => part.url),
      text: parts
        .filter((part) => part.type === 'text-delta')
        .map((part) => part.delta)
        .join(''),
    };
  }

  it('answers the README\'s "How do I install it?" from the quickstart, cited first', async () => {
    const answer = await ask('How do I install it?');
    expect(answer.sources[0]).toMatch(/^\/quickstart(#|$)/);
    expect(answer.text).not.toMatch(/couldn't find an answer/);
    expect(answer.text).toContain('npm');
  });

  it('cites the section headed "GitHub Enterprise Server" for "Does it work with GitHub Enterprise?"', async () => {
    const answer = await ask('Does it work with GitHub Enterprise?');
    expect(answer.sources[0]).toBe('/github-app#github-enterprise-server');
    expect(answer.text).toContain('GHE_HOST');
  });

  it("answers what a page plainly covers, in a reader's words, and declines what no page covers", async () => {
    const port = await ask('what port does it use and how do I change it?');
    expect(port.sources.map((url) => url.replace(/#.*$/, ''))).toContain('/configuration');
    expect(port.text).toContain('PORT');
    const offTopic = await ask('What is the capital of France?');
    expect(offTopic.sources).toEqual([]);
    expect(offTopic.text).toMatch(/couldn't find an answer/);
  });
});
