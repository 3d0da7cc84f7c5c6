import { posix } from 'node:path';
import { resolveConfigReferences } from './config-references.js';
import type { DocsTree } from './docs-tree.js';
import { NAVIGATION_FILES } from './navigation.js';
import { isSnippetPath } from './snippet-imports.js';
import type { DocsFile } from './types.js';
import { isDocsPagePath } from './url-path.js';

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

/** What a docs site is made of, read once: its pages and snippets, its navigation, its `.mintignore`. */
export interface DocsSiteFiles {
  /** Pages and snippets with their text, paths relative to the docs root. */
  files: DocsFile[];
  navigation: NavigationFile | undefined;
  /** `.mintignore` (gitignore syntax): matching files are not published. */
  mintignore: string | undefined;
}

/** Reference chains deeper than this are not followed (config-references.ts stops there too). */
const MAX_REFERENCE_DEPTH = 8;

/** Reads a docs site's pages, snippets, navigation (with its `$ref` parts) and `.mintignore`. */
export async function readDocsSite(tree: DocsTree): Promise<DocsSiteFiles> {
  const paths = tree.paths();
  const wanted = paths.filter((path) => isDocsPagePath(path) || isSnippetPath(path));
  const files = await Promise.all(wanted.map(async (path) => ({ path, content: await tree.read(path) })));
  const mintignore = paths.includes('.mintignore') ? await tree.read('.mintignore') : undefined;
  return { files, navigation: await readNavigation(tree), mintignore };
}

/**
 * The navigation file at the docs root, parsed, with every `$ref` it reaches read (only those
 * files, however many other JSON files the site holds) and inlined into `resolved`.
 */
export async function readNavigation(tree: DocsTree): Promise<NavigationFile | undefined> {
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
    return error instanceof Error ? error : new Error(String(error));
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
