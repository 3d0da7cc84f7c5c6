import path from 'node:path';
import { seedRepository } from '../../src/cli/demo.js';
import type { TestService } from './service.js';

/** docwright's own docs (docs/). */
export const OWN_DOCS_DIR = path.resolve(import.meta.dirname, '../../docs');

/** Adds a project `own` (domain `own`) on a repository seeded from docwright's own docs, with keys. */
export async function addOwnDocsProject(t: TestService) {
  const repo = path.join(t.dataDir, 'own-repo');
  await seedRepository(repo, OWN_DOCS_DIR, process.env);
  await t.service.store.projects.create({ id: 'own', repository: repo, baseRef: 'main', domain: 'own' });
  const adminKey = (await t.service.store.keys.create({ kind: 'admin', projectId: 'own' })).key;
  const assistantKey = (
    await t.service.store.keys.create({ kind: 'assistant', projectId: 'own', domain: 'own' })
  ).key;
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
