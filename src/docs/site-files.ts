import { posix } from 'node:path';
import { asError } from '../core/errors.js';
import { resolveConfigReferences } from './config-references.js';
import { parseDocsRoot } from '../write-policy/index.js';
import { docsTreeOf, type DocsTree, type RepositoryFiles } from './docs-tree.js';
import { readFrontmatter } from './frontmatter.js';
import { splitFrontmatter } from './page-syntax.js';
import { detectLayout, type DocsFramework, type LayoutFiles, type SiteLayout } from './site/frameworks.js';
import { readNavigationText } from './site/navigation-editors.js';
import { navigationPages, type NavigationItem } from './site/navigation-tree.js';
import { gitignoreMatcher } from './site/gitignore.js';
import { pageRules, type PageIdentity } from './site/page-rules.js';
import { oldVersionFolders } from './site/versions.js';
import { NAVIGATION_FILES } from './navigation.js';
import { isSnippetPath } from './snippet-imports.js';
import type { DocsFile } from './types.js';

/** A site's navigation config (`docs.json`, else the legacy `mint.json`) as read from its docs root. */
export interface NavigationFile {
  /** `docs.json` or `mint.json`, relative to the docs root. */
  file: string;
  /** The file's text: an edit writes it back in its own layout. */
  text: string;
  /** The file as written, its `$ref`s not followed; undefined when it is not valid JSON. */
  config: unknown;
  /** The config the site renders: every `$ref` it reaches read and inlined. */
  resolved: unknown;
  /** Why the file is not valid JSON, when it is not. */
  error?: string;
}

/** A site's navigation, whatever file holds it, as every part of docwright reads it. */
export interface SiteNavigation {
  /** The file that holds it, relative to the repository; none for a site that lists pages by itself. */
  file?: string;
  items: NavigationItem[];
  /** Parts computed by code, which are neither read nor edited (see NavigationRead). */
  computed: string[];
  /** Why the file could not be read at all. */
  error?: string;
  /** Every page entry in navigation order, with the groups above it and the page file it names, if any. */
  entries: { ref: string; groups: string[]; file?: string }[];
}

/** One page of a site: where it is served and how its navigation names it. */
interface SitePage {
  /** URL path the built site serves it at, with the site's base (see PageRules.urlOf). */
  url: string;
  /** The same address as the built site spells it (`/guide/setup/`, `/guide/setup.html`): what a citation links to. */
  href: string;
  /** The reference a navigation entry for it is written with. */
  ref: string;
  /** Its key (PageRules.keyOfRef of its ref). */
  key: string;
  /** The translation folder it is in, for a translated copy of a page. */
  translation?: string;
  /**
   * The old-version folder it is in (`versioned_docs`, `1.x` beside `latest`), for a page of an
   * old version of the docs kept beside the current ones (see oldVersionFolders).
   */
  oldVersion?: string;
}

/**
 * What a docs site is made of, read once, for any framework: where its parts are, its pages and
 * snippets with their text, each page's URL and navigation key, and its navigation. Every reader
 * of a site (the assistant's index, the checks, the agents, the impact analysis) reads this.
 */
export interface DocsSiteFiles {
  layout: SiteLayout;
  /** The files of the pages folder (pages, snippets, assets), relative to it. */
  tree: DocsTree;
  /** Pages and snippets with their text, paths relative to the pages folder. */
  files: DocsFile[];
  /** Every page, by its path relative to the pages folder. */
  pages: Map<string, SitePage>;
  siteNavigation: SiteNavigation;
  /** Mintlify's `docs.json` (else `mint.json`) with its `$ref`s: languages, versions, redirects. */
  navigation: NavigationFile | undefined;
  /** `.mintignore` (gitignore syntax): matching files are not published. */
  mintignore: string | undefined;
  /** The key of a navigation reference of this site. */
  readonly keyOfRef: (ref: string) => string;
  /** The reference a navigation entry for a page file (relative to the pages folder) is written with. */
  readonly refOf: (file: string) => string;
}

/** Options of {@link openDocsSite}. */
export interface OpenSiteOptions {
  /** The framework named in the settings (`docs_framework:`), else it is found from the files. */
  framework?: DocsFramework;
}

