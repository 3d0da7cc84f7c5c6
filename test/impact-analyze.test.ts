import { describe, expect, it } from 'vitest';
import { analyzeImpact, type ImpactEvidence, type ImpactResult } from '../src/impact/index.js';
import { filePatch } from './helpers/file-patch.js';

const pages = [
  {
    path: 'cli.md',
    text: [
      '# Command line',
      '',
      'Run `acme sync` to copy your files.',
      '',
      '## Options',
      '',
      '- `--max-retries <n>`: how many times a failed upload is tried again. Default: `3`.',
      '- `--legacy-output`: prints the report in the format of version 1.',
      '- `--verbose`: prints every file.',
      '',
    ].join('\n'),
  },
  {
    path: 'configuration.md',
    text: [
      '# Configuration',
      '',
      'Put these keys in `acme.config.json`.',
      '',
      '| Key | Default | Description |',
      '| --- | --- | --- |',
      '| `requestTimeout` | `30` | Seconds before a request is abandoned. |',
      '| `concurrency` | `4` | Uploads at once. |',
      '',
    ].join('\n'),
  },
  {
    path: 'reference/errors.md',
    text: [
      '# Errors',
      '',
      'Every error has a `code`:',
      '',
      '| Code | Meaning |',
      '| --- | --- |',
      '| `ERR_INVALID_URL` | The URL cannot be parsed. |',
      '| `ERR_TIMEOUT` | The server did not answer in time. |',
      '| `ERR_ABORTED` | The request was aborted. |',
      '| `ERR_SOCKET_CLOSED` | The connection closed early. |',
      '',
    ].join('\n'),
  },
  {
    path: 'reference/client.md',
    text: [
      '# Client',
      '',
      '`new Client(options)` opens connections to one origin.',
      '',
      '## Options',
      '',
      '- `keepAlive` (boolean): reuse connections between requests.',
      '- `maxSockets` (number): connections open at most.',
      '- `socketPath` (string): a Unix socket to connect through.',
      '',
    ].join('\n'),
  },
  {
    path: 'environment.mdx',
    text: [
      '---',
      'title: Environment variables',
      '---',
      '',
      '<ParamField path="APP_CACHE_DIR" type="string">Where downloads are cached.</ParamField>',
      '<ParamField path="APP_LOG_LEVEL" type="string">How much is logged.</ParamField>',
      '',
    ].join('\n'),
  },
  {
    path: 'api/routes.md',
    text: [
      '# HTTP API',
      '',
      '## List users',
      '',
      '`GET /api/v1/users` returns every user.',
      '',
      '## Sign in',
      '',
      '`POST /api/v1/sessions` signs a user in.',
      '',
    ].join('\n'),
  },
  {
    path: 'guides/getting-started.md',
    text: [
      '# Getting started',
      '',
      'Install the package, create a client with the options you need and send a request.',
      'The request returns data; errors carry a code. See the reference for every option.',
      '',
    ].join('\n'),
  },
  { path: 'README.md', text: 'The --legacy-output flag and APP_CACHE_DIR, in a file that is no page.' },
];

function affected(result: ImpactResult): string[] {
  return result.pages.filter((page) => page.affected).map((page) => page.path);
}

function evidenceOf(result: ImpactResult, path: string): ImpactEvidence[] {
  return result.pages.find((page) => page.path === path)?.evidence ?? [];
}

