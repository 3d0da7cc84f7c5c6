import { isSnippetPath } from '../snippet-imports.js';
import { slugify } from '../slug.js';
import { isDocsPagePath, urlPathFromFile } from '../url-path.js';
import type { SiteLayout } from './frameworks.js';
import { gitignoreMatcher } from './gitignore.js';

/**
 * Each framework's rules for its pages: which files are pages, the URL each is served at, and how
 * its navigation names it. Paths are relative to the pages folder, POSIX.
 *
 * A page's *key* is how navigation entries are compared: the reference a navigation writes
 * (a Docusaurus doc id, a VitePress link, a Starlight slug, an MkDocs file, a Mintlify page) and
 * the page's file both turn into it, whatever the spelling.
 */
export interface PageRules {
  readonly isPage: (file: string) => boolean;
  /** URL path the built site serves the page at, with the site's base; no trailing slash. */
  readonly urlOf: (file: string, frontmatter: PageIdentity) => string;
  /** The reference a navigation entry for this page is written with. */
  readonly refOf: (file: string, frontmatter: PageIdentity) => string;
  /** The key of a navigation reference (see above). */
  readonly keyOfRef: (ref: string) => string;
}

/** What a page's frontmatter says about its identity, where the framework reads it. */
export interface PageIdentity {
  slug?: string;
  id?: string;
}

const EXTENSION = /\.(mdx?|markdown|mdoc)$/i;
const stripExtension = (path: string) => path.replace(EXTENSION, '');
/** `01-intro`, `2_setup`, `3.guide`: the order prefixes Docusaurus removes from ids and URLs. */
const NUMBER_PREFIX = /^\d+\s*[-_.]+\s*(?=\S)/;

/** `/project/docs/` + `guides/setup` → `/project/docs/guides/setup`; the home page has no trailing slash. */
function withBase(base: string, route: string): string {
  const path = `${base}${route.replace(/^\/+/, '')}`.replace(/\/+$/, '');
  return path === '' ? '/' : path;
}

function dropIndex(segments: string[], names: RegExp): string[] {
  const last = segments.at(-1);
  return last !== undefined && names.test(last) ? segments.slice(0, -1) : segments;
}

export function pageRules(layout: SiteLayout, options: { excluded?: string[] } = {}): PageRules {
  const excluded = gitignoreMatcher(options.excluded ?? []);
  const notExcluded = (file: string) => !excluded(file);
  switch (layout.framework) {
    case 'docusaurus':
      return docusaurusRules(layout.urlBase, notExcluded);
    case 'mkdocs':
      return {
        isPage: (file) => /\.(md|markdown)$/i.test(file) && !hiddenSegment(file) && notExcluded(file),
        urlOf: (file) =>
          withBase(layout.urlBase, dropIndex(stripExtension(file).split('/'), /^(index|readme)$/i).join('/')),
        refOf: (file) => file,
        keyOfRef: (ref) => stripExtension(ref.trim().replace(/^\/+/, '')),
      };
    case 'vitepress':
      return {
        isPage: (file) =>
          /\.md$/i.test(file) && !hiddenSegment(file) && !file.startsWith('public/') && notExcluded(file),
        urlOf: (file) =>
          withBase(layout.urlBase, dropIndex(stripExtension(file).split('/'), /^index$/i).join('/')),
        refOf: (file) => {
          const segments = stripExtension(file).split('/');
          const folder = dropIndex(segments, /^index$/i);
          return folder.length < segments.length
            ? `/${folder.join('/')}${folder.length > 0 ? '/' : ''}`
            : `/${segments.join('/')}`;
        },
        keyOfRef: (ref) => {
          const path = ref
            .trim()
            .replace(/[?#].*$/, '')
            .replace(/^\/+/, '')
            .replace(/\.(md|html)$/i, '');
          return path === '' || path.endsWith('/') ? `${path}index` : path;
        },
      };
    case 'starlight': {
      const slugOf = (file: string, identity: PageIdentity) =>
        identity.slug?.replace(/^\/+|\/+$/g, '') ??
        dropIndex(stripExtension(file).split('/').map(slugify), /^index$/).join('/');
      return {
        isPage: (file) =>
          /\.(md|mdx|mdoc)$/i.test(file) &&
          !file.split('/').some((part) => part.startsWith('_')) &&
          notExcluded(file),
        urlOf: (file, identity) => withBase(layout.urlBase, slugOf(file, identity)),
        refOf: slugOf,
        keyOfRef: (ref) =>
          ref
            .trim()
            .replace(/[?#].*$/, '')
            .replace(/^\/+|\/+$/g, ''),
      };
    }
    case 'mintlify':
    case 'markdown':
      return {
        isPage: (file) => isDocsPagePath(file) && !isSnippetPath(file) && notExcluded(file),
        urlOf: (file) => withBase(layout.urlBase, urlPathFromFile(file)),
        refOf: (file) => stripExtension(file),
        keyOfRef: (ref) => stripExtension(ref.trim().replace(/^\/+/, '')),
      };
  }
}

/** A dot- or underscore-less check shared by MkDocs and VitePress: dot-folders are never pages. */
function hiddenSegment(file: string): boolean {
  return file.split('/').some((part) => part.startsWith('.') || part === 'node_modules');
}

/**
 * Docusaurus: files and folders starting with `_` are partials, not pages; ids and URLs drop
 * number prefixes; frontmatter `id` replaces the file name in the id and in the URL, and `slug`
 * sets the URL (absolute from the docs route, else relative to the folder); an `index`, `README`
 * or a file named after its folder is the folder's page.
 */
function docusaurusRules(base: string, notExcluded: (file: string) => boolean): PageRules {
  const segmentsOf = (file: string) =>
    stripExtension(file)
      .split('/')
      .map((part) => part.replace(NUMBER_PREFIX, ''));
  const idOf = (file: string, identity: PageIdentity) => {
    const segments = segmentsOf(file);
    if (identity.id !== undefined) segments[segments.length - 1] = identity.id;
    return segments.join('/');
  };
  return {
    isPage: (file) =>
      /\.mdx?$/i.test(file) &&
      !file
        .split('/')
        .some((part) => part.startsWith('_') || part.startsWith('.') || part === 'node_modules') &&
      notExcluded(file),
    urlOf: (file, identity) => {
      const segments = segmentsOf(file);
      const folder = segments.slice(0, -1);
      if (identity.slug !== undefined) {
        const slug = identity.slug.trim();
        return withBase(base, slug.startsWith('/') ? slug : [...folder, slug].join('/'));
      }
      // Without a slug, the URL follows the doc's id: frontmatter `id` names its last segment.
      if (identity.id !== undefined) segments[segments.length - 1] = identity.id;
      const last = segments.at(-1) ?? '';
      const isFolderPage =
        /^(index|readme)$/i.test(last) ||
        (folder.length > 0 && last.toLowerCase() === folder.at(-1)!.toLowerCase());
      return withBase(base, (isFolderPage ? folder : segments).join('/'));
    },
    refOf: idOf,
    keyOfRef: (ref) => ref.trim().replace(/^\/+/, ''),
  };
}
