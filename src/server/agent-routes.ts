import { Hono } from 'hono';
import type { JobService } from '../engine/job-service.js';
import { JobListQuerySchema, PromptBodySchema } from '../protocol/agent-job.js';
import type { Store } from '../store/index.js';
import { requireKey, type AuthVariables } from './auth.js';
import type { RateLimits } from './rate-limits.js';
import { readJson, readQuery } from './request-body.js';

export interface AgentRouteDependencies {
  store: Store;
  jobs: JobService;
  rateLimits: RateLimits;
}

/** The agent-job endpoints of the contract (create, message) and our additions (get, list, archive), mounted at /v2/agent/:projectId. */
export function agentRoutes({ store, jobs, rateLimits }: AgentRouteDependencies) {
  const app = new Hono<{ Variables: AuthVariables }>();
  app.use('*', requireKey(store, 'admin'));

  /**
   * Runs `work` as one use of a limit: counted first (so a flood is stopped before it costs
   * anything), and given back when the request is refused (a job that does not exist or is
   * archived, a disabled project): only a job created or a message queued spends the hourly quota.
   */
  async function counted<T>(limit: string, projectId: string, work: () => Promise<T>) {
    const headers = await rateLimits.consume(limit, projectId);
    try {
      return { value: await work(), headers };
    } catch (error) {
      await rateLimits.refund(limit, projectId);
      throw error;
    }
  }

  app.post('/job', async (c) => {
    const projectId = c.req.param('projectId') as string;
    const { prompt } = await readJson(c, PromptBodySchema);
    const { value, headers } = await counted('job-create', projectId, () => jobs.create(projectId, prompt));
    return c.json(value, 201, headers);
  });

  app.get('/job/:id', async (c) => {
    return c.json(await jobs.get(c.req.param('projectId') as string, c.req.param('id')));
  });

  app.post('/job/:id/message', async (c) => {
    const projectId = c.req.param('projectId') as string;
    const { prompt } = await readJson(c, PromptBodySchema);
    const { value, headers } = await counted('job-message', projectId, () =>
      jobs.message(projectId, c.req.param('id'), prompt),
    );
    return c.json(value, 200, headers);
  });

  app.post('/job/:id/archive', async (c) => {
    return c.json(await jobs.archive(c.req.param('projectId') as string, c.req.param('id')));
  });

  app.get('/jobs', async (c) => {
    return c.json(await jobs.list(c.req.param('projectId') as string, readQuery(c, JobListQuerySchema)));
  });

  return app;
}
