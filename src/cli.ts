#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs';
import type { CommanderError } from 'commander';
import { Command, InvalidArgumentError, Option } from 'commander';
import { EXIT, UsageError } from './cli/exit-codes.js';
import { parseFramework } from './cli/docs-framework-option.js';
import { registerGapsCommand } from './cli/gaps-command.js';
import { registerImpactCommand } from './cli/impact-command.js';
import { commandName } from './cli/invocation.js';
import { describeJob, jobRow } from './cli/job-view.js';
import type { addProject, ProjectListing, updateProject } from './cli/local-commands.js';
import {
  exitStatus,
  jobCreate,
  jobMessage,
  remote,
  type JobResult,
  type LimitOptions,
  type RemoteOptions,
  type WaitOptions,
} from './cli/job-commands.js';
import { createOutput, type Output } from './cli/output.js';
import { JOB_STATUSES, type JobStatus } from './protocol/agent-job.js';
import { ApiError, ApiUnreachableError } from './client/index.js';
import { loadConfig, type Config } from './config/config.js';

/** Every command's --help ends with examples that can be pasted as they are. */
const examples = (...lines: string[]): string =>
  `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}`;

/** The command line: the only place besides config.ts that reads process.env. */
const program = new Command()
  .name('docwright')
  .description('A documentation agent for GitHub: plain-words requests become docs pull requests.')
  .version(packageVersion(), '-V, --version', 'print the version')
  .option(
    '--data-dir <dir>',
    'where the database and demo repository live (DOCWRIGHT_DATA_DIR, default .docwright)',
  )
  .option('--json', 'print results as JSON (the default when stdout is not a terminal)')
  .configureHelp({ showGlobalOptions: true })
  // A wrong command line exits with 2, apart from failures, as most tools do; help and version with 0.
  .exitOverride((error: CommanderError) => {
    process.exit(error.exitCode === 0 ? EXIT.ok : EXIT.usage);
  })
  .showHelpAfterError()
  .addHelpText(
    'after',
    examples(
      'npx docwright serve            # inside a clone; `npm link` puts docwright on PATH',
      'docwright project list',
      'docwright job create --project demo --key svc_... \'replace "Acme Cloud" with "Acme"\'',
    ),
  );

const config = (extra: Partial<Pick<Config, 'port' | 'host'>> = {}): Config =>
  loadConfig(process.env, { dataDir: program.opts<{ dataDir?: string }>().dataDir, ...extra });
// The commands' modules load when one runs: `--version`, `--help` and the job commands, which only
// talk HTTP, start without the server's code (a third of a second instead of two).
const serveCommand = () => import('./cli/serve.js');
const projectCommands = () => import('./cli/local-commands.js');
const keyCommands = () => import('./cli/key-commands.js');
const checkCommands = () => import('./cli/check-command.js');

const output = (): Output => createOutput(program.opts<{ json?: boolean }>());
const cli = commandName(process.env);

program
  .command('serve')
  .description('run the API and the job worker (and the demo project on a first start)')
  .option('--port <n>', 'port to listen on (PORT, default 3000)', port)
  .option('--host <host>', 'address to listen on (HOST, default all)')
  .addHelpText(
    'after',
    examples('docwright serve', 'docwright --data-dir /var/lib/docwright serve --port 8080'),
  )
  .action(async (options: { port?: number; host?: string }) =>
    (await serveCommand()).runServe(config(options), process.env),
  );

const project = program
  .command('project')
  .description('manage projects (repositories the agent works on)')
  .addHelpText('after', examples('docwright project list', 'docwright project add --help'));
const withProjectSettings = (command: Command) =>
  command
    .option(
      '--docs-root <dir>',
      "folder of the docs inside the repository: the pages' folder or the docs framework's config folder (default: the root)",
    )
    .option(
      '--docs-framework <name>',
      'docusaurus, mkdocs, vitepress, starlight or mintlify (default: found from its config file)',
    )
    .option(
      '--writable <globs>',
      "files outside the write policy's defaults jobs may write, comma-separated globs (e.g. README.md)",
    )
    .option('--domain <name>', 'assistant domain this project answers for')
    .option(
      '--model <model>',
      'model for this project: builtin or <provider>:<model> (openai, anthropic, bedrock, google, vertex, azure, ollama, openai-compatible)',
    )
    .option(
      '--allowed-origins <list>',
      'browser origins allowed to call the assistant, comma-separated (default: any)',
    );
