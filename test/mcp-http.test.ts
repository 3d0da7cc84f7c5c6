import fs from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retrieve } from '../src/assistant/retrieve.js';
import { seedRepository } from '../src/cli/demo.js';
import { listen, type LocalServer } from './helpers/listen.js';
import { startTestService, type TestService } from './helpers/service.js';

const OWN_DOCS = path.resolve(import.meta.dirname, '../docs');
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};

describe('the MCP server of an assistant domain, over Streamable HTTP', () => {
  let t: TestService;
  let server: LocalServer;
  let ownKey: string;
  let bigKey: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await startTestService();
    const repository = path.join(t.dataDir, 'own-repo');
    await seedRepository(repository, OWN_DOCS, process.env);
    await t.service.store.projects.create({ id: 'own', repository, baseRef: 'main', domain: 'own' });
    ownKey = (await t.service.store.keys.create({ kind: 'assistant', projectId: 'own', domain: 'own' })).key;
    // A site with a page over read_page's 200 KB.
    const big = path.join(t.dataDir, 'big-source');
    await fs.mkdir(big, { recursive: true });
    await fs.writeFile(path.join(big, 'index.md'), '# Big site\n\nA site with one long page.\n');
    const paragraph = 'Every line of this page says the same long thing about quotas and limits.\n\n';
    await fs.writeFile(path.join(big, 'long.md'), `# Long\n\n${paragraph.repeat(4000)}`);
    await seedRepository(path.join(t.dataDir, 'big-repo'), big, process.env);
    await t.service.store.projects.create({
      id: 'big',
      repository: path.join(t.dataDir, 'big-repo'),
      baseRef: 'main',
      domain: 'big',
    });
    bigKey = (await t.service.store.keys.create({ kind: 'assistant', projectId: 'big', domain: 'big' })).key;
    server = await listen(t.service.app.fetch);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server.close();
    await t.cleanup();
  });

  async function connect(domain: string, key: string): Promise<Client> {
    const client = new Client({ name: 'docwright-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp/${domain}`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const textOf = (result: CallToolResult) =>
    result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

  const post = (domain: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/mcp/${domain}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify(body),
    });

  it('lists the reader tools to an assistant key, each read-only but feedback, with a schema and a description', async () => {
    const client = await connect('docs', t.assistantKey);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'list_pages',
      'read_page',
      'search_docs',
      'submit_feedback',
    ]);
    for (const tool of tools) {
      expect(tool.description).toMatch(/^[A-Z].+[.)]$/);
      expect(tool.description).not.toContain('\n');
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(tool.name !== 'submit_feedback');
    }
    expect(tools.find((tool) => tool.name === 'search_docs')!.inputSchema.required).toEqual(['query']);
  });

  it('offers the job tools to an admin key of the project, and not to the assistant key', async () => {
    const admin = await connect('docs', t.adminKey);
    const names = (await admin.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['create_docs_job', 'get_docs_job', 'follow_up_docs_job', 'search_docs']),
    );
    const reader = await connect('docs', t.assistantKey);
    const refused = await call(reader, 'create_docs_job', { prompt: 'remove the page quickstart' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/create_docs_job/);
  });

  it('answers 401 with WWW-Authenticate and a JSON error to no key, an unknown key and a key of another site', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer svc_dsc_notakey' },
      { authorization: `Bearer ${ownKey}` },
      { authorization: `Bearer ${t.otherKey}` },
    ];
    for (const headers of attempts) {
      const response = await post('docs', INITIALIZE, headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await response.json()).toEqual(expect.objectContaining({ error: expect.any(String) }));
    }
    await expect(connect('docs', 'svc_dsc_wrong')).rejects.toThrow();
  });

  it('applies the domain’s allowed origins, and answers only POST', async () => {
    await t.service.store.projects.update('docs', { allowedOrigins: ['https://docs.acme.dev'] });
    try {
      const auth = { authorization: `Bearer ${t.assistantKey}` };
      const foreign = await post('docs', INITIALIZE, { ...auth, origin: 'https://evil.example' });
      expect(foreign.status).toBe(403);
      const own = await post('docs', INITIALIZE, { ...auth, origin: 'https://docs.acme.dev' });
      expect(own.status).toBe(200);
      expect(own.headers.get('access-control-allow-origin')).toBe('https://docs.acme.dev');
    } finally {
      await t.service.store.projects.update('docs', { allowedOrigins: [] });
    }
    const get = await fetch(`${server.url}/mcp/docs`, {
      headers: { authorization: `Bearer ${t.assistantKey}`, accept: 'text/event-stream' },
    });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('counts tool calls against the assistant limits, not the handshake', async () => {
    const auth = { authorization: `Bearer ${t.assistantKey}` };
    const handshake = await post('docs', INITIALIZE, auth);
    expect(handshake.headers.get('ratelimit-remaining')).toBeNull();
    const searched = await post(
      'docs',
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_pages', arguments: {} } },
      auth,
    );
    expect(searched.status).toBe(200);
    expect(Number(searched.headers.get('ratelimit-remaining'))).toBeGreaterThan(0);
  });

  it('search_docs returns the pages the assistant retrieves, in its order, with path, URL and snippet', async () => {
    const client = await connect('own', ownKey);
    const project = (await t.service.store.projects.get('own'))!;
    const index = await t.service.indexes.get(project);
    for (const query of [
      'How do I create an assistant key?',
      'embed the chat widget on a docs site',
      'run jobs in a GitHub Action',
      'PostgreSQL replicas',
    ]) {
      const limit = 4;
      const results = JSON.parse(textOf(await call(client, 'search_docs', { query, limit }))) as {
        title: string;
        path: string;
        url: string;
        snippet: string;
      }[];
      const expected = retrieve(index, {
        conversation: [{ role: 'user', text: query }],
        retrievalPageSize: limit,
      }).passages;
      expect(results.map((result) => result.url)).toEqual(expected.map((hit) => hit.url));
      expect(results.length).toBeGreaterThan(0);
      for (const result of results) {
        expect(result.path).toMatch(/^\//);
        expect(result.url.startsWith(result.path)).toBe(true);
        expect(result.snippet.length).toBeGreaterThan(0);
        expect(result.title.length).toBeGreaterThan(0);
      }
    }
  });

  it('read_page gives a page as Markdown by path or URL, code blocks kept and components flattened', async () => {
    const client = await connect('docs', t.assistantKey);
    const byPath = textOf(await call(client, 'read_page', { path: '/quickstart' }));
    expect(byPath.startsWith('# Quickstart\n\n> Deploy your first app')).toBe(true);
    expect(byPath).toContain('## 1. Install the CLI');
    expect(byPath).toContain('```bash\nacme login\n```');
    expect(byPath).not.toMatch(/<[A-Z][A-Za-z]*[\s>/]/);
    const byUrl = textOf(
      await call(client, 'read_page', { path: 'https://docs.acme.dev/quickstart#2-create-a-project' }),
    );
    expect(byUrl).toBe(byPath);
    const missing = await call(client, 'read_page', { path: '/nowhere' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/No page of the docs is at \/nowhere/);
  });

  it('read_page cuts a page over 200 KB and says so', async () => {
    const client = await connect('big', bigKey);
    const long = textOf(await call(client, 'read_page', { path: '/long' }));
    expect(Buffer.byteLength(long)).toBeLessThan(201 * 1024);
    expect(long).toMatch(/^# Long\n/);
    expect(long).toMatch(/\[Truncated: the page is \d+ bytes; only the first 204800 are shown\.\]\n$/);
  });

  it('list_pages lists every page in navigation order with its group', async () => {
    const client = await connect('docs', t.assistantKey);
    const pages = JSON.parse(textOf(await call(client, 'list_pages'))) as {
      title: string;
      path: string;
      url: string;
      group: string | null;
    }[];
    expect(pages.slice(0, 3).map((page) => page.path)).toEqual(['/', '/quickstart', '/installation']);
    expect(pages[0]!.group).toBe('Get started');
    expect(pages.find((page) => page.path === '/guides/custom-domains')!.group).toBe(
      'Guides / Configuration',
    );
  });

  it('submit_feedback keeps a bounded report for the maintainers', async () => {
    const client = await connect('docs', t.assistantKey);
    const result = await call(client, 'submit_feedback', {
      path: '/quickstart',
      problem: 'Step 3 does not say which region the app is deployed to.',
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/kept for the maintainers/);
    const [stored] = await t.service.store.pageFeedback.list('docs');
    expect(stored).toEqual(
      expect.objectContaining({ page_path: '/quickstart', problem: expect.stringMatching(/^Step 3/) }),
    );
    const tooLong = await call(client, 'submit_feedback', { path: '/quickstart', problem: 'x'.repeat(5000) });
    expect(tooLong.isError).toBe(true);
    // The maintainers read it where they read the readers' gaps.
    const report = await t.request('GET', '/v2/agent/docs/gaps?since=1d');
    expect(report.body.pageReports).toEqual([
      expect.objectContaining({
        path: '/quickstart',
        reports: 1,
        problems: ['Step 3 does not say which region the app is deployed to.'],
      }),
    ]);
  });

  it('create_docs_job starts a job that completes; get_docs_job and follow_up_docs_job follow it', async () => {
    const client = await connect('docs', t.adminKey);
    const created = JSON.parse(
      textOf(
        await call(client, 'create_docs_job', {
          prompt: 'append a section "Limits" to quickstart with "Each key may send 600 requests a minute."',
        }),
      ),
    );
    expect(created).toEqual(expect.objectContaining({ id: expect.any(String), status: 'active' }));
    const done = await t.waitForJob(created.id);
    expect(done.status).toBe('completed');
    const read = JSON.parse(textOf(await call(client, 'get_docs_job', { job_id: created.id })));
    expect(read).toEqual(expect.objectContaining({ id: created.id, status: 'completed' }));
    expect(t.git('show', `docwright/job-${created.id}:quickstart.mdx`)).toContain('## Limits');
    const followed = JSON.parse(
      textOf(
        await call(client, 'follow_up_docs_job', {
          job_id: created.id,
          prompt: 'append a section "Support" to quickstart with "Ask in the issue tracker."',
        }),
      ),
    );
    expect(followed.id).toBe(created.id);
    expect((await t.waitForJob(created.id)).status).toBe('completed');
    const unknown = await call(client, 'get_docs_job', { job_id: 'nope' });
    expect(unknown.isError).toBe(true);
  });
});
