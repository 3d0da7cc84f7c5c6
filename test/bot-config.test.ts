import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentPrompt } from '../src/bot/replies.js';
import { DEFAULT_SETTINGS, parseSettings } from '../src/github/settings.js';
import { ConfigError } from '../src/core/errors.js';
import { loadConfig } from '../src/config/config.js';
import { PRIVATE_KEY } from './fixtures/bot/harness.js';

describe('GitHub settings from the environment', () => {
  it('reads GHE_HOST and GHE_PROTOCOL as Probot does: /api/v3 for the API, the host for links', () => {
    expect(loadConfig({}).github.hosts).toEqual({
      apiUrl: 'https://api.github.com',
      webUrl: 'https://github.com',
    });
    expect(loadConfig({ GHE_HOST: 'ghe.example.com' }).github.hosts).toEqual({
      apiUrl: 'https://ghe.example.com/api/v3',
      webUrl: 'https://ghe.example.com',
    });
    expect(loadConfig({ GHE_HOST: '127.0.0.1:8080', GHE_PROTOCOL: 'http' }).github.hosts).toEqual({
      apiUrl: 'http://127.0.0.1:8080/api/v3',
      webUrl: 'http://127.0.0.1:8080',
    });
    expect(() => loadConfig({ GHE_HOST: 'https://ghe.example.com' })).toThrow(
      /GHE_HOST: must be a host name/,
    );
    expect(() => loadConfig({ GHE_HOST: 'ghe.example.com', GHE_PROTOCOL: 'ftp' })).toThrow(/GHE_PROTOCOL/);
  });

  it('reads the app, the webhook and token mode', () => {
    const config = loadConfig({
      APP_ID: '12',
      PRIVATE_KEY,
      WEBHOOK_SECRET: 's3cret',
      WEBHOOK_PROXY_URL: 'https://smee.io/abc',
      GITHUB_TOKEN: 'ghp_x',
      NODE_ENV: 'production',
    });
    expect(config.github).toMatchObject({
      appId: 12,
      webhookSecret: 's3cret',
      webhookProxyUrl: 'https://smee.io/abc',
      webhookPath: '/api/github/webhooks',
      token: 'ghp_x',
      production: true,
    });
    expect(config.github.privateKey).toBe(`${PRIVATE_KEY.trim()}\n`);
    expect(loadConfig({}).github).toMatchObject({ appId: undefined, token: undefined, production: false });
  });

  it('accepts the key as one line with \\n, as base64, or from PRIVATE_KEY_PATH', () => {
    const expected = `${PRIVATE_KEY.trim()}\n`;
    const env = { APP_ID: '1', WEBHOOK_SECRET: 'x' };
    expect(loadConfig({ ...env, PRIVATE_KEY: PRIVATE_KEY.replace(/\n/g, '\\n') }).github.privateKey).toBe(
      expected,
    );
    expect(
      loadConfig({ ...env, PRIVATE_KEY: Buffer.from(PRIVATE_KEY).toString('base64') }).github.privateKey,
    ).toBe(expected);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docwright-key-')), 'app.pem');
    fs.writeFileSync(file, PRIVATE_KEY);
    expect(loadConfig({ ...env, PRIVATE_KEY_PATH: file }).github.privateKey).toBe(expected);
  });

  it('refuses an incomplete app in words, without echoing secrets', () => {
    expect(() => loadConfig({ APP_ID: '1', WEBHOOK_SECRET: 'x' })).toThrow(/PRIVATE_KEY or PRIVATE_KEY_PATH/);
    expect(() => loadConfig({ APP_ID: '1', PRIVATE_KEY })).toThrow(/WEBHOOK_SECRET is missing/);
    const bad = () => loadConfig({ APP_ID: '1', WEBHOOK_SECRET: 'x', PRIVATE_KEY: 'not-a-key-but-a-secret' });
    expect(bad).toThrow(ConfigError);
    expect(bad).not.toThrow(/not-a-key-but-a-secret/);
    expect(() => loadConfig({ WEBHOOK_PATH: 'hooks' })).toThrow(/WEBHOOK_PATH/);
  });
});

