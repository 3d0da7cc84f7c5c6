#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import { checkCommand } from './cli/check-command.js';
import { registerImpactCommand } from './cli/impact-command.js';
import { addProject, createKey, listProjects } from './cli/local-commands.js';
import { jobCreate, jobMessage, remote, type RemoteOptions, type WaitOptions } from './cli/job-commands.js';
import { runServe } from './cli/serve.js';
import { ApiError, ApiUnreachableError } from './client/index.js';
import { loadConfig, type Config } from './config/config.js';

/** Every command's --help ends with examples that can be pasted as they are. */
const examples = (...lines: string[]): string =>
  `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}`;

/** The command line: the only place besides config.ts that reads process.env. */
const program = new Command()
  .name('docwright')
  .description('A documentation agent for GitHub: plain-words requests become docs pull requests.')
  .option(
    '--data-dir <dir>',
    'where the database and demo repository live (DOCWRIGHT_DATA_DIR, default .docwright)',
  )
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
const print = (text: string): void => {
  if (text !== '') process.stdout.write(`${text}\n`);
};
const printJson = (value: unknown): void => print(JSON.stringify(value, null, 2));

program
  .command('serve')
  .description('run the API and the job worker (and the demo project on a first start)')
  .option('--port <n>', 'port to listen on (PORT, default 3000)', port)
  .option('--host <host>', 'address to listen on (HOST, default all)')
  .addHelpText(
    'after',
    examples('docwright serve', 'docwright --data-dir /var/lib/docwright serve --port 8080'),
  )
  .action(async (options: { port?: number; host?: string }) => runServe(config(options), process.env));

const project = program
  .command('project')
  .description('manage projects (repositories the agent works on)')
  .addHelpText('after', examples('docwright project list', 'docwright project add --help'));
project
  .command('add')
  .description('add a project backed by a local git repository')
  .requiredOption('--id <id>', 'project id, used in API paths')
  .requiredOption(
    '--repository <path|owner/repo>',
    'a local git repository, or a GitHub repository (token mode)',
  )
  .requiredOption('--ref <branch>', 'base branch the agent starts from')
  .option('--docs-root <dir>', 'folder of the docs inside the repository (default: the root)')
  .option(
    '--writable <globs>',
    "files outside the write policy's defaults jobs may write, comma-separated globs (e.g. README.md)",
  )
  .option('--domain <name>', 'assistant domain this project answers for')
  .option('--model <model>', 'model for this project: builtin, openai:<model>, anthropic:<model>')
  .option(
    '--allowed-origins <list>',
    'browser origins allowed to call the assistant, comma-separated (default: any)',
  )
  .addHelpText(
    'after',
    examples(
      'docwright project add --id handbook --repository ~/src/handbook --ref main --docs-root docs --domain handbook',
      'docwright project add --id site --repository acme/site --ref main   # GitHub, token mode',
    ),
  )
  .action(async (options: Parameters<typeof addProject>[2]) =>
    print(await addProject(config(), process.env, options)),
  );
project
  .command('list')
  .description('list projects, one a line, id first')
  .addHelpText('after', examples('docwright project list'))
  .action(async () => print(await listProjects(config())));

program
  .command('key')
  .description('manage API keys')
  .addHelpText('after', examples('docwright key create --project demo'))
  .command('create')
  .description('create an admin key (--project) or an assistant key (--domain); printed once')
  .option('--project <id>', 'project of a new admin key (svc_)')
  .option('--domain <name>', 'domain of a new assistant key (svc_dsc_)')
  .addHelpText('after', examples('docwright key create --project demo', 'docwright key create --domain demo'))
  .action(async (options: { project?: string; domain?: string }) =>
    print(await createKey(config(), options)),
  );

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
    .option('--wait', 'poll until the job is completed, archived or failed')
    .option('--timeout <s>', 'with --wait: give up after this many seconds', '600');

withWait(withRemote(job.command('create').argument('<prompt...>', 'the instruction')))
  .description('create a job')
  .addHelpText(
    'after',
    examples(
      'docwright job create --project demo --key svc_... \'replace "Acme Cloud" with "Acme"\'',
      'DOCWRIGHT_KEY=svc_... DOCWRIGHT_PROJECT=demo docwright job create --wait \'add a page guides/faq titled "FAQ"\'',
    ),
  )
  .action(async (words: string[], options: RemoteOptions & WaitOptions) =>
    printJson(await jobCreate(remote(options, process.env), words.join(' '), options)),
  );
withRemote(job.command('get').argument('<id>'))
  .description('show a job and its messages')
  .addHelpText('after', examples('docwright job get --project demo --key svc_... k3n5p7q9r2s4t6u8v2wx'))
  .action(async (id: string, options: RemoteOptions) => {
    const target = remote(options, process.env);
    printJson(await target.client.getJob(target.projectId, id));
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
    printJson(await jobMessage(remote(options, process.env), id, words.join(' '), options)),
  );
withRemote(job.command('list'))
  .description('list jobs, newest first')
  .addHelpText('after', examples('docwright job list --project demo --key svc_... --limit 5'))
  .option('--limit <n>', 'jobs per page (1–100)', '20')
  .option('--cursor <cursor>', 'the nextCursor of a previous page')
  .action(async (options: RemoteOptions & { limit: string; cursor?: string }) => {
    const target = remote(options, process.env);
    printJson(
      await target.client.listJobs(target.projectId, {
        limit: Number(options.limit),
        cursor: options.cursor,
      }),
    );
  });

program
  .command('check')
  .description('check a docs folder on disk: frontmatter, MDX syntax, internal links and anchors, navigation')
  .argument('[path]', 'the folder to check (a repository or a docs folder)', '.')
  .option('--docs-root <dir>', 'folder of the docs inside PATH (default: PATH itself)')
  .addHelpText('after', examples('docwright check docs', 'docwright check . --docs-root docs'))
  .action(async (folder: string, options: { docsRoot?: string }) => {
    const result = await checkCommand(folder, options);
    print(result.output);
    // Problems found: exit 1 so that CI fails, after the list is printed.
    if (!result.ok) process.exitCode = 1;
  });

registerImpactCommand(program, examples);

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
  process.exit(1);
});
