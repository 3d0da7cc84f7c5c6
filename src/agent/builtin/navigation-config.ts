import path from 'node:path';
import { openDocsSite, type DocsSiteFiles } from '../../docs/index.js';
import { editNavigationText } from '../../docs/site/navigation-editors.js';
import type { NavigationEdit } from '../../docs/site/navigation-tree.js';
import type { DocsSite } from './docs-site.js';

/**
 * The site's navigation as an edit needs it, whatever framework holds it: the file (Docusaurus
 * `sidebars.js`, MkDocs `mkdocs.yml`, VitePress `.vitepress/config.*`, Starlight `astro.config.*`,
 * Mintlify `docs.json`), the site model that says how the navigation names a page, and the text an
 * edit changes. Only the navigation part of the file is ever changed.
 */
export interface EditableNavigation {
  /** Repository path of the file, e.g. `website/sidebars.js`. */
  path: string;
  /** File name shown in replies: `sidebars.js`, `mkdocs.yml`, `docs.json`. */
  name: string;
  site: DocsSiteFiles;
}

/** No navigation file (the framework lists pages itself), one that cannot be read, or one to edit. */
export type NavigationLoad =
  | { kind: 'none' }
  | { kind: 'invalid'; name: string; reason: string }
  | { kind: 'loaded'; navigation: EditableNavigation };

/** Reads the job's site (through its overlay) and finds its navigation file. */
export async function loadNavigation(site: DocsSite): Promise<NavigationLoad> {
  const model = await openDocsSite(site.files, site.root);
  const file = model.siteNavigation.file;
  if (file === undefined || !site.exists(file)) return { kind: 'none' };
  const name = path.posix.basename(file);
  if (model.siteNavigation.error !== undefined)
    return { kind: 'invalid', name, reason: model.siteNavigation.error };
  return { kind: 'loaded', navigation: { path: file, name, site: model } };
}

/** The reference a navigation entry for a page file (repository path) is written with. */
export function navigationRef(site: DocsSite, navigation: EditableNavigation, repoPath: string): string {
  const file = path.posix.relative(navigation.site.layout.pagesRoot || '.', repoPath);
  return navigation.site.refOf(file);
}

/**
 * Applies one edit to the navigation file and writes it when it changed. Returns what happened:
 * changed, or the editor's note on why not (undefined when there is nothing worth saying).
 */
export async function applyNavigationEdit(
  site: DocsSite,
  navigation: EditableNavigation,
  edit: NavigationEdit,
): Promise<{ changed: boolean; note?: string }> {
  const text = await site.read(navigation.path);
  const result = editNavigationText(
    navigation.site.layout.framework,
    navigation.path,
    text,
    edit,
    navigation.site.keyOfRef,
  );
  if (result.changed && result.text !== text) site.write(navigation.path, result.text);
  const note = result.note ?? (result.changed ? undefined : computedNote(navigation).trim() || undefined);
  return { changed: result.changed, ...(note === undefined ? {} : { note }) };
}

/** Says which parts of the navigation are computed or included from elsewhere, which are not edited. */
export function computedNote(navigation: EditableNavigation): string {
  const computed = navigation.site.siteNavigation.computed;
  return computed.length === 0 ? '' : ` Parts of its navigation are not edited here: ${computed.join('; ')}.`;
}

/** A sentence for a reply when the navigation could not be edited because it cannot be read. */
export function invalidNavigationNote(load: NavigationLoad): string | undefined {
  if (load.kind !== 'invalid') return undefined;
  return `I left \`${load.name}\` alone: ${load.reason}.`;
}