withProjectSettings(
  project
    .command('add')
    .description('add a project backed by a local git repository')
    .requiredOption('--id <id>', 'project id, used in API paths')
    .requiredOption(
      '--repository <path|owner/repo>',
      'a local git repository, or a GitHub repository (token mode)',
    )
    .requiredOption('--ref <branch>', 'base branch the agent starts from'),
)
  .addHelpText(
    'after',
    examples(
      'docwright project add --id handbook --repository ~/src/handbook --ref main --docs-root docs --domain handbook',
      'docwright project add --id site --repository acme/site --ref main   # GitHub, token mode',
    ),
  )
  .action(async (options: Parameters<typeof addProject>[2]) => {
    const added = await (await projectCommands()).addProject(config(), process.env, options);
    output().data(added, () => `Added project ${added.id}:\n${describeProject(added)}`);
  });
project
  .command('list')
  .description('list projects, oldest first')
  .addHelpText('after', examples('docwright project list', 'docwright project list --json'))
  .action(async () => {
    const projects = await (await projectCommands()).listProjects(config());
    output().rows(projects.map(projectRow), projects);
  });
withProjectSettings(
  project
    .command('update')
    .argument('<id>', 'the project')
    .description("change a project's settings; those not given stay as they are (an empty value clears one)")
    .option('--ref <branch>', 'base branch the agent starts from'),
)
  .addHelpText(
    'after',
    examples(
      'docwright project update handbook --docs-root site',
      'docwright project update demo --allowed-origins https://docs.acme.dev',
    ),
  )
  .action(async (id: string, options: Parameters<typeof updateProject>[3]) => {
    const updated = await (await projectCommands()).updateProject(config(), process.env, id, options);
    output().data(updated, () => `Updated project ${id}:\n${describeProject(updated)}`);
  });
project
  .command('remove')
  .argument('<id>', 'the project')
  .description('delete a project with its jobs, their history and its keys (asks for --yes)')
  .option('--yes', 'confirm: really delete it')
  .addHelpText('after', examples('docwright project remove handbook --yes'))
  .action(async (id: string, options: { yes?: boolean }) => {
    const removed = await (await projectCommands()).removeProject(config(), id, options);
    output().data(
      { id, removed: true, ...removed },
      () => `Removed project ${id} with ${removed.jobs} job(s) and ${removed.keys} key(s)`,
    );
  });

const key = program
  .command('key')
  .description('manage API keys')
  .addHelpText('after', examples('docwright key create --project demo', 'docwright key list'));
key
  .command('create')
  .description('create an admin key (--project) or an assistant key (--domain); printed once')
  .option('--project <id>', 'project of a new admin key (svc_)')
  .option('--domain <name>', 'domain of a new assistant key (svc_dsc_)')
  .addHelpText('after', examples('docwright key create --project demo', 'docwright key create --domain demo'))
  .action(async (options: { project?: string; domain?: string }) => {
    const created = await (await keyCommands()).createKey(config(), options);
    const out = output();
    // The key alone on stdout, so that `$(docwright key create …)` is the key.
    if (program.opts<{ json?: boolean }>().json) out.data(created, () => created.key);
    else {
      out.print(created.key);
      out.note(
        `Key ${created.id} created; it is shown this once. Revoke it with: ${cli} key revoke ${created.id}`,
      );
    }
  });
key
  .command('list')
  .description('list keys: id, kind, project, domain, created, last used (never the key itself)')
  .option('--project <id>', 'only the keys of this project')
  .option('--all', 'revoked keys too')
  .addHelpText('after', examples('docwright key list', 'docwright key list --project demo --json'))
  .action(async (options: { project?: string; all?: boolean }) => {
    const keys = await (await keyCommands()).listKeys(config(), options);
    output().rows(
      keys.map((listed) => ({
        id: listed.id,
        kind: listed.kind,
        project: listed.project ?? '-',
        domain: listed.domain ?? '-',
        created: listed.createdAt,
        'last used': listed.lastUsedAt ?? 'never',
        ...(options.all ? { revoked: listed.revokedAt ?? '-' } : {}),
      })),
      keys,
    );
  });
key
  .command('revoke')
  .argument('<id|key>', 'the id `key list` shows, or the key itself')
  .description('revoke a key: every server refuses it within seconds')
  .addHelpText('after', examples('docwright key revoke k_3n5p7q9r2s4t'))
  .action(async (idOrKey: string) => {
    const revoked = await (await keyCommands()).revokeKey(config(), idOrKey);
    output().data(
      { id: revoked.id, revoked: true },
      () => `Revoked key ${revoked.id}; servers refuse it within ${revoked.effectiveWithinSeconds} s`,
    );
  });

const job = program
  .command('job')
  .description(
    'talk to a running server (--url, --key, --project or DOCWRIGHT_URL, DOCWRIGHT_KEY, DOCWRIGHT_PROJECT)',
  )
  .addHelpText(
    'after',
    examples('docwright job list --project demo --key svc_...', 'docwright job create --help'),
  );
