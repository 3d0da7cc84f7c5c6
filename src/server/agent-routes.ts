import { Hono } from 'hono';
import { readGap, readGaps } from '../assistant/gaps/index.js';
import { conflict, notFound } from '../core/errors.js';
import type { JobService } from '../engine/job-service.js';
import { CreateJobBodySchema, JobListQuerySchema, PromptBodySchema } from '../protocol/agent-job.js';
import { budgetFromFields } from '../core/usage.js';
import { GapsQuerySchema, type GapsIssue } from '../protocol/feedback.js';
import type { ProjectRow, Store } from '../store/index.js';
import { requireKey, type AuthVariables } from './auth.js';
import type { RateLimitHeaders, RateLimits } from './rate-limits.js';
import { readJson, readQuery } from './request-body.js';

export interface AgentRouteDependencies {
  store: Store;
  jobs: JobService;
  rateLimits: RateLimits;
  /**
   * Refreshes a GitHub project's "Docs gaps" issue, as the weekly timer does: the GitHub App's (the
   * server layer does not reach GitHub itself); null when the server has no GitHub access.
   */
  refreshGapsIssue?: RefreshGapsIssue | null;
}

/** What a refresh of the "Docs gaps" issue did; `off` with the reason it did nothing. */
export type RefreshGapsIssue = (
  project: ProjectRow,
) => Promise<
  { kind: 'created' | 'updated'; issueNumber: number; gaps: number } | { kind: 'off'; reason: string | null }
>;

/**
 * Runs `work` as one use of a limit. `admit` first refuses, counting nothing, what `work` would
 * refuse (a job that does not exist or is archived, a disabled project), so a burst of refused
 * requests leaves the quota whole; then the use is counted (so a flood is stopped before it costs
 * anything), and given back if `work` is refused all the same (a job archived in between): only a
 * job created or a message queued spends the hourly quota. The MCP server's job tools count the
 * same way.
 */
export async function countedUse<T>(
  rateLimits: RateLimits,
  limit: string,
  projectId: string,
  work: () => Promise<T>,
  admit: () => Promise<void> = () => Promise.resolve(),
): Promise<{ value: T; headers: RateLimitHeaders }> {
  await admit();
  const headers = await rateLimits.consume(limit, projectId);
  try {
    return { value: await work(), headers };
  } catch (error) {
    await rateLimits.refund(limit, projectId);
    throw error;
  }
}

/**
 * The agent-job endpoints of the contract (create, message) and our additions (get, list, archive,
 * the gaps report and a job from a gap), mounted at /v2/agent/:projectId.
 */
export function agentRoutes({ store, jobs, rateLimits, refreshGapsIssue }: AgentRouteDependencies) {
  const app = new Hono<{ Variables: AuthVariables }>();
  app.use('*', requireKey(store, 'admin'));

  const counted = <T>(
    limit: string,
    projectId: string,
    work: () => Promise<T>,
    admit: () => Promise<void> = () => jobs.admitCreate(projectId),
  ) => countedUse(rateLimits, limit, projectId, work, admit);

  app.post('/job', async (c) => {
    const projectId = c.req.param('projectId') as string;
    const { prompt, budget } = await readJson(c, CreateJobBodySchema);
    const { value, headers } = await counted('job-create', projectId, () =>
      jobs.create(projectId, prompt, { budget: budgetFromFields(budget) }),
    );
    return c.json(value, 201, headers);
  });

  app.get('/job/:id', async (c) => {
    return c.json(await jobs.get(c.req.param('projectId') as string, c.req.param('id')));
  });

  app.post('/job/:id/message', async (c) => {
    const projectId = c.req.param('projectId') as string;
    const { prompt } = await readJson(c, PromptBodySchema);
    const { value, headers } = await counted(
      'job-message',
      projectId,
      () => jobs.message(projectId, c.req.param('id'), prompt),
      () => jobs.admitMessage(projectId, c.req.param('id')),
    );
    return c.json(value, 200, headers);
  });

  app.post('/job/:id/archive', async (c) => {
    return c.json(await jobs.archive(c.req.param('projectId') as string, c.req.param('id')));
  });

  app.get('/gaps', async (c) => {
    const { since } = readQuery(c, GapsQuerySchema);
    return c.json(await readGaps(store, c.req.param('projectId') as string, since));
  });

  // A job whose prompt carries a gap's questions, comments and closest pages: a job like any other.
  app.post('/gaps/:gap/job', async (c) => {
    const projectId = c.req.param('projectId') as string;
    const { since } = readQuery(c, GapsQuerySchema);
    const found = await readGap(store, projectId, c.req.param('gap'), since);
    if (!found) throw notFound(`No gap ${c.req.param('gap')} in the last ${since}; list the gaps again`);
    const { value, headers } = await counted('job-create', projectId, () =>
      jobs.create(projectId, found.prompt),
    );
    return c.json(value, 201, headers);
  });

  // What the weekly refresh does, when the caller wants it (the Action on a schedule).
  app.post('/gaps/issue', async (c) => {
    const projectId = c.req.param('projectId') as string;
    const project = await store.projects.get(projectId);
    if (!project) throw notFound(`No project ${projectId}`);
    if (project.forge !== 'github')
      throw conflict(`Project ${projectId} is not on GitHub, so it has no "Docs gaps" issue`, {
        retryable: false,
      });
    if (!refreshGapsIssue)
      throw conflict(
        'The server has no GitHub access (set the GitHub App or GITHUB_TOKEN), so it cannot write the "Docs gaps" issue',
        { retryable: false },
      );
    const refreshed = await refreshGapsIssue(project);
    if (refreshed.kind === 'off')
      throw conflict(
        refreshed.reason
          ? `The "Docs gaps" issue was not refreshed: ${refreshed.reason}`
          : `The settings of ${project.repository} do not ask for the "Docs gaps" issue: add \`gaps: { issue: true }\` to .github/docwright.yml`,
        { retryable: false },
      );
    const body: GapsIssue = {
      issue: refreshed.issueNumber,
      created: refreshed.kind === 'created',
      gaps: refreshed.gaps,
    };
    return c.json(body);
  });

  app.get('/jobs', async (c) => {
    return c.json(await jobs.list(c.req.param('projectId') as string, readQuery(c, JobListQuerySchema)));
  });

  return app;
}
