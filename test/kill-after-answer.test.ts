import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_DOCS_DIR, seedRepository } from '../src/cli/demo.js';
import { openStore } from '../src/store/index.js';
import { startServeProcess, type ServeProcess } from './helpers/serve-process.js';

/** SIGKILL, and wait until the process is gone. */
async function kill(serve: ServeProcess): Promise<void> {
  const exited = new Promise((resolve) => serve.child.once('exit', resolve));
  serve.child.kill('SIGKILL');
  await exited;
}

describe.skipIf(process.platform !== 'linux')('what a client was told survives kill -9 of serve', () => {
  let root: string;
  let dataDir: string;
  let adminKey: string;
  let assistantKey: string;
  const start = () =>
    startServeProcess(dataDir, { ...process.env, LOG_LEVEL: 'warn' }, path.join(root, 'serve.log'));

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-kill-'));
    dataDir = path.join(root, 'data');
    const repo = path.join(root, 'repo');
    await seedRepository(repo, SAMPLE_DOCS_DIR, process.env);
    const store = await openStore({ dataDir });
    await store.projects.create({ id: 'docs', repository: repo, baseRef: 'main', domain: 'docs' });
    adminKey = (await store.keys.create({ kind: 'admin', projectId: 'docs' })).key;
    assistantKey = (await store.keys.create({ kind: 'assistant', projectId: 'docs', domain: 'docs' })).key;
    await store.close();
  }, 60_000);
  afterAll(() => fs.rm(root, { recursive: true, force: true }));

  it('keeps the thread of an answer whose first chunk arrived, and a job whose 201 arrived', async () => {
    let serve = await start();
    const answer = await fetch(`${serve.url}/discovery/v2/assistant/docs/message`, {
      method: 'POST',
      headers: { authorization: `Bearer ${assistantKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        fp: 'anonymous',
        messages: [
          { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'How do I add a custom domain?' }] },
        ],
      }),
    });
    const first = await answer.body!.getReader().read();
    await kill(serve);
    const threadId = answer.headers.get('x-thread-id')!;
    expect(new TextDecoder().decode(first.value)).toContain(threadId);

    serve = await start();
    const created = await fetch(`${serve.url}/v2/agent/docs/job`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'replace "Acme Cloud" with "Acme Platform"' }),
    });
    expect(created.status).toBe(201);
    await kill(serve);
    const job = (await created.json()) as { id: string };

    const store = await openStore({ dataDir });
    try {
      expect(await store.jobs.get('docs', job.id)).toMatchObject({ id: job.id });
      const messages = await store.assistantThreads.messages(threadId);
      expect(messages[0]).toMatchObject({ role: 'user', content: 'How do I add a custom domain?' });
    } finally {
      await store.close();
    }
  }, 60_000);
});
