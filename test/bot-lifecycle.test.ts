import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listProjects } from '../src/cli/local-commands.js';
import { findJobMarker } from '../src/github/index.js';
import { examplePayload } from './helpers/github-recorder.js';
import {
  INSTALLATION_ID,
  issueComment,
  patchRepository,
  REPOSITORY,
  startBotHarness,
  type BotHarness,
} from './fixtures/bot/harness.js';

let t: BotHarness;

beforeEach(async () => {
  t = await startBotHarness();
  t.github.permissions.set('maintainer', 'admin');
});

afterEach(async () => {
  await t.close();
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});

function installation(action: 'created' | 'deleted') {
  return examplePayload('installation', action, (payload) => {
    payload.installation.id = INSTALLATION_ID;
    payload.repositories = [{ ...payload.repositories[0], name: 'docs-site', full_name: REPOSITORY }];
  });
}

async function startJob(issue = 12) {
  await t.receive(
    'issue_comment',
    issueComment('/docs replace "an empty account" with "a new account"', { issue }),
  );
  const status = t.github.comments.find((comment) => comment.issue === issue && findJobMarker(comment.body));
  return t.settle(findJobMarker(status!.body)!);
}

describe('installations', () => {
  it('creates a project when the app is installed and disables it when uninstalled', async () => {
    t.github.settingsFiles.set('.github/docwright.yml', 'docs_root: guides\nmodel: builtin\n');
    await t.receive('installation', installation('created'));
    const project = (await t.service.store.projects.findOnGitHub('github.com', REPOSITORY))!;
    expect(project).toMatchObject({
      id: 'octo-org-docs-site',
      forge: 'github',
      base_ref: 'main',
      docs_root: 'guides',
      installation_id: INSTALLATION_ID,
      disabled_at: null,
    });
    expect(await listProjects(t.config)).toEqual([
      expect.objectContaining({
        id: 'octo-org-docs-site',
        repository: 'octo-org/docs-site',
        ref: 'main',
        docsRoot: 'guides',
        enabled: true,
      }),
    ]);

    await t.receive('installation', installation('deleted'));
    expect(
      (await t.service.store.projects.findOnGitHub('github.com', REPOSITORY))!.disabled_at,
    ).not.toBeNull();
    expect(await listProjects(t.config)).toEqual([expect.objectContaining({ enabled: false })]);

    // Installed again: the same project, enabled.
    await t.receive('installation', installation('created'), 'delivery-reinstall');
    expect((await t.service.store.projects.findOnGitHub('github.com', REPOSITORY))!.disabled_at).toBeNull();
  });

  it('follows repositories added to and removed from an installation', async () => {
    const added = examplePayload('installation_repositories', 'added', (payload) => {
      payload.installation.id = INSTALLATION_ID;
      payload.repositories_added = [
        { ...payload.repositories_added[0], name: 'docs-site', full_name: REPOSITORY },
      ];
    });
    await t.receive('installation_repositories', added);
    expect((await t.service.store.projects.findOnGitHub('github.com', REPOSITORY))!.disabled_at).toBeNull();
    const removed = examplePayload('installation_repositories', 'removed', (payload) => {
      payload.installation.id = INSTALLATION_ID;
      payload.repositories_removed = [
        { ...payload.repositories_removed[0], name: 'docs-site', full_name: REPOSITORY },
      ];
    });
    await t.receive('installation_repositories', removed);
    expect(
      (await t.service.store.projects.findOnGitHub('github.com', REPOSITORY))!.disabled_at,
    ).not.toBeNull();
  });
});

