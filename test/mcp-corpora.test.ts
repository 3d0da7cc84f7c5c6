/**
 * `search_docs` on real documentation sites: for readers' questions, every page the assistant's
 * answer cites is among the pages `search_docs` returns for the same question. The two sites are
 * read from beside the repository when they are there; without them, the test says so and is skipped.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedRepository } from '../src/cli/demo.js';
import { listen, type LocalServer } from './helpers/listen.js';
import { startTestService, type TestService } from './helpers/service.js';

const SITES = [
  { name: 'mintlify', folder: path.resolve('../shared/corpora/mintlify-docs') },
  { name: 'pipecat', folder: path.resolve('../shared/corpora/pipecat-docs') },
].filter((site) => existsSync(site.folder));
const QUESTIONS_PER_SITE = 12;

describe.skipIf(SITES.length === 0)(
  SITES.length === 0
    ? 'search_docs on real sites (skipped: no docs sites at ../shared/corpora)'
    : 'search_docs on real sites: the pages the assistant cites',
  () => {
    let t: TestService;
    let server: LocalServer;
    const keys = new Map<string, string>();
    const clients: Client[] = [];

    beforeAll(async () => {
      t = await startTestService({ startWorker: false });
      for (const site of SITES) {
        const repository = path.join(t.dataDir, `${site.name}-repo`);
        await seedRepository(repository, site.folder, process.env);
        await t.service.store.projects.create({
          id: site.name,
          repository,
          baseRef: 'main',
          domain: site.name,
        });
        const { key } = await t.service.store.keys.create({
          kind: 'assistant',
          projectId: site.name,
          domain: site.name,
        });
        keys.set(site.name, key);
      }
      server = await listen(t.service.app.fetch);
    }, 120_000);
    afterAll(async () => {
      await Promise.all(clients.map((client) => client.close()));
      await server?.close();
      await t?.cleanup();
    });

    /** The page of a cited address: without its anchor. */
    const pageOf = (url: string) => url.split('#')[0]!;

    async function citedPages(domain: string, question: string): Promise<string[]> {
      const response = await fetch(`${server.url}/discovery/v2/assistant/${domain}/message`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.get(domain)}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          fp: 'mcp-test',
          messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: question }] }],
        }),
      });
      const body = await response.text();
      const parts = body
        .split('\n\n')
        .filter((event) => event.startsWith('data: ') && event !== 'data: [DONE]')
        .map((event) => JSON.parse(event.slice(6)) as { type: string; url?: string });
      return [
        ...new Set(parts.filter((part) => part.type === 'source-url').map((part) => pageOf(part.url!))),
      ];
    }

    it.each(SITES.map((site) => site.name))(
      'on %s, cites no page search_docs does not return for the question',
      async (domain) => {
        const client = new Client({ name: 'docwright-test', version: '1.0.0' });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(`${server.url}/mcp/${domain}`), {
            requestInit: { headers: { Authorization: `Bearer ${keys.get(domain)}` } },
          }),
        );
        clients.push(client);
        const { questions } = JSON.parse(
          readFileSync(`bench/queries/${domain}-reader-questions.json`, 'utf8'),
        ) as { questions: { query: string }[] };
        let answered = 0;
        for (const { query } of questions.slice(0, QUESTIONS_PER_SITE)) {
          const cited = await citedPages(domain, query);
          const result = (await client.callTool({
            name: 'search_docs',
            arguments: { query, limit: 5 },
          })) as CallToolResult;
          const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
          const searched = [
            ...new Set((JSON.parse(text) as { url: string }[]).map((hit) => pageOf(hit.url))),
          ];
          if (cited.length === 0) continue; // Declined: nothing to compare.
          answered += 1;
          expect(searched, query).toEqual(expect.arrayContaining(cited));
        }
        expect(answered).toBeGreaterThan(QUESTIONS_PER_SITE / 2);
      },
      120_000,
    );
  },
);