const withRemote = (command: Command) =>
  command
    .option('--url <url>', 'server address (DOCWRIGHT_URL, default http://localhost:3000)')
    .option('--key <key>', 'admin API key (DOCWRIGHT_KEY)')
    .option('--project <id>', 'project id (DOCWRIGHT_PROJECT)');
const withWait = (command: Command) =>
  command
    .option('--wait', 'poll until the job is completed, archived or failed (progress on stderr)')
    .option('--timeout <s>', 'with --wait: give up after this many seconds (exit 124)', '600');

/** Prints a job command's result and sets the exit status: 0 completed, 1 failed or archived, 124 timed out. */
function finish(result: JobResult): void {
  output().data(result.job, () => describeJob(result.job));
  process.exitCode = exitStatus(result);
}
const reporter = { note: (text: string) => process.stderr.write(`${text}\n`), command: cli };

withWait(withRemote(job.command('create').argument('<prompt...>', 'the instruction')))
  .description('create a job')
  .option('--max-turns <n>', "the most model calls one run may make (default: the project's or the server's)")
  .option('--max-tokens <n>', 'the most input plus output tokens one run may use')
  .option('--max-cost <usd>', "the most US dollars one run may cost, from the model's price")
  .addHelpText(
    'after',
    examples(
      'docwright job create --project demo --key svc_... \'replace "Acme Cloud" with "Acme"\'',
      'DOCWRIGHT_KEY=svc_... DOCWRIGHT_PROJECT=demo docwright job create --wait \'add a page guides/faq titled "FAQ"\'',
    ),
  )
  .action(async (words: string[], options: RemoteOptions & WaitOptions & LimitOptions) =>
    finish(await jobCreate(remote(options, process.env), words.join(' '), options, reporter)),
  );
withRemote(job.command('get').argument('<id>'))
  .description('show a job and its messages')
  .addHelpText('after', examples('docwright job get --project demo --key svc_... k3n5p7q9r2s4t6u8v2wx'))
  .action(async (id: string, options: RemoteOptions) => {
    const target = remote(options, process.env);
    const found = await target.client.getJob(target.projectId, id);
    output().data(found, () => describeJob(found));
  });
withWait(
  withRemote(job.command('message').argument('<id>').argument('<prompt...>', 'the follow-up instruction')),
)
  .description('send a follow-up message to a job')
  .addHelpText(
    'after',
    examples('docwright job message --wait k3n5p7q9r2s4t6u8v2wx \'append a section "Limits" to quickstart\''),
  )
  .action(async (id: string, words: string[], options: RemoteOptions & WaitOptions) =>
    finish(await jobMessage(remote(options, process.env), id, words.join(' '), options, reporter)),
  );
withRemote(job.command('archive').argument('<id>'))
  .description('archive a job: a run in progress stops, nothing half-done is committed')
  .addHelpText('after', examples('docwright job archive k3n5p7q9r2s4t6u8v2wx'))
  .action(async (id: string, options: RemoteOptions) => {
    const target = remote(options, process.env);
    const archived = await target.client.archiveJob(target.projectId, id);
    output().data(archived, () => describeJob(archived));
  });
withRemote(job.command('list'))
  .description('list jobs, newest first')
  .addHelpText(
    'after',
    examples(
      'docwright job list --project demo --key svc_... --limit 5',
      'docwright job list --status failed',
    ),
  )
  .option('--limit <n>', 'jobs per page (1–100)', '20')
  .option('--cursor <cursor>', 'the nextCursor of a previous page')
  .addOption(new Option('--status <status>', 'only jobs in this state').choices(JOB_STATUSES))
  .action(async (options: RemoteOptions & { limit: string; cursor?: string; status?: JobStatus }) => {
    const target = remote(options, process.env);
    const page = await target.client.listJobs(target.projectId, {
      limit: Number(options.limit),
      cursor: options.cursor,
      status: options.status,
    });
    const out = output();
    // In a pipe the page stays one JSON value, as before: the cursor is part of it.
    if (out.json) return out.data(page, () => '');
    out.rows(page.jobs.map(jobRow), page);
    if (page.nextCursor) out.note(`More: ${cli} job list --cursor ${page.nextCursor}`);
  });

