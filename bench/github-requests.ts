/**
 * GitHub API requests of a single-file job, from the `/docs` comment to the final status comment,
 * counted on the real service (Probot app, GitHubForge, built-in agent, SQLite) against the fake
 * GitHub of the bot tests (nock). The cases: the first command after a start (installation token
 * and settings not known yet), the same with a `.github/docwright.yml`, a later command in another
 * issue (a new job), the same by the repository's owner (no permission lookup), a later command in
 * the same issue (a follow-up), a command on the job's own pull request (also after a restart, and
 * when GitHub writes the pull request's address under another host than the App's).
 */
import { findJobMarker } from '../src/github/index.js';
import { SAMPLE_DOCS_DIR } from '../src/cli/demo.js';
import { FakeGit } from '../test/fixtures/bot/fake-git.js';
import { FakeGitHub, type Call, type Pull } from '../test/fixtures/bot/fake-github.js';
import { issueComment, REPOSITORY, startBotHarness, type BotHarness } from '../test/fixtures/bot/harness.js';

const COMMAND = '/docs replace "an empty account" with "a brand-new account"';
const FOLLOW_UP = '/docs replace "a terminal, Git" with "a terminal and Git"';
const PULL_REQUEST_FOLLOW_UP = '/docs replace "Acme Cloud" with "Acme Platform"';
const PULL_REQUEST_RESTART_FOLLOW_UP = '/docs replace "Acme Platform" with "Acme Cloud Platform"';

/** What a request is for, in the words of the table. */
function stepOf(call: Call, branch: string): string {
  const path = decodeURIComponent(call.path.replace(/^api\.github\.com\/repos\/[^/]+\/[^/]+/, ''));
  if (call.path.includes('/access_tokens')) return 'installation token (app auth)';
  if (call.path.endsWith('/graphql')) {
    const query = String(call.body?.query);
    if (query.includes('docwrightAcknowledge'))
      return '👀 reaction + status comment: working (one GraphQL mutation)';
    if (query.includes('docwrightCommit'))
      return 'commit on the job branch, the branch made if new (one GraphQL mutation)';
    return 'settings file, its fallback and the default branch head (one GraphQL query)';
  }
  if (path.startsWith('/contents/')) return 'settings (.github/docwright.yml)';
  if (path.includes('/permission')) return 'permission of the commenter';
  if (path.endsWith('/reactions')) return '👀 reaction';
  if (call.method === 'POST' && /^\/issues\/\d+\/comments$/.test(path)) return 'status comment: working';
  if (call.method === 'PATCH' && path.startsWith('/issues/comments/')) return 'status comment: result';
  if (path === `/commits/${branch}`) return "job branch lookup (run-job's landed check, branchExists)";
  if (path.startsWith('/commits/')) return 'base branch lookup';
  if (path.startsWith('/tarball/')) return 'snapshot (tarball)';
  if (path === '/git/trees' || path === '/git/blobs') return 'tree';
  if (path === '/git/commits') return 'commit';
  if (path.startsWith('/git/refs')) return 'branch ref';
  if (call.method === 'PATCH' && /^\/pulls\/\d+$/.test(path)) return 'pull request: update';
  if (path.startsWith('/pulls')) return 'pull request';
  return `${call.method} ${path}`;
}

interface Case {
  title: string;
  target: number;
  steps: Map<string, number>;
  total: number;
  /** Every request in order: `METHOD path` (GraphQL by its operation). */
  requests: string[];
}

/** A request as the lists show it: GraphQL by its operation, REST by method and path. */
function requestLine(call: Call): string {
  const path = call.path.replace(/^api\.github\.com/, '');
  if (!path.endsWith('/graphql')) return `${call.method} ${path}`;
  const operation = /(?:query|mutation) (\w+)/.exec(String(call.body?.query))?.[1] ?? 'unnamed';
  return `POST /graphql (${operation})`;
}

async function countJob(
  t: BotHarness,
  title: string,
  target: number,
  issue: number,
  options: { association?: string; command?: string; pullRequestBody?: string } = {},
): Promise<Case> {
  const before = t.github.apiCalls().length;
  await t.receive(
    'issue_comment',
    issueComment(options.command ?? COMMAND, {
      issue,
      association: options.association,
      ...(options.pullRequestBody === undefined ? {} : { pullRequest: { body: options.pullRequestBody } }),
    }),
  );
  const status = t.github.comments.find((comment) => comment.issue === issue && findJobMarker(comment.body));
  if (!status) throw new Error('no status comment was posted');
  const job = await t.settle(findJobMarker(status.body)!);
  if (job.status !== 'completed' || !job.pr_link) throw new Error(`the job ended ${job.status}`);
  const calls = t.github.apiCalls().slice(before);
  const steps = new Map<string, number>();
  for (const call of calls) {
    const step = stepOf(call, job.branch);
    steps.set(step, (steps.get(step) ?? 0) + 1);
  }
  return { title, target, steps, total: calls.length, requests: calls.map(requestLine) };
}

/** Runs the cases and returns the markdown section for bench/RESULTS.md. */
export async function runGitHubRequestCountBenchmark(): Promise<string> {
  return render(await countRequestCases());
}

