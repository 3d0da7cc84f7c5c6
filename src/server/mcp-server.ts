import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Assistant } from '../assistant/assistant.js';
import { DocwrightError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { findReaderPage } from '../assistant/llms-text.js';
import type { JobService } from '../engine/job-service.js';
import { PromptBodySchema } from '../protocol/agent-job.js';
import type { ProjectRow, Store } from '../store/index.js';

/** Largest page `read_page` returns; the rest is cut, and the reply says so. */
const READ_PAGE_MAX_BYTES = 200 * 1024;
/** How much of each section `search_docs` shows: enough to judge it, `read_page` has the rest. */
const SNIPPET_CHARACTERS = 600;
const FEEDBACK_PROBLEM_MAX = 4000;

export interface McpServerDependencies {
  store: Store;
  assistant: Pick<Assistant, 'search' | 'pages'>;
  jobs: JobService;
  logger: Logger;
  version?: string;
}

/** Who is calling, and what they may do: counting uses is the transport's concern (HTTP), not stdio's. */
export interface McpCaller {
  /** The id of the key of the request; null on stdio, which runs as the user. */
  keyId: string | null;
  /** An admin key of the project (or stdio): the job tools are offered too. */
  admin: boolean;
  /**
   * Counts one use of a limit (a feedback report, a job created or messaged) and runs `work` within
   * it; `admit` refuses first, counting nothing, what `work` would refuse.
   */
  counted?: <T>(
    limit: 'page-feedback' | 'job-create' | 'job-message',
    work: () => Promise<T>,
    admit?: () => Promise<void>,
  ) => Promise<T>;
}

/**
 * The MCP server of one project's docs: search them as the assistant does, read and list pages,
 * report a problem with a page; with an admin key, start and follow docs jobs. Built per request
 * on HTTP (stateless), once on stdio.
 */
export function createMcpServer(
  project: ProjectRow,
  caller: McpCaller,
  deps: McpServerDependencies,
): McpServer {
  const server = new McpServer(
    { name: `docwright-${project.domain ?? project.id}`, version: deps.version ?? '0.0.0' },
    {
      instructions:
        'Search and read the documentation of this project: search_docs first, then read_page for a whole page; list_pages shows them all.',
    },
  );
  const counted = caller.counted ?? (<T>(_limit: string, work: () => Promise<T>): Promise<T> => work());
  const tool = <T>(run: (input: T, signal: AbortSignal) => Promise<CallToolResult>) => {
    return async (input: T, extra: { signal: AbortSignal }): Promise<CallToolResult> => {
      try {
        return await run(input, extra.signal);
      } catch (error) {
        return failure(error, deps.logger);
      }
    };
  };

  server.registerTool(
    'search_docs',
    {
      title: 'Search the docs',
      description:
        'Search the documentation; returns the best sections with their page title, path, URL and a snippet, best first.',
      inputSchema: {
        query: z.string().trim().min(1).max(1000).describe('What to look for, in words'),
        limit: z.number().int().min(1).max(20).optional().describe('How many pages (default 5)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(async ({ query, limit }: { query: string; limit?: number }, signal) => {
      const hits = await deps.assistant.search(project, query, limit ?? 5, signal);
      if (hits.length === 0) return text(`No section of the docs matches "${query}".`);
      return json(hits.map(searchResult));
    }),
  );

  server.registerTool(
    'read_page',
    {
      title: 'Read a page',
      description:
        'Read one documentation page as Markdown, by its path (e.g. /quickstart) or its URL, as search_docs and list_pages give them.',
      inputSchema: { path: z.string().trim().min(1).max(2000).describe('The page path or URL') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(async ({ path }: { path: string }) => {
      const page = findReaderPage(await deps.assistant.pages(project), path);
      if (!page) return text(`No page of the docs is at ${path}; list_pages lists every page.`, true);
      return text(capped(page.markdown, READ_PAGE_MAX_BYTES));
    }),
  );

  server.registerTool(
    'list_pages',
    {
      title: 'List the pages',
      description:
        'List every documentation page in navigation order, with its title, path, URL and navigation group.',
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(async () => {
      const site = await deps.assistant.pages(project);
      return json(
        site.pages.map((page) => ({
          title: page.title,
          path: page.urlPath,
          url: page.href,
          group: page.groups.length > 0 ? page.groups.join(' / ') : null,
          ...(page.description ? { description: page.description } : {}),
        })),
      );
    }),
  );

  server.registerTool(
    'submit_feedback',
    {
      title: 'Report a problem with a page',
      description:
        "Tell the docs' maintainers that a page is wrong, outdated, unclear or missing something; say what and why.",
      inputSchema: {
        path: z.string().trim().min(1).max(500).describe('The page path or URL the problem is on'),
        problem: z
          .string()
          .trim()
          .min(1)
          .max(FEEDBACK_PROBLEM_MAX)
          .describe('What is wrong or missing, in a few sentences'),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    tool(async ({ path, problem }: { path: string; problem: string }) => {
      const page = findReaderPage(await deps.assistant.pages(project), path);
      const stored = await counted('page-feedback', () =>
        deps.store.pageFeedback.add({
          projectId: project.id,
          pagePath: page?.urlPath ?? path,
          problem,
          keyId: caller.keyId,
        }),
      );
      return text(
        `Thank you: the report on ${stored.page_path} is kept for the maintainers (#${stored.id}).`,
      );
    }),
  );

  if (caller.admin) registerJobTools(server, project, counted, deps, tool);
  return server;
}

/** The agent-job tools, for an admin key: the same job service the HTTP agent endpoints use. */
function registerJobTools(
  server: McpServer,
  project: ProjectRow,
  counted: NonNullable<McpCaller['counted']>,
  deps: McpServerDependencies,
  tool: <T>(
    run: (input: T, signal: AbortSignal) => Promise<CallToolResult>,
  ) => (input: T, extra: { signal: AbortSignal }) => Promise<CallToolResult>,
): void {
  const prompt = PromptBodySchema.shape.prompt.describe('The docs change, in plain words');
  const jobId = z.string().trim().min(1).max(100).describe('The job id create_docs_job returned');
  server.registerTool(
    'create_docs_job',
    {
      title: 'Start a docs job',
      description:
        'Start a background job that edits the docs as the prompt asks and commits the change on its own branch; poll it with get_docs_job.',
      inputSchema: { prompt },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    tool(async ({ prompt: text }: { prompt: string }) =>
      json(
        await counted(
          'job-create',
          () => deps.jobs.create(project.id, text),
          () => deps.jobs.admitCreate(project.id),
        ),
      ),
    ),
  );
  server.registerTool(
    'get_docs_job',
    {
      title: 'Read a docs job',
      description:
        "Read a docs job: its status (active, completed, failed, archived), branch, pull request link and the agent's replies.",
      inputSchema: { job_id: jobId },
      annotations: { readOnlyHint: true },
    },
    tool(async ({ job_id }: { job_id: string }) => json(await deps.jobs.get(project.id, job_id))),
  );
  server.registerTool(
    'follow_up_docs_job',
    {
      title: 'Follow up on a docs job',
      description:
        'Send a follow-up instruction to a docs job: it runs on the same branch after the current run.',
      inputSchema: { job_id: jobId, prompt },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    tool(async ({ job_id, prompt: text }: { job_id: string; prompt: string }) =>
      json(
        await counted(
          'job-message',
          () => deps.jobs.message(project.id, job_id, text),
          () => deps.jobs.admitMessage(project.id, job_id),
        ),
      ),
    ),
  );
}

type SearchHit = Awaited<ReturnType<Assistant['search']>>[number];

function searchResult(hit: SearchHit) {
  return {
    title: hit.heading && hit.heading !== hit.pageTitle ? `${hit.pageTitle} — ${hit.heading}` : hit.pageTitle,
    path: hit.urlPath,
    url: hit.url,
    snippet: excerpt(hit.body, SNIPPET_CHARACTERS),
  };
}

function excerpt(body: string, characters: number): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length <= characters ? flat : `${flat.slice(0, characters).replace(/\s\S*$/, '')} …`;
}

/** `markdown` cut at `maxBytes` (at a line end when one is near), with a line saying it was cut. */
function capped(markdown: string, maxBytes: number): string {
  const bytes = Buffer.from(markdown);
  if (bytes.length <= maxBytes) return markdown;
  let cut = bytes
    .subarray(0, maxBytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  const lineEnd = cut.lastIndexOf('\n');
  if (lineEnd > cut.length * 0.9) cut = cut.slice(0, lineEnd);
  return `${cut}\n\n[Truncated: the page is ${bytes.length} bytes; only the first ${maxBytes} are shown.]\n`;
}

function text(value: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) };
}

function json(value: unknown): CallToolResult {
  return text(JSON.stringify(value, null, 2));
}

/** A tool's failure for the model, in words: our errors as they are, anything else logged and generic. */
function failure(error: unknown, logger: Logger): CallToolResult {
  if (DocwrightError.isInstance(error)) return text(error.message, true);
  logger.error({ err: error }, 'an MCP tool failed');
  return text('The tool failed on the server; try again later.', true);
}
