import { DocwrightClient, pollJob } from '../client/index.js';
import type { Job } from '../protocol/agent-job.js';

export interface RemoteOptions {
  url?: string;
  key?: string;
  project?: string;
}

/** The environment the `job` commands read: DOCWRIGHT_URL, DOCWRIGHT_KEY and DOCWRIGHT_PROJECT. */
export type RemoteEnvironment = Readonly<Record<string, string | undefined>>;

interface Remote {
  client: DocwrightClient;
  projectId: string;
}

/** The `job` commands are a thin client of a running server: flags win over DOCWRIGHT_URL/KEY/PROJECT. */
export function remote(options: RemoteOptions, env: RemoteEnvironment, fetchImpl?: typeof fetch): Remote {
  const baseUrl = options.url ?? env['DOCWRIGHT_URL'] ?? 'http://localhost:3000';
  const apiKey = options.key ?? env['DOCWRIGHT_KEY'];
  const projectId = options.project ?? env['DOCWRIGHT_PROJECT'];
  if (!apiKey) throw new Error('No API key: pass --key or set DOCWRIGHT_KEY');
  if (!projectId) throw new Error('No project: pass --project or set DOCWRIGHT_PROJECT');
  return {
    client: new DocwrightClient({
      baseUrl,
      apiKey,
      fetch: fetchImpl,
      userAgent: 'docwright-cli',
      // Someone at a terminal wants to hear at once that nothing answers, not after four tries.
      retryUnreachable: false,
    }),
    projectId,
  };
}

export interface WaitOptions {
  wait?: boolean;
  timeout?: string;
}

/** Creates a job; with --wait, polls until it is completed, archived or failed. */
export async function jobCreate(target: Remote, prompt: string, options: WaitOptions): Promise<Job> {
  const job = await target.client.createJob(target.projectId, prompt);
  return options.wait ? wait(target, job.id, options) : job;
}

export async function jobMessage(
  target: Remote,
  id: string,
  prompt: string,
  options: WaitOptions,
): Promise<Job> {
  const job = await target.client.sendMessage(target.projectId, id, prompt);
  return options.wait ? wait(target, job.id, options) : job;
}

async function wait(target: Remote, id: string, options: WaitOptions): Promise<Job> {
  const timeoutMs = Number(options.timeout ?? 600) * 1000;
  const start = await target.client.getJob(target.projectId, id);
  const { job, end } = await pollJob(target.client, target.projectId, start, { intervalMs: 1000, timeoutMs });
  if (end !== 'finished') throw new Error(`Job ${id} is still ${job.status} after ${timeoutMs / 1000} s`);
  return job;
}
