import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Config } from '../config/config.js';
import { createMcpServer } from '../server/mcp-server.js';
import { createService } from '../service/service.js';
import { UsageError } from './exit-codes.js';

/**
 * `docwright mcp --project ID`: the project's MCP server over stdio, for an agent on this machine.
 * It reads the project's docs from the data directory as `serve` does and runs as the user: no key,
 * and the job tools are offered (a worker runs the jobs, beside any `serve` on the same data).
 * Stdout carries the protocol alone; logs go to stderr.
 */
export async function runMcp(config: Config, projectId: string, version: string): Promise<void> {
  const service = await createService(config);
  const project = await service.store.projects.get(projectId);
  if (!project || project.disabled_at) {
    await service.close();
    throw new UsageError(
      project
        ? `Project ${projectId} is disabled`
        : `No project ${projectId} in ${config.dataDir}; \`project list\` shows the projects there`,
    );
  }
  service.worker.start();
  const server = createMcpServer(
    project,
    { keyId: null, admin: true },
    {
      store: service.store,
      assistant: service.assistant,
      jobs: service.jobs,
      logger: service.logger,
      version,
    },
  );
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    void server
      .close()
      .then(() => service.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        service.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  // The client ends the session by closing our stdin, or by a signal.
  process.stdin.once('end', shutdown);
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  await server.connect(new StdioServerTransport());
  service.logger.info({ project: project.id }, 'MCP server on stdio');
}
