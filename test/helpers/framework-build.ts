/**
 * The docs frameworks' own builds, as an oracle for the tests: build a site folder with the real
 * framework and learn whether it builds and which pages it has.
 *
 * The frameworks stay out of the project's package.json. scripts/install-doc-frameworks.sh installs
 * each one, pinned by test/frameworks/<kind>/package-lock.json, into $DOCWRIGHT_FRAMEWORKS_DIR/<kind>,
 * and MkDocs (with the Material theme) from Debian's packages. Without those, buildUnavailable() says
 * why and the tests skip.
 *
 * A Node framework's build runs on a copy of the site placed inside its install folder
 * ($DOCWRIGHT_FRAMEWORKS_DIR/<kind>/builds/...), so the site's imports find the framework the plain
 * way, in a node_modules folder further up, and the copy is removed afterwards. A symlinked
 * node_modules in a temp site is not enough: Astro then sees its own components outside the project
 * and fails to compile their styles.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

export type SiteKind = 'docusaurus2' | 'docusaurus3' | 'mkdocs' | 'vitepress' | 'starlight' | 'mintlify';

const FIXTURES = fileURLToPath(new URL('../fixtures/sites/', import.meta.url));

/** A build that runs longer than this is killed, with all it started, and counts as failed. */
const BUILD_TIMEOUT_MS = 240_000;

/** How much of the end of a build's output buildSite returns. */
const OUTPUT_TAIL = 4000;

/** Each Node framework's command line, inside its install folder. */
const CLI: Record<Exclude<SiteKind, 'mkdocs'>, string> = {
  docusaurus2: 'node_modules/@docusaurus/core/bin/docusaurus.mjs',
  docusaurus3: 'node_modules/@docusaurus/core/bin/docusaurus.mjs',
  vitepress: 'node_modules/vitepress/bin/vitepress.js',
  starlight: 'node_modules/astro/astro.js',
  mintlify: 'node_modules/mint/index.js',
};

function frameworksDir(): string | undefined {
  const dir = process.env.DOCWRIGHT_FRAMEWORKS_DIR;
  return dir ? path.resolve(dir) : undefined;
}

/** Why builds of this kind cannot run here (undefined when they can): env var unset, install missing, mkdocs not on PATH. */
export function buildUnavailable(kind: SiteKind): string | undefined {
  if (kind === 'mkdocs') {
    const probe = spawnSync('mkdocs', ['--version'], { encoding: 'utf8' });
    if (probe.error || probe.status !== 0) {
      return "mkdocs is not on PATH (scripts/install-doc-frameworks.sh installs Debian's mkdocs and mkdocs-material)";
    }
    return undefined;
  }
  const dir = frameworksDir();
  if (!dir)
    return 'DOCWRIGHT_FRAMEWORKS_DIR is not set (run scripts/install-doc-frameworks.sh DIR, then export it)';
  const cli = path.join(dir, kind, CLI[kind]);
  if (!fs.existsSync(cli)) {
    return `${kind} is not installed in ${path.join(dir, kind)} (run scripts/install-doc-frameworks.sh ${dir})`;
  }
  return undefined;
}

