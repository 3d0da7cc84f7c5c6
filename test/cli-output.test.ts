import { describe, expect, it } from 'vitest';
import { describeJob, jobRow } from '../src/cli/job-view.js';
import { createOutput } from '../src/cli/output.js';
import type { Job } from '../src/protocol/agent-job.js';

function stream(isTTY: boolean) {
  let text = '';
  return { isTTY, write: (chunk: string) => (text += chunk), text: () => text };
}

const job: Job = {
  id: 'k3n5p7q9r2s4t6u8v2wx',
  status: 'completed',
  source: { repository: 'https://github.com/acme/docs', ref: 'docwright/job-k3n5p7q9' },
  model: 'builtin',
  prLink: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  archivedAt: null,
  changed: false,
  reply: 'I did not understand the request.\nTry: replace "a" with "b".',
  messages: [
    { role: 'user', content: 'please make the docs nicer', createdAt: '2026-11-26T10:00:00.000Z' },
    {
      role: 'agent',
      content: 'I did not understand the request.\nTry: replace "a" with "b".',
      createdAt: '2026-11-26T10:00:02.000Z',
      changed: false,
    },
  ],
};

describe('what the CLI prints', () => {
  it('shows a person a job: its outcome, and the reply with its line breaks, not \\n', () => {
    const out = stream(true);
    createOutput({}, out).data(job, () => describeJob(job));
    expect(out.text()).toContain('Job k3n5p7q9r2s4t6u8v2wx: completed, nothing was changed');
    expect(out.text()).toContain('\n  I did not understand the request.\n  Try: replace "a" with "b".');
    expect(out.text()).not.toContain('\\n');
  });

  it('prints JSON to a pipe and with --json at a terminal', () => {
    const piped = stream(false);
    createOutput({}, piped).data(job, () => describeJob(job));
    expect(JSON.parse(piped.text())).toEqual(job);
    const asked = stream(true);
    createOutput({ json: true }, asked).data(job, () => describeJob(job));
    expect(JSON.parse(asked.text())).toEqual(job);
  });

  it('prints lists as columns at a terminal and tab-separated lines in a pipe', () => {
    const rows = [jobRow(job), jobRow({ ...job, id: 'x', status: 'failed', changed: null })];
    const terminal = stream(true);
    createOutput({}, terminal).rows(rows, [job]);
    expect(terminal.text().split('\n')[0]).toMatch(
      /^ID\s+STATUS\s+CHANGED\s+CREATED\s+PULL REQUEST\s+USAGE$/,
    );
    expect(terminal.text().split('\n')[2]).toMatch(/^x\s+failed\s+-\s+/);
    const piped = stream(false);
    createOutput({}, piped).rows(rows, [job]);
    expect(piped.text()).toBe(
      'k3n5p7q9r2s4t6u8v2wx\tcompleted\tno\t2026-11-26T10:00:00.000Z\t-\t-\nx\tfailed\t-\t2026-11-26T10:00:00.000Z\t-\t-\n',
    );
  });
});
