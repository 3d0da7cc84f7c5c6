/**
 * `npm run bench`: runs every benchmark and writes bench/RESULTS.md with the machine and the date.
 * `npm run bench -- <name>…` runs the benchmarks named and puts each one's section in place of the
 * section of RESULTS.md with the same title (or after the last), leaving the others as they are.
 * The retrieval benchmarks are scripts of their own (run alone while tuning); their output is
 * included as it is printed.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import { runActionBenchmark } from './action-cold-start.js';
import { runApiBenchmark } from './api-throughput.js';
import { runAssistantTtfbBenchmark } from './assistant-ttfb.js';
import { runIssueTable } from './issue-table.js';
import { runGitHubRequestCountBenchmark } from './github-requests.js';
import { runMemoryLoadBenchmark } from './memory-load.js';
import { runReplicaBenchmark } from './replicas.js';

const script =
  (file: string, title: string, ...args: string[]) =>
  () =>
    Promise.resolve(
      `## ${title}\n\n${execFileSync(process.execPath, ['--import', 'tsx', file, ...args], { encoding: 'utf8', maxBuffer: 16 * 2 ** 20 }).trim()}`,
    );

const benchmarks: Record<string, () => Promise<string>> = {
  api: runApiBenchmark,
  'assistant-ttfb': runAssistantTtfbBenchmark,
  action: runActionBenchmark,
  'github-requests': runGitHubRequestCountBenchmark,
  replicas: runReplicaBenchmark,
  'retrieval-quality': script('bench/retrieval-quality.ts', 'Retrieval quality (shared Mintlify corpus)'),
  'retrieval-speed': script('bench/retrieval-speed.ts', 'Retrieval speed and index build'),
  'mdx-parse': script('bench/mdx-parse.ts', 'MDX parse speed of the blocking docs check'),
  'answer-quality': script('bench/answer-quality.ts', 'Answers on reader questions (two docs sites)'),
  'answers-pooled': script(
    'bench/answer-quality.ts',
    'Answers on three sites, sets tuned on and never tuned on',
    '--pooled',
  ),
  'answer-bars': script('bench/answer-quality.ts', 'The bar for a first answer, swept', '--bars'),
  'answer-text': script('bench/answer-text.ts', 'Answer text on the sets tuned on'),
  'thread-questions': script('bench/thread-questions.ts', 'Questions asked in a thread (two docs sites)'),
  'section-embeddings': script('bench/section-embeddings.ts', 'Stored section embeddings'),
  'docs-impact': script('bench/docs-impact.ts', 'Docs impact on real histories (docs-sync cases)'),
  'mcp-search': script(
    'bench/mcp-search.ts',
    'MCP search_docs and llms-full.txt under load (Mintlify corpus)',
  ),
  'memory-load': runMemoryLoadBenchmark,
  'issue-table': runIssueTable,
};

/**
 * Run only when named: `memory-load` (or `npm run bench:memory`) takes 11 minutes, `issue-table`
 * measures again in one window what `api`, `replicas` and `assistant-ttfb` measure.
 */
const ON_REQUEST = new Set(['memory-load', 'issue-table']);

const only = process.argv.slice(2);
const sections: string[] = [];
for (const [name, benchmark] of Object.entries(benchmarks)) {
  if (only.length > 0 ? !only.includes(name) : ON_REQUEST.has(name)) continue;
  process.stderr.write(`bench: ${name}\n`);
  sections.push(await benchmark());
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const header = [
  '# Benchmark results',
  '',
  `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}.`,
  '',
].join('\n');
const results = new URL('./RESULTS.md', import.meta.url);
if (only.length === 0) {
  await fs.writeFile(results, `${header}\n${sections.join('\n\n')}\n`);
  process.stderr.write('bench: wrote bench/RESULTS.md\n');
} else {
  const existing = await fs.readFile(results, 'utf8').catch(() => `${header}\n`);
  await fs.writeFile(results, sections.reduce(putSection, existing));
  process.stderr.write('bench: updated bench/RESULTS.md\n');
}

/**
 * `text` with `section` (a `## ` title and what follows it) in place of the section of the same
 * title, which runs to the next `## ` title; after the last section when there is none.
 */
function putSection(text: string, section: string): string {
  const title = section.slice(0, section.indexOf('\n'));
  const lines = text.split('\n');
  const start = lines.indexOf(title);
  if (start === -1) return `${text.trimEnd()}\n\n${section}\n`;
  const next = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  const rest = next === -1 ? [] : ['', ...lines.slice(next)];
  return [...lines.slice(0, start), ...section.split('\n'), ...rest].join('\n').trimEnd() + '\n';
}
