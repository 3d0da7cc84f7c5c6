import { createRequire } from 'node:module';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import { Octokit } from '@octokit/rest';
import type { Job } from '../../src/protocol/agent-job.js';

/** One request the recorder received. */
export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
  authorization: string | undefined;
}

interface StoredComment {
  id: number;
  issue: number;
  body: string;
  user: { login: string; type: string };
}

export type GitHubRecorder = Awaited<ReturnType<typeof startGitHubRecorder>>;

const BOT = { login: 'github-actions[bot]', type: 'Bot' };

/**
 * A small stand-in for the GitHub REST API on a local port, for running the bundled Action as a
 * child process (where nock cannot reach): it records every call and keeps issue comments, so a
 * second run sees the status comment of the first. Permissions default to admin; `permissions`
 * gives a role per login.
 */
export async function startGitHubRecorder(options: { permissions?: Record<string, string> } = {}) {
  const calls: RecordedCall[] = [];
  const comments: StoredComment[] = [];
  let nextId = 9000;

  const routes: [string, RegExp, (match: string[], body: unknown, url: URL) => [number, unknown]][] = [
    [
      'GET',
      /^\/repos\/[^/]+\/[^/]+\/collaborators\/([^/]+)\/permission$/,
      ([login]) => {
        const role = options.permissions?.[decodeURIComponent(login!)] ?? 'admin';
        const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
        return [200, { permission, role_name: role, user: { login } }];
      },
    ],
    [
      'POST',
      /^\/repos\/[^/]+\/[^/]+\/(?:issues|pulls)\/comments\/\d+\/reactions$/,
      (_match, body) => [201, { id: (nextId += 1), ...(body as object) }],
    ],
    [
      'GET',
      /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/,
      ([issue], _body, url) => {
        const perPage = Number(url.searchParams.get('per_page') ?? 30);
        const page = Number(url.searchParams.get('page') ?? 1);
        const thread = comments.filter((comment) => comment.issue === Number(issue));
        return [200, thread.slice((page - 1) * perPage, page * perPage)];
      },
    ],
    [
      'POST',
      /^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/,
      ([issue], body) => {
        const comment = {
          id: (nextId += 1),
          issue: Number(issue),
          body: (body as { body: string }).body,
          user: BOT,
        };
        comments.push(comment);
        return [201, comment];
      },
    ],
    [
      'PATCH',
      /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/,
      ([id], body) => {
        const comment = comments.find((candidate) => candidate.id === Number(id));
        if (!comment) return [404, { message: 'Not Found' }];
        comment.body = (body as { body: string }).body;
        return [200, comment];
      },
    ],
    ['GET', /^\/repos\/[^/]+\/[^/]+\/pulls\/\d+\/files$/, () => [200, []]],
  ];

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://recorder');
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text ? JSON.parse(text) : undefined;
      calls.push({
        method: request.method ?? '',
        path: url.pathname,
        body,
        authorization: request.headers.authorization,
      });
      let answer: [number, unknown] = [404, { message: 'Not Found' }];
      for (const [method, pattern, handle] of routes) {
        const match = pattern.exec(url.pathname);
        if (match && method === request.method) answer = handle(match.slice(1), body, url);
      }
      response.writeHead(answer[0], { 'content-type': 'application/json' }).end(JSON.stringify(answer[1]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    comments,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const definitions = createRequire(import.meta.url)('@octokit/webhooks-examples') as WebhookDefinition[];

/**
 * A real webhook payload from `@octokit/webhooks-examples` (a deep copy), with only the fields a
 * test case needs changed by `patch`.
 */
export function examplePayload(
  event: string,
  action: string | undefined,
  patch: (payload: any) => void = () => {},
) {
  const definition = definitions.find((candidate) => candidate.name === event);
  const example = definition?.examples.find((candidate: any) => candidate.action === action);
  if (!example) throw new Error(`no ${event}${action ? `.${action}` : ''} example payload`);
  const payload = structuredClone(example) as any;
  patch(payload);
  return payload;
}

/** An Octokit for nock tests: Node's fetch (which nock intercepts), no retries, no request log. */
export function quietOctokit(baseUrl = 'https://api.github.com'): Octokit {
  const quiet = () => {};
  return new Octokit({
    auth: 'test-token',
    baseUrl,
    request: { retries: 0 },
    log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
  });
}

/** A job as the API returns it: `job23`, active, on Codertocat/Hello-World, unless `fields` say otherwise. */
export function jobFixture(fields: Partial<Job> = {}): Job {
  return {
    id: 'job23',
    status: 'active',
    source: { repository: 'https://github.com/Codertocat/Hello-World', ref: 'docwright/job-job23' },
    model: 'builtin',
    prLink: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    archivedAt: null,
    ...fields,
  };
}
