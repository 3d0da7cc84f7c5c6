import { GAPS_ISSUE_TITLE, isGapsIssueBody, renderGapsIssue } from '../github/index.js';
import { type GitHubApi } from '../github-api/types.js';
import { readRepositoryStart } from '../github-api/repository-start.js';
import { hasStatus } from '../github-api/request-error.js';
import { SettingsError, type RepositorySettings } from '../github/settings.js';
import type { Gap, GapsReport } from '../protocol/feedback.js';
import type { Logger } from '../core/logger.js';
import type { ProjectRow, Store } from '../store/index.js';
import type { RepositoryClient, RepositoryClients } from './repository-clients.js';
import type { SettingsCache } from './settings-cache.js';

/**
 * The gaps report as the bot reads it. The report is the assistant's (a layer the bot does not
 * import); the service hands it in.
 */
export interface GapsSource {
  report(projectId: string, since: string): Promise<GapsReport>;
  /** One gap with the prompt of a job that fills it; undefined when the period has no such gap. */
  gap(projectId: string, gapId: string, since: string): Promise<{ gap: Gap; prompt: string } | undefined>;
}

/** What a refresh of the issue did. */
export type GapsIssueRefresh =
  | { kind: 'created' | 'updated'; issueNumber: number; gaps: number }
  /** The repository's settings do not ask for the issue (or cannot be read: `reason`). */
  | { kind: 'off'; reason: string | null };

const WEEK_MS = 7 * 24 * 3600 * 1000;

/**
 * Keeps each repository's one "Docs gaps" issue current: found by its number (stored when the App
 * opened it) or by the App's marker, opened once, edited in place afterwards. Refreshes of one
 * repository run one after the other, so two triggers at once never open two issues.
 */
export class GapsIssues {
  private readonly running = new Map<string, Promise<unknown>>();

  constructor(
    private readonly deps: {
      store: Store;
      source: GapsSource;
      clients: RepositoryClients;
      settings: SettingsCache;
      logger: Logger;
      /** The App's id: an issue the App opened says so; null in token mode. */
      appId: number | null;
      now?: () => Date;
    },
  ) {}

  get source(): GapsSource {
    return this.deps.source;
  }

  /** The issue number of a project's "Docs gaps" issue, when the App opened one. */
  async issueNumber(projectId: string): Promise<number | null> {
    return (await this.deps.store.gapsIssues.get(projectId))?.issue_number ?? null;
  }

  /** Refreshes the issue of a repository whose settings are known (a command in it). */
  refresh(
    octokit: GitHubApi,
    project: ProjectRow,
    settings: RepositorySettings,
    command = settings.command,
  ): Promise<GapsIssueRefresh> {
    return this.serialised(project.repository, () => this.write(octokit, project, settings, command));
  }

  /**
   * Refreshes a project's issue from outside a webhook (the weekly timer, the API): the settings
   * are read from the default branch. A project off GitHub, or whose settings do not ask for it, is
   * left alone.
   */
  async refreshProject(project: ProjectRow): Promise<GapsIssueRefresh> {
    if (project.forge !== 'github' || project.disabled_at)
      return { kind: 'off', reason: `project ${project.id} is not an enabled GitHub project` };
    const octokit = await this.deps.clients.forRepository(project.repository);
    const settings = await this.settingsOf(octokit, project.repository);
    if (settings instanceof SettingsError) return { kind: 'off', reason: settings.message };
    if (!settings.gaps.issue) return { kind: 'off', reason: null };
    return this.refresh(octokit, project, settings);
  }

