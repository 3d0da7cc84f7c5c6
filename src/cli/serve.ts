import { serve, type ServerType } from '@hono/node-server';
import { createServerWithFrontDoor, type FrontDoorOptions } from '../bot/front-door.js';
import { prepareGitHubServer } from '../bot/github-server.js';
import type { Config } from '../config/config.js';
import { ConfigError } from '../core/errors.js';
import { DEMO_DOMAIN, ensureDemo, type DemoSetup } from './demo.js';
import type { GitEnvironment } from '../forge/git-command.js';
import { removeStaleCommitFolders } from '../forge/git-commit.js';
import { createService, type Service } from '../service/service.js';
import { commandName } from './invocation.js';

/**
 * `docwright serve`: the GitHub App (Probot's webhook middleware), the API and the worker in one
 * process, until SIGTERM or SIGINT.
 */
export async function runServe(config: Config, environment: GitEnvironment): Promise<void> {
  const service = await createService(config);
  const leftovers = await removeStaleCommitFolders();
  // The demo lives in a local repository of one machine: replicas on a shared PostgreSQL skip it.
  const demo = config.databaseUrl ? null : await ensureDemo(service.store, config.dataDir, environment);
  const cli = commandName(environment);
  const github = await prepareGitHubServer(
    config,
    service.github,
    service.logger,
    (outcome) => service.metrics?.webhookDeliveries.inc({ outcome }),
    cli,
  );
  let server: ServerType;
  try {
    server = await listen(service, github.door);
  } catch (error) {
    await service.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new ConfigError(`Port ${config.port} is in use: pass --port <n> or set PORT to another port`, {
        cause: error,
      });
    }
    throw error;
  }
  service.worker.start();
  // The banner first: it is what a person starting the server reads, before any log line.
  printBanner(service, demo, github.banner, cli);
  if (leftovers.length > 0) {
    service.logger.info(
      { folders: leftovers.length },
      'removed temporary commit folders of interrupted runs',
    );
  }
  await github.start();

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    service.logger.info({ signal }, 'shutting down: finishing or releasing running jobs');
    server.close();
    service
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        service.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

function listen(service: Service, door: FrontDoorOptions): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: service.app.fetch,
        port: service.config.port,
        hostname: service.config.host,
        createServer: createServerWithFrontDoor(door),
      },
      () => resolve(server),
    );
    server.once('error', reject);
  });
}

function printBanner(service: Service, demo: DemoSetup | null, github: string[], cli: string): void {
  const url = service.config.publicUrl;
  const lines = [`docwright is serving on ${url} (data in ${service.config.dataDir})`, ...github];
  if (demo) {
    lines.push(`Demo project: ${demo.projectId} (repository ${demo.repository})`);
    if (demo.keys) {
      lines.push(
        `Admin key (shown once):     ${demo.keys.admin}`,
        `Assistant key (shown once): ${demo.keys.assistant}`,
        `Chat with the docs: ${url}/?domain=${encodeURIComponent(DEMO_DOMAIN)}&key=${demo.keys.assistant}`,
        'Create a job:',
        `  curl -s -X POST ${url}/v2/agent/${demo.projectId}/job -H 'Authorization: Bearer ${demo.keys.admin}' -H 'Content-Type: application/json' -d '{"prompt":"append a section \\"Try it\\" to quickstart with \\"This section was written by my first docwright job.\\""}'`,
      );
    } else {
      lines.push(
        'Keys were printed at the first start. Make a new one with:',
        `  ${cli} --data-dir ${service.config.dataDir} key create --project ${demo.projectId}`,
      );
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