describe('analyzeImpact', () => {
  it('finds a renamed camelCase option on the page that writes it as a kebab-case flag', () => {
    const diff = filePatch('src/cli.ts', [
      '   const options = {',
      "-    maxRetries: { type: 'number', default: 3 },",
      "+    retryLimit: { type: 'number', default: 3 },",
      "     verbose: { type: 'boolean' },",
      '   }',
    ]);
    const result = analyzeImpact({ diff, pages });
    expect(affected(result)).toEqual(['cli.md']);
    expect(evidenceOf(result, 'cli.md')[0]).toMatchObject({
      kind: 'name',
      name: 'maxRetries',
      change: 'renamed',
      renamedTo: 'retryLimit',
      diffLine: { file: 'src/cli.ts', line: 11, text: "maxRetries: { type: 'number', default: 3 }," },
      pageLine: { line: 7, text: expect.stringContaining('--max-retries') },
    });
  });

  it('finds a removed command-line flag', () => {
    const diff = filePatch('src/cli.ts', [
      '   program',
      "     .option('--verbose', 'print every file')",
      "-    .option('--legacy-output', 'print the version 1 report')",
      '   program.parse()',
    ]);
    const result = analyzeImpact({ diff, pages });
    expect(affected(result)).toEqual(['cli.md']);
    expect(evidenceOf(result, 'cli.md')[0]).toMatchObject({ name: '--legacy-output', change: 'removed' });
  });

  it('leaves out translations and does not list a migration guide that names the old flag', () => {
    const diff = filePatch('src/cli.ts', [
      '   program',
      "     .option('--verbose', 'print every file')",
      "-    .option('--legacy-output', 'print the version 1 report')",
      '   program.parse()',
    ]);
    const withCopies = [
      ...pages,
      { path: 'zh/cli.md', text: pages[0]!.text },
      {
        path: 'guides/migration-to-v2.md',
        text: '# Migrating to 2.0\n\n## 2.0\n\n- `--legacy-output` prints the old report.\n',
      },
    ];
    const result = analyzeImpact({ diff, pages: withCopies });
    expect(affected(result)).toEqual(['cli.md']);
    expect(result.pages.map((page) => page.path)).not.toContain('zh/cli.md');
    expect(result.pages.find((page) => page.path === 'guides/migration-to-v2.md')?.affected).toBe(false);
  });

  it('finds a changed default on the page that states the old value', () => {
    const diff = filePatch('src/config.ts', [
      '   export const defaults = {',
      '-    requestTimeout: 30,',
      '+    requestTimeout: 60,',
      '     concurrency: 4,',
      '   }',
    ]);
    const result = analyzeImpact({ diff, pages });
    expect(affected(result)).toEqual(['configuration.md']);
    expect(evidenceOf(result, 'configuration.md')[0]).toMatchObject({
      name: 'requestTimeout',
      change: 'default-changed',
      oldValue: '30',
      newValue: '60',
      pageLine: { line: 7 },
    });
  });

  it('reads a default out of a JSON schema', () => {
    const diff = filePatch('schema/config.schema.json', [
      '   "properties": {',
      '-    "concurrency": { "type": "integer", "default": 4 },',
      '+    "concurrency": { "type": "integer", "default": 8 },',
      '   }',
    ]);
    const result = analyzeImpact({ diff, pages });
    expect(affected(result)).toEqual(['configuration.md']);
    expect(evidenceOf(result, 'configuration.md')[0]).toMatchObject({ name: 'concurrency', oldValue: '4' });
  });

  it('tells a stated default from a sentence that sets the option', () => {
    const docs = [
      {
        path: 'options.md',
        text: '# Options\n\n### `strictMode`\n\n* **Default:** `true`\n\nRejects unknown keys.\n',
      },
      {
        path: 'errors.md',
        text: '# Errors\n\n| `ERR_UNKNOWN_KEY` | Set `strictMode: true` to reject it. By default keys pass. |\n',
      },
    ];
    const diff = filePatch('src/defaults.ts', ['-  strictMode: true,', '+  strictMode: false,']);
    const result = analyzeImpact({ diff, pages: docs });
    expect(affected(result)).toEqual(['options.md']);
    expect(result.pages.map((page) => page.path)).toEqual(['options.md', 'errors.md']);
  });

  it('finds an environment variable the code no longer reads, on an MDX page', () => {
    const diff = filePatch('src/paths.js', [
      '-const cacheDir = process.env.APP_CACHE_DIR ?? defaultCache()',
      '+const cacheDir = process.env.APP_CACHE_PATH ?? defaultCache()',
    ]);
    const result = analyzeImpact({ diff, pages });
    expect(affected(result)).toEqual(['environment.mdx']);
    expect(evidenceOf(result, 'environment.mdx')[0]).toMatchObject({
      name: 'APP_CACHE_DIR',
      change: 'renamed',
      renamedTo: 'APP_CACHE_PATH',
    });
  });

  it('sends a new error code to the page that lists its family', () => {
    const diff = [
      filePatch('src/errors.ts', [
        "   export const ERR_TIMEOUT = 'ERR_TIMEOUT'",
        "+  export const ERR_QUOTA_EXCEEDED = 'ERR_QUOTA_EXCEEDED'",
      ]),
      filePatch('test/errors.test.ts', [
        "+  it('fails past the quota', () => expect(run()).rejects.toThrow('ERR_QUOTA_EXCEEDED'))",
      ]),
    ].join('\n');
    const result = analyzeImpact({ diff, pages });
    expect(affected(result)).toEqual(['reference/errors.md']);
    expect(evidenceOf(result, 'reference/errors.md')).toContainEqual(
      expect.objectContaining({ kind: 'family', name: 'ERR_QUOTA_EXCEEDED', family: 'ERR_*' }),
    );
  });

  it('sends a new option to the page documenting its sibling options', () => {
    const diff = [
      filePatch('types/client.d.ts', [
        '   export interface ClientOptions {',
        '     keepAlive?: boolean',
        '     maxSockets?: number',
        '+    keepAliveTimeout?: number',
        '     socketPath?: string',
        '   }',
      ]),
      filePatch('test/client.test.ts', [
        '+  const client = new Client({ keepAlive: true, keepAliveTimeout: 1000, maxSockets: 2 })',
      ]),
    ].join('\n');
    const result = analyzeImpact({ diff, pages });
    expect(affected(result)).toEqual(['reference/client.md']);
    expect(evidenceOf(result, 'reference/client.md')[0]).toMatchObject({
      kind: 'sibling',
      name: 'keepAliveTimeout',
      siblings: expect.arrayContaining(['keepAlive', 'maxSockets']),
    });
  });

  it('finds a removed route', () => {
    const diff = filePatch('src/routes.js', [
      "   router.post('/api/v1/sessions', signIn)",
      "-  router.get('/api/v1/users', listUsers)",
    ]);
    const result = analyzeImpact({ diff, pages });
    expect(affected(result)).toEqual(['api/routes.md']);
    expect(evidenceOf(result, 'api/routes.md')[0]).toMatchObject({
      name: '/api/v1/users',
      change: 'removed',
    });
  });

  it('reads other languages: a Python flag default and a new exported Go field', () => {
    const python = filePatch('acme/cli.py', [
      '   parser = argparse.ArgumentParser()',
      "-  parser.add_argument('--max-retries', type=int, default=3)",
      "+  parser.add_argument('--max-retries', type=int, default=5)",
    ]);
    const fromPython = analyzeImpact({ diff: python, pages });
    expect(affected(fromPython)).toEqual(['cli.md']);
    expect(evidenceOf(fromPython, 'cli.md')[0]).toMatchObject({
      name: '--max-retries',
      change: 'default-changed',
      oldValue: '3',
      newValue: '5',
    });
    const go = filePatch('client/options.go', [
      '   type Options struct {',
      '     KeepAlive  bool',
      '     MaxSockets int',
      '+    MaxIdleTime time.Duration',
      '     SocketPath string',
      '   }',
    ]);
    expect(affected(analyzeImpact({ diff: go, pages }))).toEqual(['reference/client.md']);
  });

  it('finds a route whatever the syntax of its parameters', () => {
    const routes = [
      { path: 'api/users.md', text: '# Users\n\n## Get a user\n\n`GET /api/v1/users/{userId}`\n' },
    ];
    const diff = filePatch('src/routes.js', [
      "   router.get('/api/v1/users', listUsers)",
      "-  router.get('/api/v1/users/:id', getUser)",
      "+  router.get('/api/v2/users/:id', getUser)",
    ]);
    expect(affected(analyzeImpact({ diff, pages: routes }))).toEqual(['api/users.md']);
  });

  it('lists nothing for a lockfile-only diff', () => {
    const diff = filePatch('package-lock.json', [
      '     "node_modules/acme-retry": {',
      '-      "version": "1.0.0",',
      '+      "version": "1.0.1",',
      '     }',
    ]);
    expect(analyzeImpact({ diff, pages }).pages).toEqual([]);
  });

  it('lists nothing for a test-only diff, even one that names documented flags', () => {
    const diff = filePatch('test/cli.test.ts', [
      "-  it('retries', () => run(['--max-retries', '2', '--legacy-output']))",
      "+  it('retries twice', () => run(['--max-retries', '2']))",
    ]);
    expect(analyzeImpact({ diff, pages }).pages).toEqual([]);
  });

  it('lists nothing for a refactor that moves documented names around', () => {
    const diff = filePatch('src/client.js', [
      '   function open (options) {',
      '-    const sockets = options.maxSockets || Infinity',
      '-    const reuse = options.keepAlive === true',
      '+    const { maxSockets = Infinity, keepAlive = false } = options',
      '+    const reuse = keepAlive === true',
      '+    const sockets = maxSockets',
      '     return connect(sockets, reuse)',
      '   }',
    ]);
    const result = analyzeImpact({ diff, pages });
    expect(affected(result)).toEqual([]);
    // Still ranked: the page that documents the touched options comes first.
    expect(result.pages[0]?.path).toBe('reference/client.md');
  });

  it('ranks by the docs search when the diff names nothing documented', () => {
    const diff = filePatch('lib/client.js', [
      '   function request (target) {',
      '-    return send(target)',
      '+    return send(normalize(target))',
      '   }',
    ]);
    const result = analyzeImpact({ diff, pages });
    expect(affected(result)).toEqual([]);
    expect(result.pages[0]).toMatchObject({ path: 'reference/client.md' });
    expect(result.pages[0]!.evidence.map((item) => item.kind)).toContain('file-name');
  });

  it('keeps a huge diff bounded in time and memory', () => {
    const lines = Array.from(
      { length: 120_000 },
      (_, index) => `+  const generatedValue${index} = computeThing${index % 500}(input.fieldNumber${index})`,
    );
    const diff = filePatch('src/huge.js', lines, 1);
    expect(diff.length).toBeGreaterThan(5_000_000);
    const started = performance.now();
    const result = analyzeImpact({ diff, pages, limit: 5 });
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(result.pages.length).toBeLessThanOrEqual(5);
    expect(affected(result)).toEqual([]);
  });

  it('keeps a large docs tree bounded', () => {
    const paragraph = (index: number) =>
      `The option${index} setting changes how request${index % 7} and response${index % 11} behave.`;
    const big = Array.from({ length: 400 }, (_, page) => ({
      path: `reference/page-${page}.md`,
      text: [
        `# Page ${page}`,
        '',
        ...Array.from({ length: 120 }, (_, line) => paragraph(page * 120 + line)),
      ].join('\n'),
    }));
    const diff = filePatch('src/cli.ts', [
      "-    .option('--legacy-output', 'print the version 1 report')",
      '-    option17: true,',
    ]);
    const started = performance.now();
    const result = analyzeImpact({ diff, pages: [...big, ...pages] });
    expect(performance.now() - started).toBeLessThan(6_000);
    expect(affected(result)).toEqual(['cli.md']);
  });

  it('returns at most `limit` pages, most affected first, and never a file that is no page', () => {
    const diff = filePatch('src/cli.ts', [
      "-    .option('--legacy-output', 'print the version 1 report')",
      '-    maxRetries: 3,',
    ]);
    const result = analyzeImpact({ diff, pages, limit: 1 });
    expect(result.pages).toHaveLength(1);
    expect(result.pages[0]!.path).toBe('cli.md');
    const all = analyzeImpact({ diff, pages });
    expect(all.pages.map((page) => page.path)).not.toContain('README.md');
    const scores = all.pages.map((page) => page.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });
});
