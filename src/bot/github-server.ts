import type { Config } from '../config/config.js';
import type { Logger } from '../core/logger.js';
import { createWebhookMiddleware, type FrontDoorOptions } from './front-door.js';
import type { GitHubBot } from './index.js';
import { lazySetupHandler, startWebhookProxy } from './probot-setup.js';
import type { DeliveryOutcome } from './webhook-receiver.js';

/** What `serve` needs for GitHub: the front door, lines for the banner, and what to start. */
export interface GitHubServer {
  door: FrontDoorOptions;
  banner: string[];
  /** Starts the status sweep and, in development, the smee.io webhook proxy. */
  start(): Promise<void>;
}

/**
 * Decides how `serve` talks to GitHub: a GitHub App receiving webhooks; token mode
 * (pull requests with GITHUB_TOKEN, webhooks only if a repository webhook has a secret); or,
 * with no APP_ID outside production, Probot's setup flow to register the app.
 */
export async function prepareGitHubServer(
  config: Config,
  bot: GitHubBot | null,
  logger: Logger,
  onDelivery?: (outcome: DeliveryOutcome) => void,
  /** How the banner spells the command line: `docwright`, or `npx docwright` when it is not on PATH. */
  cli = 'docwright',
): Promise<GitHubServer> {
  const { github } = config;
  const path = github.webhookPath;
  const webhooks =
    bot?.probot && github.webhookSecret
      ? await createWebhookMiddleware(bot.probot, bot.app, {
          path,
          secret: github.webhookSecret,
          maxBytes: github.webhookMaxBytes,
          logger: logger.child({ name: 'webhooks' }),
          onDelivery,
        })
      : null;
  const setupWanted = github.appId === undefined && !github.production;
  const setup = setupWanted
    ? lazySetupHandler({
        host: config.host ?? 'localhost',
        port: config.port,
        publicUrl: config.publicUrl,
        maxBodyBytes: config.maxBodyBytes,
        logger: logger.child({ name: 'setup' }),
      })
    : null;
  return {
    door: { webhooks, webhookPath: path, setup, logger },
    banner: bannerLines(config, webhooks !== null, setupWanted, cli),
    async start() {
      if (setupWanted) {
        // Whoever reaches the flow first registers the app and gets its credentials written to .env.
        // Said after the banner, which is where a person starting the server looks first.
        logger.warn(
          { url: `${config.publicUrl}/probot` },
          'the GitHub App setup flow is open to anyone who can reach this server until APP_ID is set',
        );
      }
      bot?.watcher.start();
      if (webhooks && github.webhookProxyUrl) {
        await startWebhookProxy({ url: github.webhookProxyUrl, port: config.port, path, logger });
      }
    },
  };
}

function bannerLines(config: Config, webhooks: boolean, setup: boolean, cli: string): string[] {
  const { github, publicUrl } = config;
  const lines: string[] = [];
  if (github.appId !== undefined)
    lines.push(`GitHub App ${github.appId}: webhooks on ${publicUrl}${github.webhookPath}`);
  if (github.token) {
    lines.push(
      `GitHub token mode: owner/repo projects (${cli} project add --repository owner/repo) open pull requests with GITHUB_TOKEN${webhooks && github.appId === undefined ? `; repository webhooks on ${publicUrl}${github.webhookPath}` : ''}`,
    );
  }
  if (github.webhookProxyUrl && webhooks) lines.push(`Webhooks forwarded from ${github.webhookProxyUrl}`);
  if (setup) {
    lines.push(
      `Register the GitHub App: ${publicUrl}/probot (Probot's setup flow writes APP_ID, PRIVATE_KEY and WEBHOOK_SECRET to .env; then restart with: npm start, which reads .env)`,
    );
  }
  return lines;
}