program
  .command('check')
  .description('check a docs folder on disk: frontmatter, MDX syntax, internal links and anchors, navigation')
  .argument(
    '[path]',
    'the folder to check (a repository or a docs folder); default: the docs root of .github/docwright.yml, else the nearest docs.json',
  )
  .option('--docs-root <dir>', 'folder of the docs inside PATH (default: PATH itself)')
  .option(
    '--docs-framework <name>',
    'docusaurus, mkdocs, vitepress, starlight or mintlify (default: found from its config file)',
  )
  .addHelpText(
    'after',
    examples(
      'docwright check',
      'docwright check docs',
      'docwright check . --docs-root docs',
      'docwright check website   # a Docusaurus site: its config folder or website/docs',
    ),
  )
  .action(async (folder: string | undefined, options: { docsRoot?: string; docsFramework?: string }) => {
    const result = await (
      await checkCommands()
    ).checkCommand(folder, {
      ...(options.docsRoot === undefined ? {} : { docsRoot: options.docsRoot }),
      ...(options.docsFramework === undefined
        ? {}
        : { docsFramework: parseFramework(options.docsFramework) }),
    });
    const out = output();
    if (result.found) out.note(result.found);
    out.print(result.output);
    // Problems found: exit 1 so that CI fails, after the list is printed.
    if (!result.ok) process.exitCode = EXIT.failed;
  });

registerImpactCommand(program, examples);

program
  .command('mcp')
  .description(
    "serve a project's docs to an AI agent over stdio (MCP): search, read, list pages, feedback, jobs",
  )
  .requiredOption('--project <id>', 'the project whose docs are served')
  .addHelpText(
    'after',
    examples('docwright mcp --project demo', 'claude mcp add docs -- docwright mcp --project demo'),
  )
  .action(async (options: { project: string }) =>
    (await import('./cli/mcp-command.js')).runMcp(config(), options.project, packageVersion()),
  );

program
  .command('llms')
  .description("write llms.txt, llms-full.txt and each page's Markdown for a docs site on disk")
  .requiredOption('--docs <dir>', "the docs folder: the pages' folder or the framework's config folder")
  .requiredOption('--site-url <url>', 'where the written folder is served; llms.txt links the pages under it')
  .requiredOption('--out <dir>', 'the folder to write (made if missing)')
  .option('--name <name>', "the site's name, when its config names none (default: the docs folder's name)")
  .option(
    '--docs-framework <name>',
    'docusaurus, mkdocs, vitepress, starlight or mintlify (default: found from its config file)',
  )
  .addHelpText(
    'after',
    examples(
      'docwright llms --docs docs --site-url https://docs.acme.dev/ --out build/llms',
      'docwright llms --docs website --site-url https://acme.dev/ --out website/build',
    ),
  )
  .action(
    async (options: {
      docs: string;
      siteUrl: string;
      out: string;
      name?: string;
      docsFramework?: string;
    }) => {
      const { docsFramework, ...rest } = options;
      const written = await (
        await import('./cli/llms-command.js')
      ).writeLlmsFiles({
        ...rest,
        ...(docsFramework === undefined ? {} : { docsFramework: parseFramework(docsFramework) }),
      });
      output().data(
        written,
        () => `Wrote llms.txt, llms-full.txt and ${written.pages} page(s) to ${written.out}`,
      );
    },
  );

registerGapsCommand(program, examples, process.env);

function projectRow(listed: ProjectListing): Record<string, string> {
  return {
    id: listed.id,
    repository: listed.repository,
    ref: listed.ref,
    'docs root': listed.docsRoot || '.',
    domain: listed.domain ?? '-',
    origins: listed.allowedOrigins ?? '*',
    state: listed.enabled ? 'enabled' : 'disabled',
  };
}

function describeProject(listed: ProjectListing): string {
  const row = { ...projectRow(listed), 'docs framework': listed.docsFramework ?? 'found from its config' };
  return Object.entries(row)
    .map(([name, value]) => `  ${name}: ${value}`)
    .join('\n');
}

function packageVersion(): string {
  // src/cli.ts and lib/cli.js are both one folder below package.json.
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

function port(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65535)
    throw new InvalidArgumentError('must be a port number');
  return number;
}

// Probot's setup flow writes the new app's credentials to .env: read it, as `probot run` does. Values
// already in the environment win.
if (existsSync('.env')) process.loadEnvFile('.env');

program.parseAsync(process.argv).catch((error: unknown) => {
  const message =
    error instanceof ApiUnreachableError
      ? `${error.message}.\nIs \`docwright serve\` running there? Start it, or pass --url (or set DOCWRIGHT_URL) with the server's address.`
      : error instanceof ApiError
        ? `${error.message} (HTTP ${error.status})`
        : error instanceof Error
          ? error.message
          : String(error);
  process.stderr.write(`docwright: ${message}\n`);
  process.exit(error instanceof UsageError ? EXIT.usage : EXIT.failed);
});
