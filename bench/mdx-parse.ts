/**
 * How fast the blocking MDX check parses real pages: every `.mdx` page of the shared Mintlify and
 * Pipecat docs through mdxSyntaxError (micromark's MDX extension and mdast-util-mdx), the way a run
 * checks the pages it changed. Prints a Markdown table; skips a corpus that is absent.
 *   npx tsx bench/mdx-parse.ts
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { mdxSyntaxError } from '../src/checks/mdx-syntax.js';

const CORPORA = ['../shared/corpora/mintlify-docs', '../shared/corpora/pipecat-docs'];

function mdxFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') return [];
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return mdxFiles(full);
    return entry.name.endsWith('.mdx') ? [full] : [];
  });
}

const rows = [
  '| corpus | pages | MB | total ms | ms per page | MB/s | pages that fail |',
  '|---|---|---|---|---|---|---|',
];
for (const corpus of CORPORA) {
  if (!existsSync(corpus)) {
    rows.push(`| ${path.basename(corpus)} | absent, skipped | | | | | |`);
    continue;
  }
  const texts = mdxFiles(corpus).map((file) => readFileSync(file, 'utf8'));
  const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  const started = performance.now();
  const failures = texts.filter((text) => mdxSyntaxError(text) !== undefined).length;
  const ms = performance.now() - started;
  rows.push(
    `| ${path.basename(corpus)} | ${texts.length} | ${(bytes / 1e6).toFixed(1)} | ${ms.toFixed(0)} | ${(ms / texts.length).toFixed(1)} | ${(bytes / 1e6 / (ms / 1000)).toFixed(2)} | ${failures} |`,
  );
}
process.stdout.write(`${rows.join('\n')}\n`);
