import { oldVersionFolders } from '../docs/index.js';
import type { PageInput } from './page-vocabulary.js';

/**
 * Pages that record the past: changelogs, release notes, migration and upgrade guides. A change
 * goes into the next such page, which does not exist yet; the old ones describe old versions and
 * stay as they are, however many of the changed names they hold.
 */
const HISTORICAL_PATH =
  /(?:^|[/_-])(?:change-?log|changes|history|release-?notes?|releases|migrat\w*|upgrad\w*|news)(?:[/_.-]|$)/i;

/** Whether a page records the past (a changelog, release notes, a migration guide): never listed. */
export function isHistoricalPage(path: string): boolean {
  return HISTORICAL_PATH.test(path);
}

/**
 * The mark a generator leaves at the head of what it writes. Only phrases no person writes of
 * their own page: "automatically generated" alone also describes what a product does.
 */
const GENERATED_MARK =
  /\b(?:code generated|do not edit|must not be edited|this (?:file|page) (?:is|was) (?:auto-?)?generated)\b|@generated\b/i;
/** Lines of a page's head the mark is looked for in. */
const HEAD_LINES = 12;

/**
 * Whether a page says at its head that a program wrote it (`THIS FILE MUST NOT BE EDITED BY HAND`):
 * its generator rewrites it from the code, so it is ranked but never listed for a person to edit.
 */
export function isGeneratedPage(text: string): boolean {
  return GENERATED_MARK.test(text.split('\n', HEAD_LINES).join('\n'));
}

/** Share of a page's lines that are links in lists past which the page is a table of contents. */
const NAVIGATION_SHARE = 0.6;
const LINK_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+.*\]\(/;

/**
 * How much a page's evidence counts by what sort of page it is (1 for a page that documents the
 * product): half for historical pages and for navigation pages (a sidebar, a summary, an index
 * of links), which name everything and document nothing.
 */
export function pageFactor(page: PageInput): number {
  if (isHistoricalPage(page.path)) return 0.5;
  const lines = page.text.split('\n').filter((line) => line.trim() !== '');
  if (
    lines.length >= 5 &&
    lines.filter((line) => LINK_ITEM.test(line)).length / lines.length > NAVIGATION_SHARE
  )
    return 0.5;
  return 1;
}

/** Folder names of translations (language codes other than English) as docs sites write them. */
const LANGUAGE_FOLDER =
  /^(?:zh|zh[-_](?:cn|tw|hk|hans|hant)|ja|ko|fr|de|es|pt|pt[-_]br|ru|it|tr|vi|id|pl|uk|ar|fa|he|nl|sv|cs|hu|ro|th|hi|bn)$/i;
/** Folder names of old versions kept beside the current docs. */
const VERSION_FOLDER = /^(?:v?\d+(?:\.\d+)*(?:\.x)?|version-[\w.-]+|versioned_docs|versions?)$/i;

/**
 * Pages that are translations or old-version copies of another page: their path, less one
 * language or version folder, is another page's (`zh/guides/setup.md` and `guides/setup.md`), or
 * they are in an old version's folder beside the current one's (`1.x/` beside `latest/`, see
 * oldVersionFolders: the same rule the site model applies). They say what the original says; a
 * change is made to the original, and the copies follow in their own time (or never, for old
 * versions). Left out, they would also make every name look common, as each is written once per
 * copy.
 */
export function pageCopies(paths: readonly string[]): Set<string> {
  const all = new Set(paths);
  const copies = new Set(oldVersionFolders(paths).keys());
  for (const path of paths) {
    const segments = path.split('/');
    for (let index = 0; index < segments.length - 1; index += 1) {
      const folder = segments[index]!;
      if (!LANGUAGE_FOLDER.test(folder) && !VERSION_FOLDER.test(folder)) continue;
      const original = [...segments.slice(0, index), ...segments.slice(index + 1)].join('/');
      if (all.has(original)) copies.add(path);
    }
  }
  return copies;
}
