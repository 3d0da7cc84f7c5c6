/**
 * Page names, URL paths and new file paths. Mintlify serves `guides/setup.mdx` at `/guides/setup`
 * and `guides/index.mdx` at `/guides`, so two spellings can name one page; a page "key" is the one
 * spelling everything here compares by.
 */
import type { DocsSite } from './docs-site.js';

const MARKDOWN_EXTENSION = /\.mdx?$/i;

/**
 * The key of a page name, file path or URL path: no slashes around it, no extension, no anchor or
 * query, and no trailing `index` (`/guides/index.mdx#x` and `guides/` are both `guides`).
 */
export function pageKey(reference: string): string {
  const path = reference
    .trim()
    .replace(/[#?].*$/, '')
    .replace(/^\/+|\/+$/g, '')
    .replace(MARKDOWN_EXTENSION, '');
  if (path === 'index') return '';
  return path.replace(/\/index$/, '');
}

/** The URL path of a page name: `guides/index` -> `/guides`, `index` -> `/`. */
export function urlPath(page: string): string {
  return `/${pageKey(page)}`;
}

/** The last segment of a page key: what a page is "called" in a URL (`/guides/setup` -> `setup`). */
export function lastSegment(key: string): string {
  return pageKey(key).split('/').pop() ?? '';
}

/** Where a new page goes, or why it cannot. */
export type NewPagePath = { repoPath: string } | { problem: string };

/**
 * The repository path for a page path as typed (`guides/webhooks`, `/guides/webhooks.md`,
 * `docs/guides/webhooks` when the docs root is `docs`): `defaultExtension` is added when the path
 * has none; anything but Markdown or MDX, or a path outside the docs root, is refused.
 */
export function newPagePath(site: DocsSite, typed: string, defaultExtension = '.mdx'): NewPagePath {
  let path = typed.trim().replace(/^\/+/, '').replace(/\/+$/, '');
  if (path === '') return { problem: 'no page path was given' };
  if (site.root !== '' && path.startsWith(`${site.root}/`)) path = path.slice(site.root.length + 1);
  const extension = /\.[A-Za-z]+$/.exec(path.split('/').pop() ?? '')?.[0];
  if (extension !== undefined && !MARKDOWN_EXTENSION.test(extension)) {
    return { problem: `\`${typed}\` is not a page: pages are \`.md\` or \`.mdx\` files` };
  }
  if (extension === undefined) path += defaultExtension;
  const verdict = site.policy.check(site.repoPath(path));
  if (!verdict.allowed) return { problem: `\`${typed}\` may not be written: ${verdict.reason}` };
  return { repoPath: verdict.path };
}

/**
 * An existing page served at the same URL as `repoPath`: either extension, or the folder's index
 * (`guides/webhooks.md` or `guides/webhooks/index.mdx` block a new `guides/webhooks.mdx`).
 */
export function samePageFile(site: DocsSite, repoPath: string, except?: string): string | undefined {
  const key = pageKey(site.slug(repoPath));
  return site.markdownFiles().find((file) => file !== except && pageKey(site.slug(file)) === key);
}

/** A readable title from a page path: `guides/custom-domains` -> `Custom domains`. */
export function titleFromPath(path: string): string {
  const words = lastSegment(path).replace(/[-_]+/g, ' ').trim();
  return words === '' ? 'Introduction' : words.charAt(0).toUpperCase() + words.slice(1);
}
