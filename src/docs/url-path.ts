/**
 * File paths of docs pages and the URL paths they are served at, the way Mintlify-style sites map
 * them: `guides/setup.mdx` -> `/guides/setup`, `index.mdx` -> `/`, `guides/index.mdx` -> `/guides`.
 */
import { parseDocsRoot } from '../write-policy/index.js';

const PAGE_EXTENSION = /\.(mdx|md)$/i;

/**
 * Folders whose files are never pages: what Mintlify ignores by default (organize/mintignore in its
 * docs), plus `snippets/`, whose files are imported into pages rather than served.
 */
const NON_PAGE_FOLDERS = new Set(['snippets', 'node_modules', 'build', 'dist', 'coverage', 'tmp', 'temp']);
/** Repository files Mintlify ignores by default wherever they are. */
const NON_PAGE_FILES = new Set(['readme.md', 'license.md', 'changelog.md', 'contributing.md']);

/** Turns a path into POSIX form without leading `./` or `/` and without a trailing slash. */
export function normalizeFilePath(path: string): string {
  return path
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/^\/+/, '')
    .replace(/\/+$/, '');
}

/**
 * The path of `path` relative to `docsRoot`, or null when the file lies outside it.
 * An empty or `.` docs root means the repository root.
 */
export function relativeToDocsRoot(path: string, docsRoot = ''): string | null {
  const file = normalizeFilePath(path);
  const root = parseDocsRoot(docsRoot);
  if (root === '') return file;
  return file.startsWith(`${root}/`) ? file.slice(root.length + 1) : null;
}

/**
 * Whether a file (relative to the docs root) is a page: Markdown or MDX, not in a dot- or
 * underscore-folder (`.github/`, `_partials/`), not a reusable snippet, not a README.
 */
export function isDocsPagePath(relativePath: string): boolean {
  const path = normalizeFilePath(relativePath);
  if (!PAGE_EXTENSION.test(path)) return false;
  const folders = path.split('/');
  const name = folders.pop()!;
  if (NON_PAGE_FILES.has(name.toLowerCase())) return false;
  return !folders.some(
    (folder) => folder.startsWith('.') || folder.startsWith('_') || NON_PAGE_FOLDERS.has(folder),
  );
}

/** The URL path a page file is served at (input relative to the docs root). */
export function urlPathFromFile(relativePath: string): string {
  const withoutExtension = normalizeFilePath(relativePath).replace(PAGE_EXTENSION, '');
  const segments = withoutExtension.split('/').filter((segment) => segment !== '');
  if (segments.length > 0 && segments[segments.length - 1]!.toLowerCase() === 'index') segments.pop();
  return `/${segments.join('/')}`;
}

/**
 * The URL path a navigation entry (`"guides/setup"`, `"/guides/index"`) or a reader's
 * `currentPath` (`https://docs.example.com/guides/setup/#step-2`) refers to.
 */
export function normalizeUrlPath(reference: string): string {
  let path = reference.trim();
  // A full address: keep only its path (the reader's browser may send location.href).
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
  if (origin) path = path.slice(origin[0].length);
  // A page's address as the site spells it (`/guide/setup.html`, `/guide/setup/`) is the page.
  path = path.replace(/[?#].*$/, '').replace(/\.html?$/i, '');
  return urlPathFromFile(path);
}

/** The folder of a URL path: `/guides/setup` -> `/guides`, `/quickstart` -> `/`. */
export function parentUrlPath(urlPath: string): string {
  const index = urlPath.lastIndexOf('/');
  return index <= 0 ? '/' : urlPath.slice(0, index);
}