/**
 * Reads the docs site a docs root names in a repository. The docs root may be the framework's
 * config folder or its pages folder; see detectLayout.
 */
export async function openDocsSite(
  repository: RepositoryFiles,
  docsRoot: string,
  options: OpenSiteOptions = {},
): Promise<DocsSiteFiles> {
  const repositoryFiles = layoutFiles(repository);
  const readText = (path: string) => repositoryFiles.read(path);
  const layout = await detectLayout(repositoryFiles, parseDocsRoot(docsRoot), options.framework);
  const tree = docsTreeOf(repository, layout.pagesRoot);
  const paths = tree.paths();
  const config = layout.configFile === undefined ? '' : ((await readText(layout.configFile)) ?? '');
  const rules = pageRules(layout, { excluded: excludedPatterns(layout, config) });
  const isMintlify = layout.framework === 'mintlify' || layout.framework === 'markdown';
  const wanted = paths.filter((path) => rules.isPage(path) || (isMintlify && isSnippetPath(path)));
  const files = await Promise.all(wanted.map(async (path) => ({ path, content: await tree.read(path) })));
  const mintignore = isMintlify && paths.includes('.mintignore') ? await tree.read('.mintignore') : undefined;
  const navigation = isMintlify ? await readNavigation(tree) : undefined;
  const ignored = gitignoreMatcher(mintignore ?? '');

  const pages = new Map<string, SitePage>();
  for (const file of files) {
    if (!rules.isPage(file.path) || ignored(file.path)) continue;
    const identity = pageIdentity(file.content);
    const ref = rules.refOf(file.path, identity);
    const url = rules.urlOf(file.path, identity);
    const folderPage = /(^|\/)(index|readme)\.[^/]+$/i.test(file.path);
    const page: SitePage = {
      url,
      href: hrefOf(url, layout.urlStyle, folderPage),
      ref,
      key: rules.keyOfRef(ref),
    };
    const first = file.path.split('/')[0]!;
    if (file.path.includes('/') && layout.translationFolders.includes(first)) page.translation = first;
    pages.set(file.path, page);
  }
  for (const [path, folder] of oldVersionFolders([...pages.keys()])) pages.get(path)!.oldVersion = folder;
  const siteNavigation = await readSiteNavigation(layout, readText, navigation, pages, rules.keyOfRef);
  return {
    layout,
    tree,
    files,
    pages,
    siteNavigation,
    navigation,
    mintignore,
    keyOfRef: rules.keyOfRef,
    refOf: (file) => pages.get(file)?.ref ?? rules.refOf(file, {}),
  };
}

/**
 * Where the site a docs root names has its parts (see detectLayout): what a job's write policy
 * needs before any page is read.
 */
export function siteLayoutOf(
  repository: RepositoryFiles,
  docsRoot: string,
  options: OpenSiteOptions = {},
): Promise<SiteLayout> {
  return detectLayout(layoutFiles(repository), parseDocsRoot(docsRoot), options.framework);
}

/** A repository's files as the layout and the config readers ask for them: by path, absent ones undefined. */
function layoutFiles(repository: RepositoryFiles): LayoutFiles {
  const all = new Set(repository.paths());
  return {
    has: (path) => all.has(path),
    read: async (path) => (all.has(path) ? String(await repository.read(path)) : undefined),
  };
}

/** A page's address as the site spells it, from its URL path (no trailing slash, no `.html`). */
function hrefOf(url: string, style: SiteLayout['urlStyle'], folderPage: boolean): string {
  if (style === 'plain' || url.endsWith('/')) return url;
  return style === 'slash' || folderPage ? `${url}/` : `${url}.html`;
}

/** A folder of pages with no repository around it (a docs tree) read as a site. */
export function readDocsSite(tree: DocsTree, options: OpenSiteOptions = {}): Promise<DocsSiteFiles> {
  return openDocsSite({ paths: () => tree.paths(), read: (path) => tree.read(path) }, '', options);
}

/** Reference chains deeper than this are not followed (config-references.ts stops there too). */
const MAX_REFERENCE_DEPTH = 8;

