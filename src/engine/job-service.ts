import { badRequest, DocwrightError, notFound } from '../core/errors.js';
import type { Forge } from '../forge/types.js';
import { newJobId } from '../core/ids.js';
import type { JobBudget } from '../core/usage.js';
import type { Job, JobList, JobListQuery } from '../protocol/agent-job.js';
import type { JobListRow, JobServiceStore, ProjectRow } from '../store/index.js';
import { toJob } from './job-view.js';

export interface JobServiceOptions {
  /** The database's store on a server; the Action's runner hands it one held in memory. */
  store: JobServiceStore;
  forge: Forge;
  /** The model of new jobs when the project names none. */
  defaultModel: string;
  /** Called when work was queued, so an idle worker starts at once instead of at its next poll. */
  onQueued?: () => void;
  /** Called when a job was archived, so a run of it in this process stops at once. */
  onArchived?: (jobId: string) => void;
  now?: () => Date;
}

/** The job operations behind the API, the Probot app and the CLI: validation of state, not of wire formats. */
export class JobService {
  private readonly now: () => Date;

  constructor(private readonly options: JobServiceOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /** The job's branch: `<prefix><id>`; the prefix is `docwright/job-` unless a repository sets its own. */
  static branchOf(jobId: string, prefix = 'docwright/job-'): string {
    return `${prefix}${jobId}`;
  }

  async create(
    projectId: string,
    prompt: string,
    options: { branchPrefix?: string; budget?: JobBudget } = {},
  ): Promise<Job> {
    const project = await this.project(projectId);
    const id = newJobId();
    const row = await this.options.store.jobs.create(
      {
        id,
        projectId,
        prompt,
        model: project.model ?? this.options.defaultModel,
        repositoryUrl: await this.options.forge.repositoryUrl(project.repository),
        branch: JobService.branchOf(id, options.branchPrefix),
        ...(options.budget ? { budget: options.budget } : {}),
      },
      this.now(),
    );
    this.options.onQueued?.();
    return toJob(row);
  }

  async get(projectId: string, id: string): Promise<Job> {
    const found = await this.options.store.jobs.getWithMessages(projectId, id);
    if (!found) throw notFound(`Job ${id} not found in project ${projectId}`);
    return toJob(found.job, found.messages);
  }

  async message(projectId: string, id: string, prompt: string): Promise<Job> {
    await this.project(projectId);
    const row = await this.options.store.jobs.addMessage(projectId, id, prompt, this.now());
    this.options.onQueued?.();
    return toJob(row);
  }

  /**
   * Refuses what `create` would refuse (a project that does not exist or is disabled) before
   * anything is counted against the project's quota.
   */
  async admitCreate(projectId: string): Promise<void> {
    await this.project(projectId);
  }

  /**
   * Refuses what `message` would refuse (no such project or job, an archived job) before anything
   * is counted against the project's quota: a flood of refused follow-ups must not spend it.
   */
  async admitMessage(projectId: string, id: string): Promise<void> {
    await this.project(projectId);
    await this.options.store.jobs.checkMessage(projectId, id);
  }

  /** Archives the job; a run of it stops within seconds (at once in this process), committing nothing. */
  async archive(projectId: string, id: string): Promise<Job> {
    const job = toJob(await this.options.store.jobs.archive(projectId, id, this.now()));
    this.options.onArchived?.(id);
    return job;
  }

  async list(projectId: string, query: JobListQuery): Promise<JobList> {
    const rows = await this.options.store.jobs.list(projectId, {
      limit: query.limit + 1,
      status: query.status,
      before: query.cursor ? decodeCursor(query.cursor) : undefined,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      jobs: page.map((row) => ({ ...toJob(row), changed: listedChange(row) })),
      nextCursor: rows.length > query.limit && last ? encodeCursor(last.created_at, last.id) : null,
    };
  }

  private async project(projectId: string): Promise<ProjectRow> {
    const project = await this.options.store.projects.get(projectId);
    if (!project) throw notFound(`Project ${projectId} not found`);
    if (project.disabled_at) {
      throw new DocwrightError('forbidden', `Project ${projectId} is disabled (its app was uninstalled)`);
    }
    return project;
  }
}

/**
 * Whether a listed job's latest run committed, as `get` says it: null while a prompt waits for its
 * run or when that run did not say.
 */
function listedChange(row: JobListRow): boolean | null {
  if (row.status === 'active' || row.latest_role !== 'agent' || row.latest_changed === null) return null;
  return row.latest_changed === 1;
}

function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // fall through to the error below
  }
  throw badRequest('cursor is not valid: pass the nextCursor of a previous page');
}
