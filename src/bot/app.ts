import type { ApplicationFunction, Context, Probot } from 'probot';
import { readRepositoryStart } from '../github-api/repository-start.js';
import { handleCommandComment, type CommentContext } from './commands.js';
import { fromIssueComment, fromReviewComment, repositoryOf } from './comment-event.js';
import { oncePerDelivery } from './deliveries.js';
import { checkPullRequestDocs, rerunDocsCheck } from './docs-check.js';
import { addInstalledRepositories, removeInstalledRepositories } from './projects.js';
import { archiveClosedPullRequestJob, handlePush } from './repository-events.js';
import { syncMergedPullRequest } from './sync-command.js';
import type { BotDependencies } from './types.js';

/**
 * Probot's context as the command handler uses it: its Octokit, and the settings file read in
 * the same request as the default branch's head, which the forge then takes as the fresh base.
 */
function commentContext(
  deps: BotDependencies,
  context: Context<
    | 'issue_comment.created'
    | 'pull_request_review_comment.created'
    | 'pull_request.closed'
    | 'pull_request.opened'
    | 'pull_request.reopened'
    | 'pull_request.synchronize'
    | 'check_run.rerequested'
    | 'check_suite.rerequested'
  >,
) {
  const { repository } = context.payload;
  // A hand-made delivery may lack the node id; the commit then goes the REST way.
  if (typeof repository.node_id === 'string')
    deps.heads.sawRepository(repository.full_name, repository.node_id);
  return {
    octokit: context.octokit,
    settingsText: async (fileName: string) => {
      const repository = context.payload.repository;
      const start = await readRepositoryStart(
        context.octokit,
        { owner: repository.owner.login, repo: repository.name },
        `.github/${fileName}`,
      );
      if (start.defaultBranch) {
        deps.heads.sawHead(repository.full_name, start.defaultBranch.name, start.defaultBranch.head);
      }
      return start.settingsText;
    },
  } satisfies CommentContext;
}

/**
 * The docwright GitHub App: slash commands in issues and pull requests become jobs and
 * follow-ups; installations create and disable projects; a job's pull request closing archives
 * the job; a pull request opened or pushed to gets the docs check (when its repository asks for
 * it), and again when someone re-runs it; a push to a base branch refreshes the assistant's index.
 * Edited comments are not subscribed to, so they never trigger work.
 */
export function createDocwrightApp(deps: BotDependencies): ApplicationFunction {
  return (app: Probot) => {
    app.on('issue_comment.created', (context) =>
      handleCommandComment(deps, commentContext(deps, context), fromIssueComment(context)),
    );
    app.on('pull_request_review_comment.created', (context) =>
      handleCommandComment(deps, commentContext(deps, context), fromReviewComment(context)),
    );

    app.on(['installation.created', 'installation.unsuspend'], (context) =>
      oncePerDelivery(deps.store, { id: context.id, event: context.name }, () =>
        addInstalledRepositories(
          deps,
          context.octokit,
          context.payload.installation.id,
          context.payload.repositories ?? [],
        ),
      ),
    );
    app.on('installation_repositories.added', (context) =>
      oncePerDelivery(deps.store, { id: context.id, event: context.name }, () =>
        addInstalledRepositories(
          deps,
          context.octokit,
          context.payload.installation.id,
          context.payload.repositories_added,
        ),
      ),
    );
    app.on(['installation.deleted', 'installation.suspend'], (context) =>
      removeInstalledRepositories(deps, context.payload.installation.id, null),
    );
    app.on('installation_repositories.removed', (context) =>
      removeInstalledRepositories(
        deps,
        context.payload.installation.id,
        context.payload.repositories_removed,
      ),
    );

    app.on('pull_request.closed', async (context) => {
      const { pull_request: pullRequest, repository } = context.payload;
      await archiveClosedPullRequestJob(deps, {
        repository: repository.full_name,
        number: pullRequest.number,
        htmlUrl: pullRequest.html_url,
        headRef: pullRequest.head.ref,
        // null when the fork the pull request came from was deleted.
        headRepository: pullRequest.head.repo?.full_name ?? null,
        body: pullRequest.body,
        merged: pullRequest.merged ?? false,
      });
      if (!pullRequest.merged) return;
      await oncePerDelivery(deps.store, { id: context.id, event: 'merged' }, () =>
        syncMergedPullRequest(deps, commentContext(deps, context), {
          repository: repositoryOf(repository),
          installationId: context.payload.installation?.id ?? null,
          number: pullRequest.number,
          headRef: pullRequest.head.ref,
        }),
      );
    });
    app.on(['pull_request.opened', 'pull_request.reopened', 'pull_request.synchronize'], (context) => {
      const { pull_request: pullRequest, repository } = context.payload;
      return checkPullRequestDocs(deps, commentContext(deps, context), {
        repository: repositoryOf(repository),
        installationId: context.payload.installation?.id ?? null,
        number: pullRequest.number,
        headSha: pullRequest.head.sha,
      });
    });
    // "Re-run" on a check run and "Re-run all checks" on a suite: the docs check written again.
    app.on('check_run.rerequested', (context) => {
      const { check_run: run, repository } = context.payload;
      return rerunDocsCheck(deps, commentContext(deps, context), {
        repository: repositoryOf(repository),
        installationId: context.payload.installation?.id ?? null,
        headSha: run.head_sha,
        appId: run.app?.id ?? null,
        pullRequests: run.pull_requests,
        rerun: { kind: 'run', name: run.name, externalId: run.external_id },
      });
    });
    app.on('check_suite.rerequested', (context) => {
      const { check_suite: suite, repository } = context.payload;
      return rerunDocsCheck(deps, commentContext(deps, context), {
        repository: repositoryOf(repository),
        installationId: context.payload.installation?.id ?? null,
        headSha: suite.head_sha,
        appId: suite.app?.id ?? null,
        pullRequests: suite.pull_requests,
        rerun: { kind: 'suite', suiteId: suite.id },
      });
    });
    app.on('push', (context) => {
      const { payload } = context;
      const head = payload.head_commit;
      return handlePush(deps, {
        repository: payload.repository.full_name,
        ref: payload.ref,
        defaultBranch: payload.repository.default_branch ?? '',
        // The new head as the push shows it; null when the branch was deleted.
        head:
          payload.deleted || !head ? null : { sha: payload.after, tree: head.tree_id, message: head.message },
      });
    });
  };
}