describe('pull requests and pushes', () => {
  it('archives the job when its pull request is closed or merged', async () => {
    const job = await startJob();
    const pull = t.github.pulls[0]!;
    const closed = examplePayload('pull_request', 'closed', (payload) => {
      patchRepository(payload);
      payload.number = pull.number;
      payload.pull_request.number = pull.number;
      payload.pull_request.head.ref = job.branch;
      payload.pull_request.body = pull.body;
      payload.pull_request.merged = true;
    });
    await t.receive('pull_request', closed);
    const archived = (await t.service.store.jobs.getUnscoped(job.id))!;
    expect(archived.status).toBe('archived');
    expect(archived.archived_at).not.toBeNull();

    // A command on the closed pull request starts nothing and says why.
    const onClosed = issueComment('/docs one more thing', {
      issue: pull.number,
      pullRequest: { body: pull.body },
    });
    await t.receive('issue_comment', onClosed);
    expect(t.github.comments.at(-1)!.body).toContain('This pull request is closed');
    // In the issue, a new command starts a new job.
    await t.receive(
      'issue_comment',
      issueComment('/docs replace "a terminal, Git" with "a terminal and Git"'),
    );
    const next = await t.service.store.githubThreads.find({ repository: REPOSITORY, issueNumber: 12 });
    expect(next!.job_id).not.toBe(job.id);
  });

  it('leaves a job alone when someone else’s pull request closes', async () => {
    const job = await startJob();
    const closed = examplePayload('pull_request', 'closed', (payload) => {
      patchRepository(payload);
      payload.pull_request.number = 5;
      payload.pull_request.body = `stolen <!-- docwright-job: ${job.id} -->`;
      payload.pull_request.head.ref = 'feature';
    });
    await t.receive('pull_request', closed);
    expect((await t.service.store.jobs.getUnscoped(job.id))!.status).toBe('completed');
  });

  it('refreshes the docs index on a push to the base branch, and re-reads the settings', async () => {
    await startJob();
    const project = (await t.service.store.projects.findOnGitHub('github.com', REPOSITORY))!;
    const changed: string[] = [];
    t.service.docsChanges.subscribe((projectId) => changed.push(projectId));
    const push = (ref: string) =>
      examplePayload('push', undefined, (payload) => {
        patchRepository(payload);
        payload.ref = ref;
      });
    await t.receive('push', push('refs/heads/feature'));
    await t.receive('push', push('refs/heads/main'));
    await t.waitFor(() => changed.includes(project.id), 'the docs change notice');

    // The settings were cached; the push to the default branch made the next command read them again.
    t.github.settingsFiles.set('.github/docwright.yml', 'command: /write\n');
    await t.receive(
      'issue_comment',
      issueComment('/write replace "a terminal, Git" with "a terminal and Git"', { issue: 13 }),
    );
    expect(t.github.comments.some((comment) => comment.issue === 13 && findJobMarker(comment.body))).toBe(
      true,
    );
  });
});

describe('branch heads from pushes', () => {
  it('starts the next job from the new head of main (pushed, then read with the settings) without a REST lookup', async () => {
    await startJob();
    // Someone pushes to main: a new commit with one more page.
    const parent = t.github.git.resolve('main')!;
    const files = t.github.git.filesAt(parent);
    files.set('changelog.md', Buffer.from('# Changelog\n'));
    const tree = t.github.git.writeTree(files);
    const pushed = t.github.git.writeCommit({ tree, message: 'Add a changelog\n', parents: [parent] });
    t.github.git.refs.set('main', pushed);
    await t.receive(
      'push',
      examplePayload('push', undefined, (payload) => {
        patchRepository(payload);
        payload.ref = 'refs/heads/main';
        payload.before = parent;
        payload.after = pushed;
        payload.head_commit = {
          ...payload.head_commit,
          id: pushed,
          tree_id: tree,
          message: 'Add a changelog\n',
        };
      }),
    );
    const before = t.github.apiCalls().length;
    const job = await startJob(13);
    expect(job.status).toBe('completed');
    const asked = t.github
      .apiCalls()
      .slice(before)
      .map((call) => `${call.method} ${call.path}`);
    // The settings query (again: the push touched the default branch, whose head it reads too), the
    // reaction-and-status mutation and the commit mutation; no branch lookup.
    expect(asked.filter((call) => call.endsWith('/graphql'))).toHaveLength(3);
    expect(asked.some((call) => call.includes('/commits/main'))).toBe(false);
    const pull = t.github.pulls.find((candidate) => candidate.head === job.branch)!;
    expect(pull.baseCommit).toBe(pushed);
    expect(t.github.fileAt(job.branch, 'changelog.md')).toBe('# Changelog\n');
  });
});

describe('repository settings', () => {
  it('uses the configured command, docs root, base branch, permission and branch prefix', async () => {
    t.github.settingsFiles.set(
      '.github/docwright.yml',
      'command: /write\ndocs_root: ./\nbase_branch: main\nrequired_permission: maintain\nbranch_prefix: docs-bot/\n',
    );
    t.github.permissions.set('writer', 'write');
    await t.receive('issue_comment', issueComment('/docs replace "an empty account" with "a new account"'));
    expect(t.github.comments).toEqual([]);
    await t.receive(
      'issue_comment',
      issueComment('/write replace "an empty account" with "a new account"', { login: 'writer' }),
    );
    expect(t.github.comments.at(-1)!.body).toContain('only people with **maintain** access');
    await t.receive('issue_comment', issueComment('/write replace "an empty account" with "a new account"'));
    const status = t.github.comments.find((comment) => findJobMarker(comment.body));
    const job = await t.settle(findJobMarker(status!.body)!);
    expect(job.branch).toBe(`docs-bot/${job.id}`);
  });

  it('explains a broken settings file to a command and starts nothing', async () => {
    t.github.settingsFiles.set('.github/docwright.yml', 'required_permission: everyone\n');
    await t.receive('issue_comment', issueComment('/docs fix it'));
    expect(t.github.comments).toHaveLength(1);
    expect(t.github.comments[0]!.body).toContain('docwright.yml is not valid (required_permission)');
  });

  it('asks for an instruction when the command comes alone', async () => {
    await t.receive('issue_comment', issueComment('/docs'));
    expect(t.github.comments[0]!.body).toContain('tell docwright what to change');
  });
});
