import type { DocsSite } from './docs-site.js';
import { pageKey } from './page-paths.js';

/** The page an instruction names, or why there is none. */
export type PageLookup = { found: string } | { problem: string };

/**
 * Finds the page a person named: by path with or without extension (`quickstart`,
 * `guides/setup.mdx`), by URL path (`/guides/setup`, `https://docs.acme.dev/guides/setup#x`), by
 * path from the repository root, or by its exact frontmatter title when only one page has it.
 */
export async function findPage(site: DocsSite, reference: string): Promise<PageLookup> {
  const typed = reference.trim();
  if (typed === '') return { problem: 'no page was named.' };
  const files = site.markdownFiles();
  const byPath = findByPath(site, files, withoutOrigin(typed));
  if (byPath) return { found: byPath };
  const byTitle = await findByTitle(site, files, typed);
  if (byTitle) return byTitle;
  // A page that is there but off limits: say why, rather than that it does not exist.
  const skipped = site.skippedFiles();
  const offLimits = findByPath(
    site,
    skipped.map(({ file }) => file),
    withoutOrigin(typed),
  );
  const reason = skipped.find(({ file }) => file === offLimits)?.reason;
  if (offLimits !== undefined && reason !== undefined) {
    return { problem: `\`${offLimits}\` may not be written: ${reason}.` };
  }
  const suggestions = await suggestPages(site, typed);
  const hint =
    suggestions.length > 0
      ? ` Pages with similar names: ${suggestions.map((p) => `\`${p}\``).join(', ')}.`
      : '';
  return {
    problem: `there is no page \`${typed}\` under ${describeRoot(site)} (by path, URL or title).${hint}`,
  };
}

/** "the docs root `docs/`" or "the repository root", for replies. */
export function describeRoot(site: DocsSite): string {
  return site.root === '' ? 'the repository root' : `the docs root \`${site.root}/\``;
}

function withoutOrigin(reference: string): string {
  return reference.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
}

function findByPath(site: DocsSite, files: string[], reference: string): string | undefined {
  const fromRoot = reference.replace(/^\.?\/+/, '');
  const relative =
    site.root !== '' && fromRoot.startsWith(`${site.root}/`)
      ? fromRoot.slice(site.root.length + 1)
      : undefined;
  for (const candidate of [fromRoot, relative]) {
    if (candidate === undefined) continue;
    const exact = files.find((file) => site.docsPath(file) === candidate);
    if (exact) return exact;
    // `guides/setup` names `guides/setup.mdx` before `guides/setup/index.mdx`.
    const bySlug = files.find(
      (file) => site.slug(file) === candidate.replace(/[#?].*$/, '').replace(/\/+$/, ''),
    );
    if (bySlug) return bySlug;
    const key = pageKey(candidate);
    const byKey = files.find((file) => pageKey(site.slug(file)) === key);
    if (byKey) return byKey;
  }
  return undefined;
}

async function findByTitle(site: DocsSite, files: string[], title: string): Promise<PageLookup | undefined> {
  const titled: Array<[string, string]> = [];
  for (const file of files) {
    const pageTitle = await site.title(file);
    if (pageTitle !== undefined) titled.push([file, pageTitle]);
  }
  for (const same of [(a: string) => a === title, (a: string) => a.toLowerCase() === title.toLowerCase()]) {
    const matches = titled.filter(([, pageTitle]) => same(pageTitle)).map(([file]) => file);
    if (matches.length === 1) return { found: matches[0] ?? '' };
    if (matches.length > 1) {
      const list = matches.map((file) => `\`${site.docsPath(file) ?? file}\``).join(', ');
      return { problem: `several pages are titled "${title}": ${list}. Name the page by its path instead.` };
    }
  }
  return undefined;
}

/**
 * Up to five pages whose path or title shares a word with `reference`, as docs-relative paths:
 * offered when a lookup fails, so the person can retry with the right name.
 */
export async function suggestPages(site: DocsSite, reference: string): Promise<string[]> {
  const words = reference
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 3 && !['mdx', 'page', 'the'].includes(word));
  if (words.length === 0) return [];
  const matches: string[] = [];
  for (const file of site.markdownFiles()) {
    const haystack = `${site.slug(file)} ${(await site.title(file)) ?? ''}`.toLowerCase();
    if (words.some((word) => haystack.includes(word))) matches.push(site.docsPath(file) ?? file);
    if (matches.length === 5) break;
  }
  return matches;
}
