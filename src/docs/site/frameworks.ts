import { posix } from 'node:path';
import { parseDocument, isMap, isScalar } from 'yaml';
import type { DeclaredDocsFramework } from '../../core/docs-frameworks.js';

/** The docs frameworks docwright reads and edits, and `markdown`: a folder of pages with no framework config. */
export type DocsFramework = DeclaredDocsFramework | 'markdown';

/**
 * Where a site's parts are in the repository, and the few config values that decide its URLs.
 * Values are read from the config where it writes them as literals; a value computed by code
 * falls back to the framework's default.
 */
export interface SiteLayout {
  framework: DocsFramework;
  /** Folder of the framework's config, relative to the repository (`''`: the root). */
  siteRoot: string;
  /** Folder of the pages, relative to the repository. */
  pagesRoot: string;
  /** The framework's config file, relative to the repository. */
  configFile?: string;
  /** The file that holds the navigation, relative to the repository (may be the config file). */
  navigationFile?: string;
  /** URL path prefix of every page, with slashes around it (`/`, `/project/`, `/project/docs/`). */
  urlBase: string;
  /**
   * URL path the site itself is served under (`/project/` for Docusaurus's `baseUrl`, VitePress's and
   * Starlight's `base`, the path of MkDocs' `site_url`): absolute links in pages are read from it.
   */
  siteBase: string;
  /**
   * Which pages the framework parses as MDX: `mdx-files` (`.mdx` only), `all` (Docusaurus 3 parses
   * `.md` as MDX too unless its config says `format: 'detect'`) or `none` (Docusaurus 2's MDX 1,
   * which accepts what MDX 2 refuses, is not checked as MDX).
   */
  mdx: 'mdx-files' | 'all' | 'none';
  /** Whether the framework's build fails on a link to a missing page. */
  brokenLinksFail: boolean;
  /**
   * How the built site spells a page's address, for a link that lands on it without a redirect:
   * `plain` (`/guide/setup`), `slash` (`/guide/setup/`: MkDocs directory URLs, Starlight, Docusaurus
   * with `trailingSlash: true`) or `html` (`/guide/setup.html`: VitePress without `cleanUrls`, MkDocs
   * with `use_directory_urls: false`; a folder's page keeps its slash).
   */
  urlStyle: 'plain' | 'slash' | 'html';
  /** Extension new pages take: what the site's pages mostly use, else the framework's own. */
  pageExtension: '.md' | '.mdx';
  /** Language folders (first path segment of a page) that hold translations. */
  translationFolders: string[];
  /** The site's name as its config writes it (MkDocs `site_name`, a literal `title`), if it does. */
  siteName?: string;
}

/** Reads files of the repository by path (relative to the repository); undefined when absent. */
export interface LayoutFiles {
  has(path: string): boolean;
  read(path: string): Promise<string | undefined>;
}

const JS_EXTENSIONS = ['js', 'mjs', 'cjs', 'ts', 'mts', 'cts'];
const DOCUSAURUS_CONFIGS = JS_EXTENSIONS.map((extension) => `docusaurus.config.${extension}`);
const VITEPRESS_CONFIGS = JS_EXTENSIONS.map((extension) => `.vitepress/config.${extension}`);
const ASTRO_CONFIGS = JS_EXTENSIONS.map((extension) => `astro.config.${extension}`);
const MKDOCS_CONFIGS = ['mkdocs.yml', 'mkdocs.yaml'];
const MINTLIFY_CONFIGS = ['docs.json', 'mint.json'];
const DOCUSAURUS_SIDEBARS = JS_EXTENSIONS.map((extension) => `sidebars.${extension}`);

/** Every file name that marks a docs site's folder, of any framework (Starlight's is an Astro config). */
export const SITE_CONFIG_FILES = [
  ...DOCUSAURUS_CONFIGS,
  ...MKDOCS_CONFIGS,
  ...VITEPRESS_CONFIGS,
  ...ASTRO_CONFIGS,
  ...MINTLIFY_CONFIGS,
];

const join = (...parts: string[]) => posix.join(...parts.filter((part) => part !== '')).replace(/^\.$/, '');

/** A string property written as a literal in a JS/TS config (`baseUrl: '/docs/'`); the first one found. */
function literal(text: string, name: string): string | undefined {
  const match = new RegExp(`\\b${name}\\s*:\\s*(['"\`])([^'"\`\\n]*)\\1`).exec(text);
  return match?.[2];
}

/** `/`, `/project/`: a base as the frameworks write it, with slashes around it. */
function slashed(base: string | undefined): string {
  const trimmed = (base ?? '').trim().replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '/' : `/${trimmed}/`;
}