/**
 * What the config keeps out of the site, as gitignore patterns over the pages folder: MkDocs
 * `exclude_docs` (gitignore syntax already), VitePress `srcExclude` (globs written as a literal
 * array of strings).
 */
function excludedPatterns(layout: SiteLayout, config: string): string[] {
  if (layout.framework === 'mkdocs') {
    const match = /^exclude_docs:\s*\|?[-+]?\s*\n((?:[ \t]+.*\n?)*)/m.exec(config);
    return match
      ? match[1]!
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean)
      : [];
  }
  if (layout.framework === 'vitepress') {
    const list = /\bsrcExclude\s*:\s*\[([^\]]*)\]/.exec(config)?.[1] ?? '';
    return [...list.matchAll(/(['"`])([^'"`\n]+)\1/g)].map((match) => match[2]!.replace(/^\.\//, ''));
  }
  return [];
}

/** The frontmatter `slug` and `id` of a page, read only when the block names one. */
function pageIdentity(content: string): PageIdentity {
  const block = splitFrontmatter(content).yaml;
  if (block === undefined || !/^(slug|id)\s*:/m.test(block)) return {};
  const { slug, id } = readFrontmatter(content);
  return { ...(slug === undefined ? {} : { slug }), ...(id === undefined ? {} : { id }) };
}

async function readSiteNavigation(
  layout: SiteLayout,
  readText: (path: string) => Promise<string | undefined>,
  mintlify: NavigationFile | undefined,
  pages: Map<string, SitePage>,
  keyOfRef: (ref: string) => string,
): Promise<SiteNavigation> {
  const file = layout.navigationFile;
  const text = file === undefined ? undefined : await readText(file);
  const read =
    file === undefined || text === undefined
      ? { items: [{ kind: 'generated', folder: '' } as NavigationItem], computed: [] }
      : mintlify?.error !== undefined
        ? { error: `it is not valid JSON (${mintlify.error})` }
        : readNavigationText(layout.framework, file, text, mintlify);
  const base = file === undefined ? {} : { file };
  if ('error' in read) return { ...base, items: [], computed: [], error: read.error, entries: [] };
  const byKey = new Map<string, string>();
  for (const [path, page] of pages) if (!byKey.has(page.key)) byKey.set(page.key, path);
  const entries = navigationPages(read.items).map((entry) => {
    const path = byKey.get(keyOfRef(entry.ref));
    return path === undefined ? entry : { ...entry, file: path };
  });
  return { ...base, items: read.items, computed: read.computed, entries };
}

/**
 * The navigation file at the docs root, parsed, with every `$ref` it reaches read (only those
 * files, however many other JSON files the site holds) and inlined into `resolved`.
 */
async function readNavigation(tree: DocsTree): Promise<NavigationFile | undefined> {
  const paths = new Set(tree.paths());
  const file = NAVIGATION_FILES.find((name) => paths.has(name));
  if (file === undefined) return undefined;
  const text = await tree.read(file);
  const json = new Map<string, unknown>([[file, parseJson(text)]]);
  const root = json.get(file);
  if (root instanceof Error)
    return { file, text, config: undefined, resolved: undefined, error: root.message };
  let pending = references(root).map((reference) => posix.join(posix.dirname(file), reference));
  for (let depth = 1; pending.length > 0 && depth <= MAX_REFERENCE_DEPTH; depth += 1) {
    const next: string[] = [];
    for (const path of pending) {
      if (json.has(path) || !paths.has(path)) continue;
      const parsed = parseJson(await tree.read(path));
      json.set(path, parsed);
      for (const reference of references(parsed)) next.push(posix.join(posix.dirname(path), reference));
    }
    pending = next;
  }
  const read = (path: string) => {
    const value = json.get(posix.normalize(path).replace(/^\.\//, ''));
    return value instanceof Error ? undefined : value;
  };
  return { file, text, config: root, resolved: resolveConfigReferences(root, read, file) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return asError(error);
  }
}

/** Every `$ref` string anywhere in a JSON value. */
function references(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(references);
  if (typeof value !== 'object' || value === null) return [];
  const own = (value as Record<string, unknown>).$ref;
  return [
    ...(typeof own === 'string' ? [own] : []),
    ...Object.values(value as Record<string, unknown>).flatMap(references),
  ];
}