/** Copies a fixture to a fresh temp folder (a job's output is then written there by tests) and returns its path. */
export function copyFixture(name: string): string {
  const source = path.join(FIXTURES, name);
  if (!fs.existsSync(source)) throw new Error(`no fixture site named ${name} in ${FIXTURES}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `docwright-site-${name}-`));
  fs.cpSync(source, dir, { recursive: true });
  return dir;
}

/**
 * Builds the site whose framework config sits in `siteRoot` (absolute path of the folder with
 * docusaurus.config.js / mkdocs.yml / the folder holding .vitepress / astro.config.mjs / docs.json),
 * strictly: mkdocs --strict; Docusaurus with the throw-on-broken-links settings its config has;
 * vitepress build, which fails on dead links by default; astro build, where the Starlight fixture's
 * links validator plugin fails on a broken link; Mintlify's `mint broken-links`, the one check of
 * its CLI that runs offline (it renders no pages).
 *
 * Returns ok, the combined output (its last ~4000 characters, colours removed), the build time, and
 * the URL paths of the built HTML pages as a reader requests them, in this normal form: the site's
 * base first ('/project/docs/intro', '/proj/guide/setup'), no trailing slash, no `.html`, a folder's
 * `index` page as the folder ('/project' for the home page under base '/project/', '/' at the root)
 * and 404 pages left out. The base comes from the config the build resolved (Docusaurus baseUrl,
 * VitePress base) or from the config as written (MkDocs site_url's path, Astro `base`). Mintlify builds nothing here, so its routes come from
 * its rule instead: every .md/.mdx page outside snippets/ is served at its path without extension.
 */
export async function buildSite(
  kind: SiteKind,
  siteRoot: string,
): Promise<{ ok: boolean; output: string; routes: string[]; ms: number }> {
  const why = buildUnavailable(kind);
  if (why) throw new Error(`cannot build ${kind} sites here: ${why}`);
  const started = performance.now();
  const scratch = kind === 'mkdocs' ? os.tmpdir() : path.join(frameworksDir()!, kind, 'builds');
  fs.mkdirSync(scratch, { recursive: true });
  const work = fs.mkdtempSync(path.join(scratch, 'build-'));
  try {
    let site = siteRoot;
    let command: string;
    let args: string[];
    let outDir: string;
    if (kind === 'mkdocs') {
      // Written outside the site, so the folder under test stays as the test left it.
      outDir = path.join(work, 'site');
      command = 'mkdocs';
      args = ['build', '--strict', '--site-dir', outDir];
    } else {
      site = path.join(work, 'site');
      fs.cpSync(siteRoot, site, {
        recursive: true,
        filter: (source) => path.basename(source) !== 'node_modules',
      });
      command = process.execPath;
      args = [path.join(frameworksDir()!, kind, CLI[kind])];
      if (kind === 'docusaurus2' || kind === 'docusaurus3') args.push('build');
      if (kind === 'vitepress') args.push('build', '.');
      if (kind === 'starlight') args.push('build');
      if (kind === 'mintlify') args.push('broken-links');
      outDir = {
        docusaurus2: path.join(site, 'build'),
        docusaurus3: path.join(site, 'build'),
        vitepress: path.join(site, '.vitepress', 'dist'),
        starlight: path.join(site, 'dist'),
        mintlify: site,
      }[kind];
    }
    const { ok, output } = await run(command, args, site, buildEnv(work));
    const routes = ok ? collectRoutes(kind, site, outDir) : [];
    return { ok, output, routes, ms: Math.round(performance.now() - started) };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The build's environment: no telemetry, update checks or prompts, and none of the test runner's
 * settings. Vitest sets NODE_ENV=test, which would make the frameworks build for tests instead of
 * production. Mintlify's CLI keeps state in the home folder, so it gets a scratch one.
 */
function buildEnv(work: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key === 'NODE_ENV' || key === 'NODE_OPTIONS' || key.startsWith('VITEST')) continue;
    env[key] = value;
  }
  const home = path.join(work, 'home');
  fs.mkdirSync(home, { recursive: true });
  return {
    ...env,
    CI: 'true',
    NO_UPDATE_NOTIFIER: '1',
    ASTRO_TELEMETRY_DISABLED: '1',
    DO_NOT_TRACK: '1',
    SCARF_ANALYTICS: 'false',
    BROWSERSLIST_IGNORE_OLD_DATA: '1',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    HOME: home,
  };
}

/** Runs one build in its own process group, so a timeout can end everything it started. */
function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    let output = '';
    const keep = (chunk: Buffer) => {
      // Keep a little more than is returned: colour codes are removed afterwards.
      output = (output + chunk.toString('utf8')).slice(-4 * OUTPUT_TAIL);
    };
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, BUILD_TIMEOUT_MS);
    const finish = (ok: boolean, note?: string) => {
      clearTimeout(timer);
      // A build may leave helpers running (a worker pool); they go with the group.
      killGroup(child.pid);
      const text = stripAnsi(note ? `${output}\n${note}` : output);
      resolve({ ok, output: text.slice(-OUTPUT_TAIL) });
    };
    child.on('error', (error) => finish(false, `could not start ${command}: ${error.message}`));
    child.on('close', (code, signal) => {
      if (timedOut) finish(false, `timed out after ${BUILD_TIMEOUT_MS / 1000} s; killed`);
      else finish(code === 0, code === 0 ? undefined : `exit code ${code ?? signal}`);
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group has already ended.
  }
}

function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '');
}

function collectRoutes(kind: SiteKind, site: string, outDir: string): string[] {
  if (kind === 'mintlify') return mintlifyRoutes(site);
  const base = siteBase(kind, site, outDir);
  const routes = new Set<string>();
  for (const file of walk(outDir)) {
    if (!file.endsWith('.html')) continue;
    let route = file.slice(0, -'.html'.length);
    if (route === 'index' || route.endsWith('/index')) route = route.slice(0, -'index'.length);
    route = route.replace(/\/$/, '');
    if (route === '404' || route.endsWith('/404')) continue;
    routes.add(normalRoute(base + route));
  }
  return [...routes].sort();
}

function mintlifyRoutes(site: string): string[] {
  const routes = new Set<string>();
  for (const file of walk(site)) {
    if (!/\.mdx?$/.test(file) || file.startsWith('snippets/')) continue;
    routes.add(normalRoute('/' + file.replace(/\.mdx?$/, '').replace(/(^|\/)index$/, '')));
  }
  return [...routes].sort();
}

/** '/a/b/' and '/a/b' both become '/a/b'; the root stays '/'. */
function normalRoute(route: string): string {
  const squeezed = route.replace(/\/{2,}/g, '/');
  return squeezed.length > 1 ? squeezed.replace(/\/$/, '') : squeezed;
}

/** The site's base path, with a slash at both ends ('/project/'), or '/'. */
function siteBase(kind: SiteKind, site: string, outDir: string): string {
  let base: string | undefined;
  if (kind === 'docusaurus2' || kind === 'docusaurus3') {
    // The build writes its resolved config, with baseUrl as JSON, next to the site.
    base = matchIn(path.join(site, '.docusaurus', 'docusaurus.config.mjs'), /"baseUrl":\s*"([^"]*)"/);
  } else if (kind === 'mkdocs') {
    const config = parseYaml(fs.readFileSync(path.join(site, 'mkdocs.yml'), 'utf8'), {
      // mkdocs.yml may tag values for Python (!!python/name:...); their text is enough here.
      customTags: (tags) => tags,
      logLevel: 'silent',
    }) as { site_url?: unknown } | null;
    if (typeof config?.site_url === 'string') base = new URL(config.site_url).pathname;
  } else if (kind === 'vitepress') {
    // Each built page carries the resolved site data, base included, as an escaped JSON string
    // (a sidebar group's own `base:` in the config would fool a look at the config's text).
    base = matchIn(path.join(outDir, '404.html'), /\\"base\\":\\"([^"\\]*)\\"/);
  } else if (kind === 'starlight') {
    const config = ['astro.config.mjs', 'astro.config.ts', 'astro.config.mts']
      .map((name) => path.join(site, name))
      .find((file) => fs.existsSync(file));
    if (config) base = matchIn(config, /^\s*base:\s*['"`]([^'"`]+)['"`]/m);
  }
  if (!base) return '/';
  return `/${base.replace(/^\/+|\/+$/g, '')}/`.replace(/^\/\/$/, '/');
}

function matchIn(file: string, pattern: RegExp): string | undefined {
  if (!fs.existsSync(file)) return undefined;
  return pattern.exec(fs.readFileSync(file, 'utf8'))?.[1];
}

/** Every file under `dir`, as paths relative to it with forward slashes; node_modules left out. */
function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !file.split('/').includes('node_modules'));
}
