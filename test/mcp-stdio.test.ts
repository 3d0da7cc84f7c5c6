import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_DOCS_DIR, seedRepository } from '../src/cli/demo.js';
import { openStore } from '../src/store/index.js';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('docwright mcp --project: the MCP server over stdio', () => {
  let dataDir: string;
  let repository: string;
  let client: Client;
  let stderr = '';

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-mcp-'));
    repository = path.join(dataDir, 'repo');
    await seedRepository(repository, SAMPLE_DOCS_DIR, process.env);
    const store = await openStore({ dataDir });
    await store.projects.create({ id: 'docs', repository, baseRef: 'main', domain: 'docs' });
    await store.close();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'src/cli.ts', '--data-dir', dataDir, 'mcp', '--project', 'docs'],
      cwd: ROOT,
      env: { ...(process.env as Record<string, string>), LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({ name: 'docwright-test', version: '1.0.0' });
    await client.connect(transport);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return {
      ...result,
      text: result.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
    };
  };

  it('offers the reader tools and the job tools, with no key', async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual([
      'create_docs_job',
      'follow_up_docs_job',
      'get_docs_job',
      'list_pages',
      'read_page',
      'search_docs',
      'submit_feedback',
    ]);
  });

  it('searches, lists and reads the docs of the data directory', async () => {
    const results = JSON.parse((await call('search_docs', { query: 'custom domain', limit: 2 })).text);
    expect(results[0].path).toBe('/guides/custom-domains');
    const pages = JSON.parse((await call('list_pages')).text);
    expect(pages[1]).toEqual(expect.objectContaining({ title: 'Quickstart', path: '/quickstart' }));
    expect((await call('read_page', { path: 'quickstart' })).text).toMatch(/^# Quickstart\n/);
  });

  it('runs a job to completion with the worker it starts', async () => {
    const created = JSON.parse(
      (
        await call('create_docs_job', {
          prompt: 'append a section "Limits" to quickstart with "Ten a minute."',
        })
      ).text,
    );
    let job = created;
    for (let tries = 0; job.status === 'active' && tries < 300; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = JSON.parse((await call('get_docs_job', { job_id: created.id })).text);
    }
    expect(job.status).toBe('completed');
    const page = execFileSync(
      'git',
      ['-C', repository, 'show', `docwright/job-${created.id}:quickstart.mdx`],
      {
        encoding: 'utf8',
      },
    );
    expect(page).toContain('Ten a minute.');
  });

  it('logs to stderr only: stdout carries the protocol', () => {
    // Every line the client read parsed as JSON-RPC (the calls above worked); the logs went here.
    expect(stderr).toMatch(/MCP server on stdio/);
  });
});
