import { existsSync } from 'node:fs';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkDocs } from '../src/checks/index.js';
import { folderDocsTree } from '../src/docs/docs-tree.js';

const CORPUS = path.resolve('../shared/corpora/mintlify-docs');
const present = existsSync(path.join(CORPUS, 'docs.json'));
if (!present) console.warn(`skipping the mintlify corpus checks: ${CORPUS} is absent`);

describe.skipIf(!present)('docs checks on the real mintlify docs', () => {
  it('reads the whole site without crashing and reports only real broken links', async () => {
    const problems = await checkDocs(folderDocsTree(CORPUS));
    // Its pages parse, its MDX is balanced and its navigation lists only existing pages ...
    expect(problems.filter((problem) => !problem.rule.startsWith('broken-'))).toEqual([]);
    // ... and the links it has are reported where they are really broken (checked by hand).
    const messages = problems.map((problem) => `${problem.file}: ${problem.message}`);
    expect(messages).toContain(
      'index.mdx: the link /installation points to /installation, which is not a page',
    );
    expect(messages).toContain(
      'assistant/index.mdx: the link /assistant/configure#set-deflection-email names no heading of assistant/configure.mdx',
    );
    // Anchors that Accordion titles, imported snippets and Mintlify's slugs provide are not reported.
    expect(messages.some((message) => message.startsWith('reference/glossary.mdx'))).toBe(false);
    expect(messages.some((message) => message.startsWith('automations/create.mdx'))).toBe(false);
    expect(messages.some((message) => message.includes('%24ref'))).toBe(false);
    expect(problems.length).toBeLessThan(150);
    // Every page goes through the real MDX parser: a minute is room for a loaded machine.
  }, 120_000);
});

const run = promisify(execFile);

describe('docwright check', () => {
  it('exits 0 on a clean folder and 1 with a readable list on a broken one', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-check-'));
    try {
      await fs.mkdir(path.join(folder, 'docs'));
      await fs.writeFile(path.join(folder, 'docs', 'index.mdx'), '---\ntitle: Home\n---\n\n[ok](/guide)\n');
      await fs.writeFile(path.join(folder, 'docs', 'guide.md'), '# Guide\n');
      const cli = (...args: string[]) =>
        run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'check', ...args], {
          env: { ...process.env, LOG_LEVEL: 'silent' },
        });
      const clean = await cli('--docs-root', 'docs', folder);
      expect(clean.stdout).toContain('no problems found');

      await fs.writeFile(path.join(folder, 'docs', 'guide.md'), '---\ntitle: [oops\n---\n[x](/gone)\n');
      const failed = await cli('--docs-root', 'docs', folder).then(
        () => undefined,
        (error: { code: number; stdout: string }) => error,
      );
      expect(failed?.code).toBe(1);
      const lines = failed!.stdout.trim().split('\n');
      expect(lines[0]).toMatch(
        /^guide\.md:\d+ {2}error {2}the frontmatter is not valid YAML: .+ {2}\[frontmatter\]$/,
      );
      // A folder of pages with no framework builds a broken link: a reader trips on it, nothing fails.
      expect(lines[1]).toBe(
        'guide.md:4  warning  the link /gone points to /gone, which is not a page  [broken-link]',
      );
      expect(lines.at(-1)).toMatch(/: 1 error and 1 warning in 1 file$/);

      // A warning alone leaves the exit status 0.
      await fs.writeFile(path.join(folder, 'docs', 'guide.md'), '# Guide\n\n[x](/gone)\n');
      const warned = await cli('--docs-root', 'docs', folder);
      expect(warned.stdout).toContain('1 warning in 1 file');
    } finally {
      await fs.rm(folder, { recursive: true, force: true });
    }
  });
});