describe('.github/docwright.yml', () => {
  it('has defaults for a repository without the file', () => {
    expect(DEFAULT_SETTINGS).toMatchObject({
      command: '/docs',
      docsRoot: '',
      baseBranch: null,
      requiredPermission: 'write',
      model: null,
      branchPrefix: 'docwright/job-',
    });
    expect(DEFAULT_SETTINGS.allowedBots).toEqual({ all: false, logins: new Set() });
  });

  it('reads the limits of jobs, and names a limit that is wrong', () => {
    expect(parseSettings({ budget: { max_turns: 3, max_tokens: 50_000, max_cost: 1.5 } }).budget).toEqual({
      maxTurns: 3,
      maxTokens: 50_000,
      maxCostUsd: 1.5,
    });
    expect(DEFAULT_SETTINGS.budget).toEqual({});
    expect(() => parseSettings({ budget: { max_turns: 0 } })).toThrow(
      '.github/docwright.yml is not valid (budget.max_turns): budget.max_turns must be at least 1',
    );
    expect(() => parseSettings({ budget: { max_steps: 3 } })).toThrow(/budget.*max_steps/);
  });

  it('reads every key', () => {
    const settings = parseSettings({
      command: '/write',
      docs_root: './docs/',
      base_branch: 'develop',
      required_permission: 'maintain',
      allowed_bots: ['renovate[bot]', 'dependabot'],
      model: 'openai:gpt-5-mini',
      branch_prefix: 'bots/docs-',
    });
    expect(settings).toMatchObject({
      command: '/write',
      docsRoot: 'docs',
      baseBranch: 'develop',
      requiredPermission: 'maintain',
      model: 'openai:gpt-5-mini',
      branchPrefix: 'bots/docs-',
    });
    expect(settings.allowedBots).toEqual({ all: false, logins: new Set(['renovate', 'dependabot']) });
    expect(parseSettings({ allowed_bots: '*' }).allowedBots).toEqual({ all: true });
  });

  it('names the key that is wrong', () => {
    expect(() => parseSettings({ docs_root: '../elsewhere' })).toThrow(
      /\(docs_root\): The docs root "\.\.\/elsewhere" cannot be used: paths may not contain "\.\."/,
    );
    expect(() => parseSettings({ docs_root: '.github' })).toThrow(/\(docs_root\): .*never written/);
    expect(() => parseSettings({ writable: ['README.md', ''] })).toThrow(
      /\(writable\.1\): must not be empty/,
    );
  });

  it('reads writable: as one glob or a list, and the docs root however it is typed', () => {
    expect(parseSettings({ writable: 'README.md' }).writable).toEqual(['README.md']);
    expect(parseSettings({ writable: ['README.md', 'CHANGELOG.md'] }).writable).toEqual([
      'README.md',
      'CHANGELOG.md',
    ]);
    expect(parseSettings(null).writable).toEqual([]);
    for (const typed of ['docs', './docs/', '/docs', 'docs/'])
      expect(parseSettings({ docs_root: typed }).docsRoot).toBe('docs');
    expect(() => parseSettings({ command: 'docs' })).toThrow(/\(command\)/);
    expect(() => parseSettings({ branch_prefix: 'a..b/' })).toThrow(/\(branch_prefix\)/);
    expect(() => parseSettings({ comand: '/docs' })).toThrow(/comand/);
  });
});

describe('small pieces', () => {
  it('puts a review comment’s place after the instruction', () => {
    expect(agentPrompt('fix it', null)).toBe('fix it');
    expect(agentPrompt('fix it', { path: 'docs/a.md', line: 3 })).toBe(
      'fix it\n\n(This request is a review comment on `docs/a.md`, line 3.)',
    );
  });
});