  /**
   * The weekly pass: each enabled GitHub project whose refresh last ran a week ago or more (the
   * time is stored, so a restart does not run it again, and replicas claim a project in turn).
   */
  async weekly(): Promise<void> {
    const now = this.now();
    for (const project of await this.deps.store.projects.list()) {
      if (project.forge !== 'github' || project.disabled_at) continue;
      try {
        if (
          !(await this.deps.store.gapsIssues.claimRefresh(project.id, new Date(now.getTime() - WEEK_MS), now))
        )
          continue;
        const result = await this.refreshProject(project);
        if (result.kind !== 'off')
          this.deps.logger.info(
            { project: project.id, issue: result.issueNumber, gaps: result.gaps },
            'docs gaps issue refreshed',
          );
        else if (result.reason)
          this.deps.logger.warn(
            { project: project.id, reason: result.reason },
            'docs gaps issue not refreshed',
          );
      } catch (error) {
        // One repository GitHub cannot reach now waits for next week; the others go on.
        this.deps.logger.warn(
          { project: project.id, reason: error instanceof Error ? error.message : String(error) },
          'docs gaps issue refresh failed',
        );
      }
    }
  }

  private async settingsOf(octokit: RepositoryClient, repository: string) {
    const [owner = '', repo = ''] = repository.split('/');
    return this.deps.settings.get(repository, {
      settingsText: async (fileName) =>
        (await readRepositoryStart(octokit, { owner, repo }, `.github/${fileName}`)).settingsText,
    });
  }

  private async serialised<T>(repository: string, work: () => Promise<T>): Promise<T> {
    const key = repository.toLowerCase();
    const before = this.running.get(key) ?? Promise.resolve();
    const run = before.then(work, work);
    const settled = run.catch(() => undefined);
    this.running.set(key, settled);
    try {
      return await run;
    } finally {
      if (this.running.get(key) === settled) this.running.delete(key);
    }
  }

  private async write(
    octokit: GitHubApi,
    project: ProjectRow,
    settings: RepositorySettings,
    command: string,
  ): Promise<GapsIssueRefresh> {
    const [owner = '', repo = ''] = project.repository.split('/');
    const report = await this.deps.source.report(project.id, settings.gaps.since);
    const body = renderGapsIssue(report, {
      projectId: project.id,
      command,
      siteUrl: settings.gaps.siteUrl,
      refreshedAt: this.now(),
    });
    const gaps = report.gaps.length;
    const existing = await this.existingIssue(octokit, project, owner, repo);
    if (existing !== null) {
      await octokit.rest.issues.update({
        owner,
        repo,
        issue_number: existing,
        title: GAPS_ISSUE_TITLE,
        body,
      });
      return { kind: 'updated', issueNumber: existing, gaps };
    }
    const created = await octokit.rest.issues.create({ owner, repo, title: GAPS_ISSUE_TITLE, body });
    await this.deps.store.gapsIssues.setIssue(project.id, created.data.number);
    return { kind: 'created', issueNumber: created.data.number, gaps };
  }

  /**
   * The number of the issue to edit: the stored one while it still carries the marker, else an
   * open issue the App itself opened with the marker (the database was replaced, say); null: none.
   */
  private async existingIssue(
    octokit: GitHubApi,
    project: ProjectRow,
    owner: string,
    repo: string,
  ): Promise<number | null> {
    const stored = await this.issueNumber(project.id);
    if (stored !== null) {
      try {
        const { data } = await octokit.rest.issues.get({ owner, repo, issue_number: stored });
        if (isGapsIssueBody(data.body, project.id)) return stored;
      } catch (error) {
        // Deleted or transferred: a new one is opened.
        if (!hasStatus(error, 404, 410, 301)) throw error;
      }
      await this.deps.store.gapsIssues.setIssue(project.id, null);
    }
    // Only the App's own issues are searched: in token mode nothing tells the token's issues from
    // its user's, and a marker anyone can type proves nothing.
    if (this.deps.appId === null) return null;
    const { data } = await octokit.rest.issues.listForRepo({
      owner,
      repo,
      state: 'open',
      per_page: 100,
    });
    const found = data.find(
      (issue) =>
        !issue.pull_request &&
        issue.performed_via_github_app?.id === this.deps.appId &&
        isGapsIssueBody(issue.body, project.id),
    );
    if (!found) return null;
    await this.deps.store.gapsIssues.setIssue(project.id, found.number);
    return found.number;
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}
