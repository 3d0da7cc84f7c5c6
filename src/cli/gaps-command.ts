import { InvalidArgumentError, type Command } from 'commander';
import type { Job } from '../protocol/agent-job.js';
import type { Gap, GapsReport } from '../protocol/feedback.js';
import { remote, type RemoteEnvironment, type RemoteOptions } from './job-commands.js';
import { describeJob } from './job-view.js';

interface GapsOptions extends RemoteOptions {
  since?: string;
  job?: string;
}

/**
 * Adds `docwright gaps` to the program: the gaps report of a running server, as a table (or JSON
 * with --json), or with `--job GAP` a job that fills one gap.
 */
export function registerGapsCommand(
  program: Command,
  examples: (...lines: string[]) => string,
  env: RemoteEnvironment,
): void {
  program
    .command('gaps')
    .description("readers' questions the docs did not answer, grouped; --job starts a job that fills one")
    .option('--url <url>', 'server address (DOCWRIGHT_URL, default http://localhost:3000)')
    .option('--key <key>', 'admin API key (DOCWRIGHT_KEY)')
    .option('--project <id>', 'project id (DOCWRIGHT_PROJECT)')
    .option('--since <period>', 'how far back to read: days or hours, like 30d or 12h', since, '30d')
    .option(
      '--job <gap>',
      'start a job whose prompt carries this gap’s questions, comments and closest pages',
    )
    .addHelpText(
      'after',
      examples(
        'docwright gaps --project demo --key svc_...',
        'docwright gaps --project demo --since 7d --json',
        'docwright gaps --project demo --job gap_3f9a1c2b7d4e',
      ),
    )
    .action(async (options: GapsOptions) => {
      const target = remote(options, env);
      // --json is the program's option (written before or after the command). Without it the
      // report is a table, in a pipe too: it is read by people; programs ask for JSON.
      const json = program.opts<{ json?: boolean }>().json === true;
      if (options.job) {
        const job = await target.client.createGapJob(target.projectId, options.job, options.since);
        process.stdout.write(`${json ? JSON.stringify(job, null, 2) : describeGapJob(job, options.job)}\n`);
        return;
      }
      const report = await target.client.getGaps(target.projectId, options.since);
      process.stdout.write(`${json ? JSON.stringify(report, null, 2) : describeGaps(report)}\n`);
    });
}

function since(value: string): string {
  if (!/^[1-9]\d{0,3}[dh]$/.test(value))
    throw new InvalidArgumentError('must be days or hours, like 30d or 12h');
  return value;
}

function describeGapJob(job: Job, gap: string): string {
  return `Started a job for ${gap}:\n${describeJob(job)}`;
}

/** The report for a person: a table of the gaps, each followed by its examples, pages and comments. */
function describeGaps(report: GapsReport): string {
  const lines = [
    `${report.gaps.length} gap(s) in the last ${report.since} of project ${report.project} (${report.questions} question(s) read)`,
  ];
  if (report.gaps.length > 0) lines.push('', table(report.gaps));
  for (const gap of report.gaps) lines.push('', ...details(gap));
  if (report.offTopic.length > 0) {
    lines.push('', `Off-topic (${report.offTopic.length} group(s), not about the docs):`);
    for (const gap of report.offTopic) lines.push(`  ${gap.count}x  ${gap.title}`);
  }
  if (report.pageReports.length > 0) {
    lines.push('', `Reports on pages (${report.pageReports.length} page(s)):`);
    for (const page of report.pageReports) {
      lines.push(`  ${page.reports}x  ${page.path}  (last ${page.lastSeen.slice(0, 10)})`);
      for (const problem of page.problems)
        lines.push(`        ${problem.replace(/\s+/g, ' ').slice(0, 200)}`);
    }
  }
  return lines.join('\n');
}

function table(gaps: readonly Gap[]): string {
  const rows = [
    ['GAP', 'READERS', 'QUESTIONS', 'LAST SEEN', 'ASKED'],
    ...gaps.map((gap) => [
      gap.id,
      String(gap.readers),
      String(gap.count),
      gap.lastSeen.slice(0, 10),
      clip(gap.title, 60),
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '),
    )
    .join('\n');
}

function details(gap: Gap): string[] {
  const how = [
    gap.declined ? `${gap.declined} declined` : '',
    gap.lowSupport ? `${gap.lowSupport} answered with little support` : '',
    gap.ratedDown ? `${gap.ratedDown} rated down` : '',
  ].filter(Boolean);
  return [
    `${gap.id} (${how.join(', ')}; first seen ${gap.firstSeen.slice(0, 10)})`,
    ...gap.examples.map((example) => `  asked: ${clip(example, 100)}`),
    ...gap.closestPages.map((page) => `  closest page: ${page.title} (${page.url})`),
    ...gap.comments.slice(0, 3).map((comment) => `  comment: ${clip(comment, 100)}`),
  ];
}

function clip(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}