/** The path of a URL (`https://example.org/proj/` → `/proj/`); `/` when there is none. */
function urlPathOf(url: string | undefined): string {
  if (url === undefined) return '/';
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/[^?#]*)?/i.exec(url.trim());
  return slashed(match ? (match[1] ?? '/') : url);
}

/** The first of `names` that exists in `folder`. */
function findIn(files: LayoutFiles, folder: string, names: readonly string[]): string | undefined {
  return names.map((name) => join(folder, name)).find((path) => files.has(path));
}

/** Folders from `folder` up to the repository root, nearest first. */
function foldersUp(folder: string): string[] {
  const folders: string[] = [];
  let current = folder;
  for (;;) {
    folders.push(current);
    if (current === '') return folders;
    current = posix.dirname(current) === '.' ? '' : posix.dirname(current);
  }
}

/** Whether `inner` is `outer` or inside it. */
function within(inner: string, outer: string): boolean {
  return outer === '' || inner === outer || inner.startsWith(`${outer}/`);
}

type Detected = { framework: DocsFramework; siteRoot: string; configFile: string; pagesRoot: string };

/**
 * Finds the site a docs root names. The docs root may be the framework's config folder or its
 * pages folder (or a folder in between): the config is looked for in the docs root and then in the
 * folders above it, and a config above counts only when the docs root lies in its pages folder.
 * A declared framework is looked for alone.
 */
export async function detectLayout(
  files: LayoutFiles,
  docsRoot: string,
  declared?: DocsFramework,
): Promise<SiteLayout> {
  for (const folder of foldersUp(docsRoot)) {
    const found = await detectAt(files, folder, declared);
    if (
      found &&
      (folder === docsRoot || within(docsRoot, found.pagesRoot) || within(found.pagesRoot, docsRoot))
    )
      return complete(files, found);
  }
  const framework = declared ?? 'markdown';
  return complete(files, { framework, siteRoot: docsRoot, configFile: '', pagesRoot: docsRoot });
}

/**
 * How each framework's site is recognised in a folder, most specific first: its config files, a
 * test of the config's text where the file name alone is not enough (an Astro config is a
 * Starlight site only with `@astrojs/starlight`), and where the config puts the pages.
 */
const DETECTORS: {
  framework: DeclaredDocsFramework;
  configs: readonly string[];
  accepts?: (config: string) => boolean;
  pagesFolder: (config: string) => string;
}[] = [
  {
    framework: 'docusaurus',
    configs: DOCUSAURUS_CONFIGS,
    pagesFolder: (config) => docsPluginOptions(config, 'path') ?? 'docs',
  },
  {
    framework: 'mkdocs',
    configs: MKDOCS_CONFIGS,
    pagesFolder: (config) => mkdocsValue(config, 'docs_dir') ?? 'docs',
  },
  {
    framework: 'vitepress',
    configs: VITEPRESS_CONFIGS,
    pagesFolder: (config) => literal(config, 'srcDir') ?? '.',
  },
  {
    framework: 'starlight',
    configs: ASTRO_CONFIGS,
    accepts: (config) => /@astrojs\/starlight/.test(config),
    pagesFolder: () => 'src/content/docs',
  },
  { framework: 'mintlify', configs: MINTLIFY_CONFIGS, pagesFolder: () => '.' },
];

async function detectAt(
  files: LayoutFiles,
  folder: string,
  declared?: DocsFramework,
): Promise<Detected | undefined> {
  for (const detector of DETECTORS) {
    if (declared !== undefined && declared !== detector.framework) continue;
    const configFile = findIn(files, folder, detector.configs);
    if (configFile === undefined) continue;
    const config = (await files.read(configFile)) ?? '';
    if (detector.accepts && !detector.accepts(config)) continue;
    const pagesRoot = join(folder, detector.pagesFolder(config));
    return { framework: detector.framework, siteRoot: folder, configFile, pagesRoot };
  }
  return undefined;
}

/**
 * An option of the docs plugin in a Docusaurus config (`path`, `routeBasePath`): the literal after
 * `docs: {` of the classic preset, or in the config of `@docusaurus/plugin-content-docs`.
 */
function docsPluginOptions(text: string, name: string): string | undefined {
  const start = text.search(/\bdocs\s*:\s*\{|plugin-content-docs/);
  return start === -1 ? undefined : literal(text.slice(start, start + 2000), name);
}

/** A top-level scalar of `mkdocs.yml`; Python tags and other unknowns are left unread. */
function mkdocsValue(text: string, name: string): string | undefined {
  const document = parseDocument(text, { uniqueKeys: false });
  if (!isMap(document.contents)) return undefined;
  const pair = document.contents.items.find((item) => isScalar(item.key) && item.key.value === name);
  const value = pair && isScalar(pair.value) ? pair.value.value : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

async function complete(files: LayoutFiles, found: Detected): Promise<SiteLayout> {
  const config = found.configFile === '' ? '' : ((await files.read(found.configFile)) ?? '');
  const layout: SiteLayout = {
    framework: found.framework,
    siteRoot: found.siteRoot,
    pagesRoot: found.pagesRoot,
    urlBase: '/',
    siteBase: '/',
    urlStyle: 'plain',
    mdx: 'mdx-files',
    // Docusaurus, MkDocs --strict and VitePress fail their builds on a link to a missing page;
    // Starlight and Mintlify build it (Mintlify's separate `broken-links` command reports it).
    brokenLinksFail: ['docusaurus', 'mkdocs', 'vitepress'].includes(found.framework),
    pageExtension: found.framework === 'mintlify' || found.framework === 'markdown' ? '.mdx' : '.md',
    translationFolders: [],
  };
  if (found.configFile !== '') layout.configFile = found.configFile;
  // Mintlify's `name` is read with the rest of docs.json (see readerPages).
  const name = found.framework === 'mkdocs' ? mkdocsValue(config, 'site_name') : literal(config, 'title');
  if (name?.trim()) layout.siteName = name.trim();
  switch (found.framework) {
    case 'docusaurus': {
      const route = docsPluginOptions(config, 'routeBasePath') ?? 'docs';
      layout.siteBase = slashed(literal(config, 'baseUrl'));
      layout.urlBase = slashed(`${layout.siteBase}${route}`);
      const major = await docusaurusMajor(files, found.siteRoot);
      layout.mdx = major === 2 ? 'none' : /\bformat\s*:\s*['"]detect['"]/.test(config) ? 'mdx-files' : 'all';
      layout.brokenLinksFail = !/\bonBrokenLinks\s*:\s*['"](ignore|log|warn)['"]/.test(config);
      if (/\btrailingSlash\s*:\s*true\b/.test(config)) layout.urlStyle = 'slash';
      layout.navigationFile = findIn(files, found.siteRoot, DOCUSAURUS_SIDEBARS);
      layout.translationFolders = [];
      break;
    }
    case 'mkdocs':
      layout.urlBase = layout.siteBase = urlPathOf(mkdocsValue(config, 'site_url'));
      layout.urlStyle = /^use_directory_urls:\s*false\b/m.test(config) ? 'html' : 'slash';
      layout.mdx = 'none';
      layout.navigationFile = found.configFile;
      break;
    case 'vitepress':
      // Sidebar groups have a `base` of their own: the site's is the one outside `themeConfig`.
      layout.urlBase = layout.siteBase = slashed(literal(withoutBlock(config, 'themeConfig'), 'base'));
      layout.navigationFile = found.configFile;
      layout.translationFolders = localeKeys(config);
      layout.mdx = 'none';
      layout.brokenLinksFail = !/\bignoreDeadLinks\s*:\s*true/.test(config);
      layout.urlStyle = /\bcleanUrls\s*:\s*true\b/.test(config) ? 'plain' : 'html';
      break;
    case 'starlight':
      layout.urlBase = layout.siteBase = slashed(literal(config, 'base'));
      layout.navigationFile = found.configFile;
      layout.translationFolders = localeKeys(config);
      layout.urlStyle = /\btrailingSlash\s*:\s*['"]never['"]/.test(config) ? 'plain' : 'slash';
      // Starlight builds a broken link, unless the site adds the links validator plugin.
      layout.brokenLinksFail = /starlight-links-validator/.test(config);
      break;
    case 'mintlify':
      layout.navigationFile = found.configFile;
      break;
    case 'markdown':
      break;
  }
  return layout;
}

/** The text without the balanced `{ … }` that follows `key:` (every occurrence). */
function withoutBlock(text: string, key: string): string {
  let result = text;
  for (let start = result.search(new RegExp(`\\b${key}\\s*:\\s*\\{`)); start !== -1;) {
    const open = result.indexOf('{', start);
    let depth = 0;
    let end = open;
    for (; end < result.length; end++) {
      if (result[end] === '{') depth++;
      else if (result[end] === '}' && --depth === 0) break;
    }
    result = result.slice(0, start) + result.slice(end + 1);
    start = result.search(new RegExp(`\\b${key}\\s*:\\s*\\{`));
  }
  return result;
}

/** The major version of `@docusaurus/core` the site's package.json asks for, if it says. */
async function docusaurusMajor(files: LayoutFiles, siteRoot: string): Promise<number | undefined> {
  for (const folder of foldersUp(siteRoot)) {
    const text = await files.read(join(folder, 'package.json'));
    const version =
      text === undefined ? undefined : /"@docusaurus\/core"\s*:\s*"[^\d"]*(\d+)/.exec(text)?.[1];
    if (version !== undefined) return Number(version);
  }
  return undefined;
}

/** The keys of a literal `locales: { root: …, fr: … }` object other than the root locale. */
function localeKeys(config: string): string[] {
  const start = config.search(/\blocales\s*:\s*\{/);
  if (start === -1) return [];
  const keys = new Set<string>();
  let depth = 0;
  const body = config.slice(config.indexOf('{', start));
  for (let index = 0; index < body.length && index < 5000; index++) {
    const char = body[index];
    if (char === '{') depth++;
    else if (char === '}' && --depth === 0) break;
    else if (depth === 1) {
      const key = /^\s*['"]?([A-Za-z]{2,3}(?:-[A-Za-z]{2,4})?)['"]?\s*:/.exec(body.slice(index));
      if (key && /[{,\s]/.test(body[index - 1] ?? '')) {
        keys.add(key[1]!);
        index += key[0].length - 1;
      }
    }
  }
  keys.delete('root');
  return [...keys];
}
