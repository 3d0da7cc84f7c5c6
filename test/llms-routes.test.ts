import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedRepository } from '../src/cli/demo.js';
import { checkLlmsText } from './helpers/llms-format.js';
import { listen, type LocalServer } from './helpers/listen.js';
import { startTestService, type TestService } from './helpers/service.js';

const OWN_DOCS = path.resolve(import.meta.dirname, '../docs');

describe('llms.txt of every assistant domain, served by serve', () => {
  let t: TestService;
  let server: LocalServer;

  beforeAll(async () => {
    t = await startTestService({ startWorker: false });
    const repository = path.join(t.dataDir, 'own-repo');
    await seedRepository(repository, OWN_DOCS, process.env);
    await t.service.store.projects.create({ id: 'own', repository, baseRef: 'main', domain: 'own' });
    server = await listen(t.service.app.fetch);
  });
  afterAll(async () => {
    await server.close();
    await t.cleanup();
  });

  for (const domain of ['docs', 'own']) {
    it(`${domain}: llms.txt follows the llmstxt.org format and every link answers 200 with the page's Markdown`, async () => {
      const response = await fetch(`${server.url}/llms/${domain}/llms.txt`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
      const text = await response.text();
      const { problems, links } = checkLlmsText(text);
      expect(problems).toEqual([]);
      expect(text).toMatch(/^# .+\n\n> .+\n\n## /);
      expect(links.length).toBeGreaterThan(5);
      for (const link of links) {
        expect(link.url.startsWith(`${server.url}/llms/${domain}/`)).toBe(true);
        expect(link.url).toMatch(/\.md$/);
        const page = await fetch(link.url);
        expect(page.status, link.url).toBe(200);
        expect(page.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
        expect(await page.text()).toMatch(/^# \S/);
      }
    });
  }

  it('names the site and groups its pages as the navigation does', async () => {
    const text = await (await fetch(`${server.url}/llms/docs/llms.txt`)).text();
    expect(text.split('\n')[0]).toBe('# Acme Cloud');
    expect(text).toContain(`## Get started\n\n- [Introduction](${server.url}/llms/docs/index.md)`);
    expect(text).toContain(
      `- [Quickstart](${server.url}/llms/docs/quickstart.md): Deploy your first app on Acme Cloud in five minutes.`,
    );
    expect(text).toContain('## Guides');
  });

  it('llms-full.txt holds every page in navigation order', async () => {
    const response = await fetch(`${server.url}/llms/docs/llms-full.txt`);
    expect(response.status).toBe(200);
    const text = await response.text();
    const sources = [...text.matchAll(/^source: (.+)$/gm)].map((match) => match[1]);
    const { links } = checkLlmsText(await (await fetch(`${server.url}/llms/docs/llms.txt`)).text());
    expect(sources).toEqual(links.map((link) => link.url));
    expect(text).toContain('```bash\nacme login\n```');
  });

  it('answers 304 to the ETag it gave, and a new ETag when the address differs', async () => {
    const first = await fetch(`${server.url}/llms/docs/quickstart.md`);
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^"[0-9a-f-]+"$/);
    const again = await fetch(`${server.url}/llms/docs/quickstart.md`, { headers: { 'if-none-match': tag } });
    expect(again.status).toBe(304);
    const list = await fetch(`${server.url}/llms/docs/llms.txt`);
    expect(list.headers.get('etag')).not.toBe(tag);
  });

  it('answers 404 in JSON for an unknown domain or page, with no key needed for known ones', async () => {
    for (const route of [
      '/llms/nowhere/llms.txt',
      '/llms/nowhere/llms-full.txt',
      '/llms/docs/no/such/page.md',
    ]) {
      const response = await fetch(`${server.url}${route}`);
      expect(response.status, route).toBe(404);
      expect(await response.json()).toEqual(expect.objectContaining({ error: expect.any(String) }));
    }
  });
});