/** Each case's requests, counted on the real service against the fake GitHub. */
export async function countRequestCases(): Promise<Case[]> {
  const cases: Case[] = [];
  const plain = await startBotHarness();
  let pull: Pull;
  try {
    plain.github.permissions.set('maintainer', 'write');
    cases.push(await countJob(plain, 'first command, no settings file', 8, 12));
    cases.push(await countJob(plain, 'later command, another issue', 8, 13));
    cases.push(await countJob(plain, 'later command, by the owner', 8, 14, { association: 'OWNER' }));
    cases.push(await countJob(plain, 'later command, same issue', 8, 13, { command: FOLLOW_UP }));
    pull = plain.github.pulls[0]!;
    cases.push(
      await countJob(plain, "command on the job's pull request", 8, pull.number, {
        command: PULL_REQUEST_FOLLOW_UP,
        pullRequestBody: pull.body,
      }),
    );
  } finally {
    await plain.close({ keepData: true });
  }
  // The same pull request after a restart: the new process knows the job's pull request from the
  // store, so it updates it instead of trying to open it again.
  plain.github.intercept();
  const restarted = await startBotHarness({ dataDir: plain.dataDir, github: plain.github });
  try {
    cases.push(
      await countJob(restarted, "command on the job's pull request, after a restart", 8, pull.number, {
        command: PULL_REQUEST_RESTART_FOLLOW_UP,
        pullRequestBody: pull.body,
      }),
    );
  } finally {
    await restarted.close();
    plain.github.dispose();
  }
  // GitHub writing its pull requests' addresses under another host than the App's (a proxy, or an
  // Enterprise Server known by two names): the job's stored link still names its pull request.
  const proxied = new FakeGitHub(REPOSITORY, FakeGit.readFolder(SAMPLE_DOCS_DIR));
  proxied.webUrl = 'http://127.0.0.1:8080';
  proxied.intercept();
  const behindProxy = await startBotHarness({ github: proxied });
  try {
    behindProxy.github.permissions.set('maintainer', 'write');
    await countJob(behindProxy, 'first command', 8, 12);
    const proxiedPull = proxied.pulls[0]!;
    cases.push(
      await countJob(
        behindProxy,
        "command on the job's pull request, links under another host",
        8,
        proxiedPull.number,
        {
          command: PULL_REQUEST_FOLLOW_UP,
          pullRequestBody: proxiedPull.body,
        },
      ),
    );
  } finally {
    await behindProxy.close();
    proxied.dispose();
  }
  const configured = await startBotHarness();
  try {
    configured.github.permissions.set('maintainer', 'write');
    configured.github.settingsFiles.set('.github/docwright.yml', 'docs_root: ""\n');
    cases.splice(1, 0, await countJob(configured, 'first command, with docwright.yml', 8, 12));
  } finally {
    await configured.close();
  }
  return cases;
}

function render(cases: Case[]): string {
  const steps = [...new Set(cases.flatMap((item) => [...item.steps.keys()]))];
  const rows = steps.map(
    (step) => `| ${step} | ${cases.map((item) => item.steps.get(step) ?? 0).join(' | ')} |`,
  );
  const totals = `| **total** | ${cases.map((item) => `**${item.total}**`).join(' | ')} |`;
  const verdict = cases.map(
    (item) =>
      `${item.title}: ${item.total} (${item.total <= item.target ? 'within' : 'over'} the target of ${item.target})`,
  );
  return [
    '## GitHub API requests of a single-file job',
    '',
    'From the `/docs` comment to the final status comment, counted at the HTTP boundary (nock) with the real service: Probot app, GitHubForge, built-in agent, SQLite. The redirect to codeload.github.com for the tarball is not an API request and is not counted.',
    '',
    `| request | ${cases.map((item) => item.title).join(' | ')} |`,
    `|---|${cases.map(() => '---:').join('|')}|`,
    ...rows,
    totals,
    '',
    ...verdict.map((line) => `- ${line}`),
    '',
    'The requests of each case, in order:',
    '',
    ...cases.flatMap((item) => [`- ${item.title}:`, ...item.requests.map((request) => `  - \`${request}\``)]),
    '',
    'What a command cannot do without, and why: the installation token (app auth; Probot keeps it for an hour), the permission lookup (only an OWNER association is known from the payload), the 👀 reaction and the first status comment (one GraphQL mutation when the thread has no status comment yet), the archive of the base commit (the agent reads the files), the commit (one GraphQL mutation: `createRef` for a new branch, then `createCommitOnBranch` with the branch head as compare-and-set; the node id of the repository comes from the webhook payload, and where GitHub offers no such mutation the Git Data API writes tree, commit and ref), the pull request (opened, or updated in one request when the job knows its number) and the final status comment (one per thread of the job). What is remembered between commands: the settings file and its absence until a push to the default branch (an hour at most), branch heads until a push moves them (ten minutes at most; the head read with the settings is the fresh base of the first run), the archive of a commit the forge read or wrote (128 MB at most, so a follow-up starts from its own last commit without a download), and the pull request of a job (its `prLink`). A follow-up in the same issue edits its existing status comment, so its reaction goes alone.',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${await runGitHubRequestCountBenchmark()}\n`);
}
