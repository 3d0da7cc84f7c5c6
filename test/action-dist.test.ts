/**
 * The gates that keep the Action's artifacts honest: the committed dist/ is what
 * `npm run package` builds from the sources today, and the Action's docs page documents every input
 * and output.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { examplePayload, jobFixture } from './helpers/github-recorder.js';

const run = promisify(execFile);

function nccCli(): string | null {
  try {
    return createRequire(import.meta.url).resolve('@vercel/ncc/dist/ncc/cli.js');
  } catch {
    return null;
  }
}

/** Inputs or outputs of action.yml: the names indented under `section:`. */
async function actionYmlNames(section: 'inputs' | 'outputs'): Promise<string[]> {
  const text = await fs.readFile('action.yml', 'utf8');
  const start = text.indexOf(`\n${section}:\n`);
  const end = text.slice(start + 2).search(/\n\S/);
  const body = text.slice(start, end === -1 ? undefined : start + 2 + end);
  return [...body.matchAll(/^ {2}([a-z-]+):$/gm)].map((match) => match[1]!);
}

describe('dist/', () => {
  it('is what `npm run package` builds from the current sources', async (context) => {
    const cli = nccCli();
    if (!cli) return context.skip('@vercel/ncc is not installed, so dist/ cannot be rebuilt here');
    expect(
      existsSync('dist/index.js'),
      'dist/index.js is missing: run `npm run package` and commit dist/',
    ).toBe(true);
    const outDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-dist-'));
    try {
      const manifest = JSON.parse(await fs.readFile('package.json', 'utf8')) as {
        scripts: Record<string, string>;
      };
      expect(manifest.scripts.package).toBe('tsx scripts/package-action.ts');
      await run(process.execPath, ['--import', 'tsx', 'scripts/package-action.ts', outDir], {
        maxBuffer: 16 * 2 ** 20,
      });
      const built = (await fs.readdir(outDir)).sort();
      expect((await fs.readdir('dist')).sort()).toEqual(built);
      for (const file of built) {
        const fresh = await fs.readFile(path.join(outDir, file), 'utf8');
        const committed = await fs.readFile(path.join('dist', file), 'utf8');
        expect(
          committed === fresh,
          `dist/${file} differs from a fresh build: run \`npm run package\` and commit dist/`,
        ).toBe(true);
      }
    } finally {
      await fs.rm(outDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the bundle', () => {
  it('stays under 4 MiB in all and carries no native module, so it loads on node24 from dist/ alone', async () => {
    const files = await fs.readdir('dist');
    const sizes = await Promise.all(files.map(async (file) => (await fs.stat(path.join('dist', file))).size));
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThan(4 * 2 ** 20);
    expect(files.filter((file) => file.endsWith('.node'))).toEqual([]);
  });
  it('starts server mode and answers a comment that is not a command from index.js alone, without the chunks', async () => {
    // A copy of dist/ without its chunks: whatever the step would read of them fails loudly.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-dist-entry-'));
    const api = http.createServer((request, response) => {
      request.resume();
      response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(jobFixture()));
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    try {
      const entry = (await fs.readdir('dist')).filter((file) => !/^\d+\.index\.js$/.test(file));
      expect(entry.length).toBeLessThan((await fs.readdir('dist')).length);
      for (const file of entry) await fs.copyFile(path.join('dist', file), path.join(dir, file));
      const runStep = async (event: string, payload: unknown, inputs: Record<string, string>) => {
        await fs.writeFile(path.join(dir, 'event.json'), JSON.stringify(payload));
        await fs.writeFile(path.join(dir, 'output'), '');
        const env = {
          PATH: process.env.PATH,
          GITHUB_EVENT_NAME: event,
          GITHUB_EVENT_PATH: path.join(dir, 'event.json'),
          GITHUB_OUTPUT: path.join(dir, 'output'),
          GITHUB_REPOSITORY: 'Codertocat/Hello-World',
          ...Object.fromEntries(
            Object.entries(inputs).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value]),
          ),
        };
        const { stdout } = await run(process.execPath, [path.join(dir, 'index.js')], { env });
        return { stdout, output: await fs.readFile(path.join(dir, 'output'), 'utf8') };
      };
      const port = (api.address() as AddressInfo).port;
      const server = await runStep(
        'workflow_dispatch',
        { inputs: {} },
        {
          'base-url': `http://127.0.0.1:${port}`,
          'api-key': 'svc_entry',
          'project-id': 'docs',
          prompt: 'replace "a" with "b"',
          wait: 'false',
        },
      );
      expect(server.stdout).toContain('Created job job23.');
      expect(server.output).toMatch(/^job-id<<.*\njob23\n/m);
      // No base-url: the runner's mode, ended by a comment that is not a command before any chunk.
      const chatter = await runStep(
        'issue_comment',
        examplePayload('issue_comment', 'created', (payload) => {
          payload.comment.body = 'Thanks, looks good!';
        }),
        { 'github-token': `ghs_${'e'.repeat(36)}`, command: '/docs' },
      );
      expect(chatter.stdout).toContain('The comment does not start with /docs.');
    } finally {
      await new Promise((resolve) => api.close(resolve));
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('dist/licenses.txt', () => {
  it('names the licenses of the packages the bundle carries', async () => {
    const text = await fs.readFile('dist/licenses.txt', 'utf8');
    const names = new Set(text.split('\n').filter((line) => /^(@[\w.-]+\/)?[\w.-]+$/.test(line)));
    for (const name of ['zod', 'js-yaml', 'ai', '@octokit/core', '@ai-sdk/openai', 'pino', 'micromark'])
      expect(names, `${name} is bundled, so its license must be listed`).toContain(name);
  });
});

describe('action.yml', () => {
  it('runs dist/index.js on node24', async () => {
    const text = await fs.readFile('action.yml', 'utf8');
    expect(text).toMatch(/\nruns:\n {2}using: node24\n {2}main: dist\/index\.js\n/);
  });

  it('has every input and output documented in a table row of docs/action.mdx', async () => {
    const page = await fs.readFile('docs/action.mdx', 'utf8');
    const names = [...(await actionYmlNames('inputs')), ...(await actionYmlNames('outputs'))];
    expect(names).toContain('api-key');
    expect(names).toContain('pr-link');
    const undocumented = names.filter((name) => !page.includes(`| \`${name}\``));
    expect(undocumented, 'action.yml names missing from the tables of docs/action.mdx').toEqual([]);
  });
});
