/**
 * Builds the Action's `dist/` (or the folder given as the first argument): ncc bundles
 * src/action/index.ts with every dependency, then esbuild minifies each file it wrote.
 *
 * Why two steps: the runner's parts (engine, agents, model SDKs) are split into chunks of their own,
 * so a step that stops before it needs them, and server mode always, never parses them; ncc's own
 * `--minify` leaves such chunks as they are. esbuild also writes ASCII only (every other character
 * escaped), which Node reads and V8 scans as one-byte text, faster than the UTF-8 it would be.
 *
 * Left out on purpose: the AWS credential chain (@aws-sdk/credential-provider-node, with its SSO,
 * STS and metadata clients), which the Action never uses, as it reads Bedrock's keys from the
 * environment. Its one import (src/models/aws-credential-chain.ts) is marked `webpackIgnore`, so ncc
 * leaves it as a dynamic import. Not `--external`: in an ES module bundle ncc hoists an external to
 * a static import at the top of index.js, which would stop the Action from loading where the
 * package is not installed.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { transform } from 'esbuild';

const out = path.resolve(process.argv[2] ?? 'dist');
const ncc = createRequire(import.meta.url).resolve('@vercel/ncc/dist/ncc/cli.js');
const work = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-package-'));
const statsFile = path.join(work, 'stats.json');

await fs.rm(out, { recursive: true, force: true });
execFileSync(
  process.execPath,
  [
    ncc,
    'build',
    'src/action/index.ts',
    '-o',
    out,
    '--stats-out',
    statsFile,
    '--target',
    'es2022',
    '--transpile-only',
    '--quiet',
  ],
  { stdio: 'inherit' },
);
for (const file of (await fs.readdir(out)).filter((name) => name.endsWith('.js')).sort()) {
  const where = path.join(out, file);
  const { code } = await transform(await fs.readFile(where, 'utf8'), {
    loader: 'js',
    minify: true,
    target: 'es2022',
    charset: 'ascii',
    legalComments: 'inline',
  });
  await fs.writeFile(where, code);
}
await fs.writeFile(path.join(out, 'licenses.txt'), await licenses(statsFile));
await fs.rm(work, { recursive: true, force: true });

interface StatsModule {
  name?: string;
  modules?: StatsModule[];
}

/**
 * The license of every package a module of the bundle comes from: its name, its `license` field
 * and its license file, in the layout ncc's `--license` writes. ncc's own list is built by a
 * plugin that misses the packages of the entry chunk once the bundle is split (@octokit, hono, …).
 */
async function licenses(stats: string): Promise<string> {
  const { modules = [] } = JSON.parse(await fs.readFile(stats, 'utf8')) as { modules?: StatsModule[] };
  const flat = (list: StatsModule[]): StatsModule[] =>
    list.flatMap((item) => [item, ...flat(item.modules ?? [])]);
  const folders = new Set<string>();
  for (const { name } of flat(modules)) {
    const match = name && /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(name.replace(/^\.\//, ''));
    if (match) folders.add(match[1]!);
  }
  const entries = new Map<string, string>();
  for (const folder of folders) {
    const manifest = JSON.parse(await fs.readFile(path.join(folder, 'package.json'), 'utf8')) as {
      name: string;
      license?: string;
    };
    const file = (await fs.readdir(folder)).find((entry) => /^licen[cs]e(\.(md|txt))?$/i.test(entry));
    const text = file ? (await fs.readFile(path.join(folder, file), 'utf8')).trim() : '';
    entries.set(manifest.name, `${manifest.name}\n${manifest.license ?? 'UNKNOWN'}\n${text}\n`);
  }
  return [...entries]
    .sort(([left], [right]) => (left < right ? -1 : 1))
    .map(([, entry]) => entry)
    .join('\n');
}
