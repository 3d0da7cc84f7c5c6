import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isBot, mayTrigger, parseAllowedBots } from '../src/github/index.js';
import { getPermissionLevel, hasPermission, PERMISSION_LEVELS } from '../src/github-api/permission.js';
import { quietOctokit } from './helpers/github-recorder.js';

const API = 'https://api.github.com';
const octokit = quietOctokit(API);
const repository = { owner: 'Codertocat', repo: 'Hello-World' };

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  expect(nock.pendingMocks()).toEqual([]);
  nock.cleanAll();
});

describe('permission levels', () => {
  it('orders none < read < triage < write < maintain < admin', () => {
    expect(PERMISSION_LEVELS).toEqual(['none', 'read', 'triage', 'write', 'maintain', 'admin']);
    expect(hasPermission('write', 'write')).toBe(true);
    expect(hasPermission('maintain', 'write')).toBe(true);
    expect(hasPermission('triage', 'write')).toBe(false);
    expect(hasPermission('none', 'none')).toBe(true);
    expect(hasPermission('admin', 'maintain')).toBe(true);
  });

  it('reads role_name, which tells triage and maintain apart from read and write', async () => {
    nock(API)
      .get('/repos/Codertocat/Hello-World/collaborators/triager/permission')
      .reply(200, { permission: 'read', role_name: 'triage', user: { login: 'triager' } })
      .get('/repos/Codertocat/Hello-World/collaborators/keeper/permission')
      .reply(200, { permission: 'write', role_name: 'maintain', user: { login: 'keeper' } });
    expect(await getPermissionLevel(octokit, repository, 'triager')).toBe('triage');
    expect(await getPermissionLevel(octokit, repository, 'keeper')).toBe('maintain');
  });

  it('falls back to the base permission for a custom role, and to none for an unknown user', async () => {
    nock(API)
      .get('/repos/Codertocat/Hello-World/collaborators/writer/permission')
      .reply(200, { permission: 'write', role_name: 'docs-editors', user: { login: 'writer' } })
      .get('/repos/Codertocat/Hello-World/collaborators/nobody/permission')
      .reply(404, { message: 'Not Found' });
    expect(await getPermissionLevel(octokit, repository, 'writer')).toBe('write');
    expect(await getPermissionLevel(octokit, repository, 'nobody')).toBe('none');
  });

  it('lets other GitHub errors through', async () => {
    nock(API)
      .get('/repos/Codertocat/Hello-World/collaborators/someone/permission')
      .reply(403, { message: 'Resource not accessible by integration' });
    await expect(getPermissionLevel(octokit, repository, 'someone')).rejects.toMatchObject({ status: 403 });
  });
});

describe('bots', () => {
  it('recognises bots by type or by the [bot] suffix', () => {
    expect(isBot({ login: 'dependabot[bot]', type: 'Bot' })).toBe(true);
    expect(isBot({ login: 'renovate[bot]', type: 'User' })).toBe(true);
    expect(isBot({ login: 'Codertocat', type: 'User' })).toBe(false);
  });

  it('lets people through, and bots only when listed, with or without [bot], or with *', () => {
    const person = { login: 'Codertocat', type: 'User' };
    const renovate = { login: 'renovate[bot]', type: 'Bot' };
    expect(mayTrigger(person, parseAllowedBots(''))).toBe(true);
    expect(mayTrigger(renovate, parseAllowedBots(''))).toBe(false);
    expect(mayTrigger(renovate, parseAllowedBots('dependabot, Renovate'))).toBe(true);
    expect(mayTrigger(renovate, parseAllowedBots('dependabot[bot]\nrenovate[bot]'))).toBe(true);
    expect(mayTrigger(renovate, parseAllowedBots('dependabot'))).toBe(false);
    expect(mayTrigger(renovate, parseAllowedBots('*'))).toBe(true);
  });
});
