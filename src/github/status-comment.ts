import { dollars, type Usage } from '../core/usage.js';
import { jobMarker, neutralizeMarkers } from './job-marker.js';
import type { ChangedFiles } from '../github-api/pull-request-files.js';

/** What a status comment says: working, PR opened, no changes, failed, timed out; a finished run may add what it spent. */
export type StatusView = StatusState & { usage?: Usage | null };

type StatusState =
  | { state: 'working'; jobId: string; followUp: boolean; waiting: boolean }
  | {
      state: 'pr-opened';
      jobId: string;
      prLink: string;
      /** Paths of the changed files when GitHub could list them, else null. */
      files: ChangedFiles | null;
      summary: string | null;
    }
  | { state: 'no-changes'; jobId: string; reply: string | null }
  | { state: 'committed'; jobId: string; branch: string; summary: string | null }
  | { state: 'failed'; jobId: string | null; reason: string }
  | { state: 'timed-out'; jobId: string; minutes: number }
  | { state: 'stopped'; jobId: string; reason: string }
  | { state: 'archived'; jobId: string; prLink: string | null };

/** Links the footer can carry: the workflow run (Action) or the app's page. */
export interface StatusLinks {
  run?: string;
}

const MAX_TEXT = 8000;
const FILES_SHOWN = 10;

/**
 * The status comment body for a state, ending with the hidden job marker so a later command in the
 * thread finds the job. Text from the agent or the server is quoted, shortened and cannot add a
 * marker of its own.
 */
export function renderStatusComment(view: StatusView, links: StatusLinks = {}): string {
  const lines = [...headline(view)];
  const footer = [
    view.jobId ? `job \`${view.jobId}\`` : null,
    view.usage ? usageNote(view.usage) : null,
    links.run ? `[workflow run](${links.run})` : null,
  ]
    .filter((part) => part !== null)
    .join(' · ');
  lines.push('', `<sub>docwright${footer ? ` · ${footer}` : ''}</sub>`);
  if (view.jobId) lines.push(jobMarker(view.jobId));
  return lines.join('\n');
}

function headline(view: StatusView): string[] {
  switch (view.state) {
    case 'working':
      return [
        `⏳ **Working on ${view.followUp ? 'your follow-up' : 'it'}…** This comment will be updated with the result.`,
        ...(view.waiting
          ? []
          : ['', 'This workflow does not wait for the result: check the job on the server.']),
      ];
    case 'pr-opened':
      return [
        `✅ **Pull request ready:** ${view.prLink}`,
        ...(view.files ? ['', filesLine(view.files)] : []),
        ...quoted(view.summary),
      ];
    case 'no-changes':
      return [
        '⚠️ **Nothing was changed**, so no pull request was opened. The agent said:',
        ...quoted(view.reply),
      ];
    case 'committed':
      return [
        `✅ **Committed to \`${view.branch.replace(/`/g, "'")}\`.** Its repository has no pull requests, so none was opened.`,
        ...quoted(view.summary),
      ];
    case 'failed':
      // Without a job id the request itself was refused (bad key, rate limit, server down).
      return [
        `❌ **${view.jobId ? 'The job failed.' : 'docwright could not take the request.'}** ${text(view.reason)}`,
      ];
    case 'timed-out':
      return [
        `⌛ **Stopped waiting after ${formatMinutes(view.minutes)}.** The job \`${view.jobId}\` is still running on the server; a later command in this thread follows up on it.`,
      ];
    case 'stopped':
      return [
        `⏹️ **Stopped waiting.** ${text(view.reason)} The job \`${view.jobId}\` keeps running on the server.`,
      ];
    case 'archived':
      return [`🗄️ **The job was archived.**${view.prLink ? ` Its pull request: ${view.prLink}` : ''}`];
  }
}

/** `4,210 tokens in 3 model calls, about $0.0123`: what the run spent, for runs that used a model. */
function usageNote(usage: Usage): string | null {
  if (usage.modelCalls === 0) return null;
  const tokens = (usage.inputTokens + usage.outputTokens).toLocaleString('en-US');
  const calls = `${usage.modelCalls} model call${usage.modelCalls === 1 ? '' : 's'}`;
  return `${tokens} tokens in ${calls}${usage.costUsd === null ? '' : `, about ${dollars(usage.costUsd)}`}`;
}

function filesLine(files: ChangedFiles): string {
  const count = `${files.total}${files.more ? '+' : ''} file${files.total === 1 && !files.more ? '' : 's'} changed`;
  const shown = files.paths.slice(0, FILES_SHOWN).map((path) => `\`${path.replace(/`/g, "'")}\``);
  const rest = files.total > shown.length || files.more ? ', …' : '';
  return `**${count}:** ${shown.join(', ')}${rest}`;
}

/** The agent's words as a Markdown quote, so they read as its reply and cannot break the layout. */
function quoted(value: string | null): string[] {
  if (!value?.trim()) return [];
  return [
    '',
    ...text(value)
      .split('\n')
      .map((line) => `> ${line}`.trimEnd()),
  ];
}

function text(value: string): string {
  const trimmed = value.trim();
  const short = trimmed.length > MAX_TEXT ? `${trimmed.slice(0, MAX_TEXT)}…` : trimmed;
  return neutralizeMarkers(short);
}

function formatMinutes(minutes: number): string {
  if (minutes < 1) return `${Math.round(minutes * 60)} seconds`;
  return `${Number(minutes.toFixed(1))} minute${minutes === 1 ? '' : 's'}`;
}
