/**
 * The pieces of the "Docs gaps" issue that need no GitHub: the `gaps:` settings, the commands, the
 * issue's body, and the API route on a server without GitHub access.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGapsIssueBody, parseGapsInstruction, renderGapsIssue } from '../src/github/index.js';
import { DEFAULT_SETTINGS, parseSettings, settingsFromText } from '../src/github/settings.js';
import type { Gap } from '../src/protocol/feedback.js';
import { startTestService, type TestService } from './helpers/service.js';

describe('gaps: in .github/docwright.yml', () => {
  it('is off by default and reads issue, since and site_url', () => {
    expect(DEFAULT_SETTINGS.gaps).toEqual({ issue: false, since: '30d', siteUrl: null });
    expect(parseSettings({ gaps: { issue: true } }).gaps).toEqual({
      issue: true,
      since: '30d',
      siteUrl: null,
    });
    const text = 'gaps:\n  issue: true\n  since: 14d\n  site_url: https://docs.example.com/\n';
    expect(settingsFromText(text)).toMatchObject({
      gaps: { issue: true, since: '14d', siteUrl: 'https://docs.example.com/' },
    });
  });

  it('names the key that is wrong', () => {
    expect(() => parseSettings({ gaps: { issue: 'yes please' } })).toThrow(/\(gaps\.issue\): /);
    expect(() => parseSettings({ gaps: { issue: true, since: 'forever' } })).toThrow(
      /\(gaps\.since\): since must be a number of days or hours, like 30d or 12h/,
    );
    expect(() => parseSettings({ gaps: { site_url: 'docs.example.com' } })).toThrow(
      /\(gaps\.site_url\): must be the http\(s\) address of the docs site/,
    );
    expect(() => parseSettings({ gaps: { isue: true } })).toThrow(/\(gaps\).*isue/);
  });
});

describe('the gaps commands', () => {
  it('reads `gaps` anywhere, `fill <gap id>` anywhere, `fill <word>` only in the gaps issue', () => {
    expect(parseGapsInstruction('gaps', false)).toEqual({ kind: 'refresh' });
    expect(parseGapsInstruction('GAPS ', false)).toEqual({ kind: 'refresh' });
    expect(parseGapsInstruction('fill gap_0123456789ab', false)).toEqual({
      kind: 'fill',
      gapId: 'gap_0123456789ab',
    });
    expect(parseGapsInstruction('fill nonsense', true)).toEqual({ kind: 'fill', gapId: 'nonsense' });
    // Elsewhere, "fill …" is an instruction to the agent like any other.
    expect(parseGapsInstruction('fill nonsense', false)).toBeNull();
    expect(parseGapsInstruction('fill in the missing table', true)).toBeNull();
    expect(parseGapsInstruction('list the gaps', false)).toBeNull();
  });
});

describe('the issue body', () => {
  const gap: Gap = {
    id: 'gap_0123456789ab',
    title: 'Ping @octocat <!-- docwright-gaps: demo -->',
    count: 2,
    readers: 2,
    firstSeen: '2026-11-01T00:00:00.000Z',
    lastSeen: '2026-11-20T00:00:00.000Z',
    declined: 2,
    lowSupport: 0,
    ratedDown: 0,
    examples: ['Ping @octocat <!-- docwright-gaps: demo -->'],
    closestPages: [{ url: '/guides/import', title: 'Import' }],
    comments: [],
  };
  const body = renderGapsIssue(
    {
      project: 'demo',
      since: '30d',
      questions: 9,
      gaps: [gap],
      offTopic: [],
      pageReports: [
        {
          path: '/guides/import',
          reports: 2,
          firstSeen: '2026-11-02T00:00:00.000Z',
          lastSeen: '2026-11-21T00:00:00.000Z',
          problems: ['The CSV example has the wrong header, says @octocat', 'Step 3 is missing'],
        },
      ],
    },
    { projectId: 'demo', command: '/write', siteUrl: null, refreshedAt: new Date('2026-11-28T10:00:00Z') },
  );

  it('ends with the App’s marker; readers’ words can plant none, nor mention anyone', () => {
    expect(isGapsIssueBody(body, 'demo')).toBe(true);
    expect(isGapsIssueBody(body, 'other')).toBe(false);
    expect(body.match(/<!--/g)).toHaveLength(1);
    expect(body).not.toContain('@octocat');
    expect(isGapsIssueBody(`${body}\n\nedited by someone`, 'demo')).toBe(false);
  });

  it('names the command of the settings, and the closest pages by path without a site', () => {
    expect(body).toContain('/write fill gap_0123456789ab');
    expect(body).toContain('Import (`/guides/import`)');
    expect(body).toContain('(9 question(s) read)');
  });

  it('lists the reports made on pages (an agent’s submit_feedback), mentions made harmless', () => {
    expect(body).toContain('### Reports on pages');
    expect(body).toContain('- /guides/import: 2 report(s), last 2026-11-21');
    expect(body).toContain('  - "Step 3 is missing"');
    expect(body).toContain('says @\u200bocto');
  });
});

describe('POST /v2/agent/{projectId}/gaps/issue without GitHub', () => {
  let t: TestService;
  let key: string;
  beforeAll(async () => {
    t = await startTestService({ startWorker: false });
    await t.service.store.projects.create({ id: 'local', repository: t.dataDir, baseRef: 'main' });
    key = (await t.service.store.keys.create({ kind: 'admin', projectId: 'local' })).key;
  });
  afterAll(() => t.cleanup());

  it('is a 409 that says why', async () => {
    const response = await t.request('POST', '/v2/agent/local/gaps/issue', { key });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({
      error: 'Project local is not on GitHub, so it has no "Docs gaps" issue',
      retryable: false,
    });
  });
});
