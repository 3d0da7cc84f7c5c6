import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { closesFence, openingFence } from '../src/docs/page-syntax.js';

/**
 * What a newcomer copies from the docs works as it is: every YAML block of the README and of
 * `docs/` (workflows, settings files) parses as YAML, and every JSON block as JSON.
 */

const ROOT = new URL('../', import.meta.url);
const FILES = [
  'README.md',
  ...(readdirSync(new URL('docs/', ROOT), { recursive: true }) as string[])
    .filter((file) => /\.mdx?$/.test(file))
    .map((file) => `docs/${file}`),
];

/** Every fenced block of a file with its language and first line. */
function blocks(file: string): { language: string; line: number; text: string }[] {
  const lines = readFileSync(new URL(file, ROOT), 'utf8').split('\n');
  const found: { language: string; line: number; text: string }[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const fence = openingFence(lines[index]!);
    if (!fence) continue;
    let end = index + 1;
    while (end < lines.length && !closesFence(lines[end]!, fence.marker)) end += 1;
    found.push({
      language: fence.info.split(/\s/)[0] ?? '',
      line: index + 1,
      text: lines.slice(index + 1, end).join('\n'),
    });
    index = end;
  }
  return found;
}

describe('the blocks of the docs', () => {
  it('parse: YAML as YAML, JSON as JSON', () => {
    const broken: string[] = [];
    let counted = 0;
    for (const file of FILES) {
      for (const block of blocks(file)) {
        if (['yaml', 'yml'].includes(block.language)) {
          counted += 1;
          const error = parseDocument(block.text).errors[0];
          if (error) broken.push(`${file}:${block.line} ${error.message.split('\n')[0]}`);
        } else if (block.language === 'json') {
          counted += 1;
          try {
            JSON.parse(block.text);
          } catch (error) {
            broken.push(`${file}:${block.line} ${(error as Error).message}`);
          }
        }
      }
    }
    expect(broken).toEqual([]);
    expect(counted).toBeGreaterThanOrEqual(10);
  });

  it("never run a bare `npx docwright` in a workflow: docwright is no npm package, the registry would answer with a stranger's", () => {
    const steps = FILES.flatMap((file) =>
      blocks(file)
        .filter((block) => ['yaml', 'yml'].includes(block.language) && /\bnpx docwright\b/.test(block.text))
        .map((block) => `${file}:${block.line}`),
    );
    expect(steps).toEqual([]);
  });
});
