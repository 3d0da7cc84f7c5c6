import path from 'node:path';
import { seedRepository } from '../../src/cli/demo.js';
import type { TestService } from './service.js';

/** docwright's own docs (docs/). */
export const OWN_DOCS_DIR = path.resolve(import.meta.dirname, '../../docs');

/** Adds a project `own` (domain `own`) on a repository seeded from docwright's own docs, with keys. */
export function addOwnDocsProject(t: TestService) {
  return addSiteProject(t, 'own', OWN_DOCS_DIR);
}

/** Adds a project `id` (domain `id`) on a repository seeded from the docs in `folder`, with keys. */
export async function addSiteProject(t: TestService, id: string, folder: string) {
  const repo = path.join(t.dataDir, `${id}-repo`);
  await seedRepository(repo, folder, process.env);
  await t.service.store.projects.create({ id, repository: repo, baseRef: 'main', domain: id });
  const adminKey = (await t.service.store.keys.create({ kind: 'admin', projectId: id })).key;
  const assistantKey = (await t.service.store.keys.create({ kind: 'assistant', projectId: id, domain: id }))
    .key;
  return { adminKey, assistantKey };
}

/** What one question got through the v2 route: the thread, the answer's id and text. */
export interface Asked {
  status: number;
  threadId: string;
  messageId: string;
  text: string;
}

/** Asks `question` through the real assistant route, as the chat page does. */
export async function ask(
  t: TestService,
  domain: string,
  key: string,
  question: string,
  fp = 'anonymous',
): Promise<Asked> {
  const response = await t.service.app.request(`/discovery/v2/assistant/${domain}/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({
      fp,
      messages: [{ id: 'q1', role: 'user', parts: [{ type: 'text', text: question }] }],
    }),
  });
  const body = await response.text();
  const chunks = body
    .split('\n\n')
    .filter((event) => event.startsWith('data: {'))
    .map((event) => JSON.parse(event.slice(6)) as { type: string; messageId?: string; delta?: string });
  return {
    status: response.status,
    threadId: response.headers.get('x-thread-id') ?? '',
    messageId: chunks.find((chunk) => chunk.type === 'start')?.messageId ?? '',
    text: chunks
      .filter((chunk) => chunk.type === 'text-delta')
      .map((chunk) => chunk.delta)
      .join(''),
  };
}

/** Posts a rating through the feedback route. */
export async function rate(
  t: TestService,
  domain: string,
  key: string | null,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const response = await t.service.app.request(`/discovery/v2/assistant/${domain}/feedback`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}
