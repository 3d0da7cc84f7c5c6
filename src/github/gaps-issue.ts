import type { Gap, GapsReport } from '../protocol/feedback.js';
import { neutralizeMarkers } from './job-marker.js';

/** The title of the issue the App keeps current with a repository's docs gaps. */
export const GAPS_ISSUE_TITLE = 'Docs gaps';

/** Gaps listed in the issue: GitHub refuses bodies over 65,536 characters, and the top ones matter. */
const LISTED = 25;
/** Characters of one quoted question or comment. */
const QUOTE_LENGTH = 200;

/**
 * The hidden marker that says an issue is a project's "Docs gaps" issue, in the style of the job
 * marker: an HTML comment GitHub does not display, written by the App only.
 */
export function gapsIssueMarker(projectId: string): string {
  return `<!-- docwright-gaps: ${projectId} -->`;
}

/**
 * Whether `body` is one the App wrote for the project: the marker ends it, where the App puts it.
 * Readers' words in the body are neutralised, so they cannot place a marker of their own there.
 */
export function isGapsIssueBody(body: string | null | undefined, projectId: string): boolean {
  return (body ?? '').trimEnd().endsWith(gapsIssueMarker(projectId));
}

/** `/docs gaps` or `/docs fill <gap id>`: what the instruction after the command asks of the gaps issue. */
export type GapsInstruction = { kind: 'refresh' } | { kind: 'fill'; gapId: string };

/** A gap's id, as the report makes them. */
const GAP_ID = /^gap_[0-9a-f]{12}$/i;

/**
 * Reads `gaps` and `fill <gap id>`. `fill` with one word after it that is not a gap id is one only
 * in the gaps issue itself (`inGapsIssue`): elsewhere "fill …" is an instruction to the agent.
 */
export function parseGapsInstruction(instruction: string, inGapsIssue: boolean): GapsInstruction | null {
  const words = instruction.trim().split(/\s+/);
  if (words.length === 1 && words[0]!.toLowerCase() === 'gaps') return { kind: 'refresh' };
  if (words.length !== 2 || words[0]!.toLowerCase() !== 'fill') return null;
  const gapId = words[1]!;
  return GAP_ID.test(gapId) || inGapsIssue ? { kind: 'fill', gapId } : null;
}

/** Whether an instruction may be `fill <word>`, before anything is read to tell. */
export function mayBeFillInstruction(instruction: string): boolean {
  return /^fill\s+\S+$/i.test(instruction.trim());
}

/**
 * The body of the "Docs gaps" issue: the report's gaps in its order, each with its numbers,
 * example questions, closest pages (links under `siteUrl` when the settings give it), readers'
 * comments, and the command that starts a job from it; the marker last.
 */
export function renderGapsIssue(
  report: GapsReport,
  options: { projectId: string; command: string; siteUrl: string | null; refreshedAt: Date },
): string {
  const { command } = options;
  const lines = [
    `Readers' questions the docs assistant declined, answered on little, or saw rated down in the last ${report.since} (${report.questions} question(s) read), grouped by what they ask about and ranked by distinct readers, then questions.`,
    '',
    `docwright refreshes this issue every week and on \`${command} gaps\`. To start a job that writes the missing docs, comment the gap's \`${command} fill\` line.`,
    '',
  ];
  if (report.gaps.length === 0) lines.push('No gaps: every question of the period was served.', '');
  for (const [index, gap] of report.gaps.slice(0, LISTED).entries())
    lines.push(...gapSection(gap, index + 1, command, options.siteUrl), '');
  if (report.gaps.length > LISTED)
    lines.push(
      `${report.gaps.length - LISTED} more gap(s) with fewer readers are in the full report (\`docwright gaps\`).`,
      '',
    );
  if (report.pageReports.length > 0) {
    lines.push('### Reports on pages', '');
    for (const page of report.pageReports.slice(0, LISTED)) {
      lines.push(`- ${inline(page.path)}: ${page.reports} report(s), last ${page.lastSeen.slice(0, 10)}`);
      for (const problem of page.problems) lines.push(`  - ${quote(problem)}`);
    }
    lines.push('');
  }
  lines.push(
    `_Refreshed ${options.refreshedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC._`,
    '',
    gapsIssueMarker(options.projectId),
  );
  return lines.join('\n');
}

function gapSection(gap: Gap, rank: number, command: string, siteUrl: string | null): string[] {
  const lines = [
    `### ${rank}. ${inline(gap.title)}`,
    '',
    `\`${gap.id}\`: ${gap.count} question(s) from ${gap.readers} reader(s), first seen ${gap.firstSeen.slice(0, 10)}, last seen ${gap.lastSeen.slice(0, 10)} (${gap.declined} declined, ${gap.lowSupport} answered on little, ${gap.ratedDown} rated down).`,
    '',
    'Asked:',
    ...gap.examples.map((example) => `- ${quote(example)}`),
  ];
  if (gap.closestPages.length > 0)
    lines.push('', `Closest pages: ${gap.closestPages.map((page) => pageLink(page, siteUrl)).join(', ')}`);
  if (gap.comments.length > 0)
    lines.push('', "Readers' comments:", ...gap.comments.map((comment) => `- ${quote(comment)}`));
  lines.push('', 'To start a job that fills it:', '', '```', `${command} fill ${gap.id}`, '```');
  return lines;
}

function pageLink(page: { url: string; title: string }, siteUrl: string | null): string {
  const title = inline(page.title).replace(/[[\]]/g, '');
  if (!siteUrl) return `${title} (\`${page.url.replace(/`/g, "'")}\`)`;
  const href = new URL(page.url.replace(/^\/+/, ''), siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`);
  return `[${title}](${href.href.replace(/[()]/g, encodeURIComponent)})`;
}

/** A reader's words on one line, cut short, markers and mentions made harmless. */
function inline(text: string): string {
  const flat = neutralizeMarkers(text.replace(/\s+/g, ' ').trim())
    // A reader's "@someone" must not notify anyone.
    .replace(/@(?=\w)/g, '@\u200b');
  return flat.length > QUOTE_LENGTH ? `${flat.slice(0, QUOTE_LENGTH - 1)}…` : flat;
}

function quote(text: string): string {
  return `"${inline(text).replaceAll('"', "'")}"`;
}
