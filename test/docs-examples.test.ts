/**
 * The README's and docs/'s marked curl and CLI examples, run with bash against a real
 * `docwright serve` on a fresh data directory, as a reader would paste them: what they print must
 * carry the status and the fields the docs promise.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedFiles, parseExamples, valueAt, type DocExample } from './helpers/doc-examples.js';
import { freePort } from './helpers/free-port.js';

const ROOT = process.cwd();

/**
 * Defined before every example: `curl` keeps the HTTP status of its last call in a file (the body
 * still goes to stdout), and `npx docwright` / `docwright` run this checkout's CLI from source.
 */
const PRELUDE = String.raw`set -euo pipefail
curl() {
  command curl --output "$EXAMPLE_BODY" --write-out '%{http_code}' "$@" > "$EXAMPLE_STATUS"
  cat "$EXAMPLE_BODY"
}
docwright() { node --import tsx "$EXAMPLE_ROOT/src/cli.ts" "$@"; }
npx() { if [ "$1" = docwright ]; then shift; docwright "$@"; else command npx "$@"; fi; }
`;

interface Server {
  child: ChildProcess;
  url: string;
  adminKey: string;
  assistantKey: string;
}

async function startServer(dataDir: string): Promise<Server> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli.ts', '--data-dir', dataDir, 'serve', '--port', String(port)],
    {
      env: { ...process.env, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const banner: string[] = [];
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      banner.push(line);
      if (line.startsWith('  curl')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${banner.join('\n')}`)));
  });
  const text = banner.join('\n');
  return {
    child,
    url: `http://localhost:${port}`,
    adminKey: /Admin key \(shown once\):\s+(svc_\S+)/.exec(text)![1]!,
    assistantKey: /Assistant key \(shown once\):\s+(svc_dsc_\S+)/.exec(text)![1]!,
  };
}

function runBash(code: string, env: NodeJS.ProcessEnv): Promise<{ exit: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `${PRELUDE}\n${code}`], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.once('exit', (exit) => resolve({ exit, output: exit === 0 ? output : `${output}\n${errors}` }));
  });
}

function parseJson(example: DocExample, output: string): unknown {
  try {
    return JSON.parse(output);
  } catch {
    throw new Error(`${example.where}: the example should print JSON, printed:\n${output.slice(0, 500)}`);
  }
}

/** Pages every shell block of which is a marked example: a block added there without a marker fails. */
const EVERY_BLOCK_RUNS = ['docs/feedback-and-gaps.mdx'];

describe('the pages whose every shell block runs', () => {
  it.each(EVERY_BLOCK_RUNS)('%s', async (file) => {
    const text = await fs.readFile(path.join(ROOT, file), 'utf8');
    const blocks = text.split('\n').filter((line) => /^```(sh|bash)\s*$/.test(line)).length;
    expect(blocks).toBeGreaterThan(0);
    expect(parseExamples(file, text)).toHaveLength(blocks);
  });
});

describe('the documented examples', () => {
  let dataDir: string;
  let server: Server;
  const captured: Record<string, string> = {};

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-doc-examples-'));
    server = await startServer(dataDir);
  }, 60_000);
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('run against a real server and show what the docs say they show', async () => {
    const examples: DocExample[] = [];
    for (const file of await documentedFiles(ROOT)) {
      examples.push(...parseExamples(file, await fs.readFile(path.join(ROOT, file), 'utf8')));
    }
    expect(examples.length).toBeGreaterThan(15);
    const bodyFile = path.join(dataDir, 'example-body');
    const statusFile = path.join(dataDir, 'example-status');
    const { DOCWRIGHT_KEY: _key, DOCWRIGHT_PROJECT: _project, ...inherited } = process.env;
    for (const example of examples) {
      await fs.rm(statusFile, { force: true });
      const env: NodeJS.ProcessEnv = {
        ...inherited,
        ...captured,
        LOG_LEVEL: 'silent',
        DOCWRIGHT_URL: server.url,
        DOCWRIGHT_DATA_DIR: dataDir,
        ADMIN_KEY: server.adminKey,
        ASSISTANT_KEY: server.assistantKey,
        EXAMPLE_ROOT: ROOT,
        EXAMPLE_BODY: bodyFile,
        EXAMPLE_STATUS: statusFile,
      };
      const { exit, output } = await runBash(example.code, env);
      const shown = `${example.where}:\n${example.code}\nprinted:\n${output.slice(0, 800)}`;
      expect(exit, shown).toBe(example.expect.exit);
      if (example.expect.status !== undefined) {
        const status = Number(await fs.readFile(statusFile, 'utf8').catch(() => 'NaN'));
        expect(status, shown).toBe(example.expect.status);
      }
      if (example.expect.contains) expect(output, shown).toContain(example.expect.contains);
      if (example.expect.stdout) expect(output.trim(), shown).toMatch(example.expect.stdout);
      if (example.expect.fields.length === 0 && !example.expect.capture) continue;
      const json = parseJson(example, output);
      for (const field of example.expect.fields) {
        expect(valueAt(json, field), `${shown}\nmissing field ${field}`).toBeDefined();
      }
      const capture = example.expect.capture;
      if (capture) captured[capture.name] = String(valueAt(json, capture.path));
    }
  }, 240_000);
});
