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

  app.post('/job', async (c) => {
    const projectId = c.req.param('projectId') as string;
    const { prompt } = await readJson(c, PromptBodySchema);
    const headers = await rateLimits.consume('job-create', projectId);
    return c.json(await jobs.create(projectId, prompt), 201, headers);
  });

  app.get('/job/:id', async (c) => {
    return c.json(await jobs.get(c.req.param('projectId') as string, c.req.param('id')));
  });

  app.post('/job/:id/message', async (c) => {
    const projectId = c.req.param('projectId') as string;
    const { prompt } = await readJson(c, PromptBodySchema);
    const headers = await rateLimits.consume('job-message', projectId);
    try {
      return c.json(await jobs.message(projectId, c.req.param('id'), prompt), 200, headers);
    } catch (error) {
      // A message to a job that does not exist or is archived was never a use of the limit.
      await rateLimits.refund('job-message', projectId);
      throw error;
    }
  });

  app.post('/job/:id/archive', async (c) => {
    return c.json(await jobs.archive(c.req.param('projectId') as string, c.req.param('id')));
  });

  app.get('/jobs', async (c) => {
    return c.json(await jobs.list(c.req.param('projectId') as string, readQuery(c, JobListQuerySchema)));
  });

  return app;
}
