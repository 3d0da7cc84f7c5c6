/**
 * The navigation of a docs site as docwright reads and edits it, whatever file holds it
 * (Docusaurus `sidebars.js`, MkDocs `nav:`, VitePress `themeConfig.sidebar`, Starlight's
 * `sidebar`, Mintlify's `docs.json`). Each framework's editor reads its file into these items
 * and applies these edits to the file's text, leaving everything else in it as it was.
 *
 * A page is named in a navigation by a reference in the framework's own form (a Docusaurus doc id
 * `guides/setup`, a VitePress link `/guide/setup`, a Starlight slug `guides/setup`, an MkDocs file
 * `guide/setup.md`, a Mintlify page `guides/setup`). Editors compare references through the
 * `key` function they are given, which turns any spelling of a reference into one page key
 * (`guides/setup`; `''` for the site's home page), so they never need to know the framework's
 * spelling rules.
 */

/** One entry of a navigation, in the order the file lists it. */
export type NavigationItem =
  | { kind: 'page'; ref: string; label?: string }
  | {
      kind: 'group';
      label: string;
      items: NavigationItem[];
      /** The group's own page, where the framework gives a group one (a Docusaurus category's `link`). */
      ref?: string;
    }
  /** Pages the framework lists by itself: every page under `folder` (page-key form; `''` for all). */
  | { kind: 'generated'; folder: string; label?: string }
  /** A link to something that is not a page of the site (an external URL). */
  | { kind: 'link'; href: string; label?: string };

/** A navigation read from its file. */
export interface NavigationRead {
  items: NavigationItem[];
  /**
   * Parts of the navigation that are computed by code (a function call, a spread, a variable)
   * and so cannot be read or edited safely, each as a short phrase naming it
   * (e.g. "`sidebar` is built by a function call"). Empty when everything was read.
   */
  computed: string[];
}

/** Where and how to add a page. */
interface AddToNavigation {
  /** The new page's reference, in the framework's form. */
  ref: string;
  /** The label to show, where the framework's entries carry one (VitePress `text`, Starlight `label`). */
  label: string;
  /** A group to put it in, by its label (matched without regard to case). */
  group?: string;
  /** A page (reference in any spelling) to put it right after. */
  after?: string;
}

/** What an edit did to the file's text. */
export interface NavigationEditResult {
  /** The file's new text (the old text when nothing changed). */
  text: string;
  changed: boolean;
  /**
   * Why nothing changed, when that is worth saying in a reply: the page is listed by a generated
   * entry already, the navigation is computed by code, there is no list to add to, and so on.
   */
  note?: string;
}

/** The edits every framework's navigation supports. */
export type NavigationEdit =
  | ({ op: 'add' } & AddToNavigation)
  | { op: 'remove'; ref: string }
  | { op: 'rename'; from: string; to: string; label?: string };

/** Turns any spelling of a reference into the page key it names (see the module comment). */
export type PageKeyOf = (ref: string) => string;

/** Every page reference of a navigation, depth first in file order, with the group labels above it. */
export function navigationPages(items: readonly NavigationItem[]): { ref: string; groups: string[] }[] {
  const pages: { ref: string; groups: string[] }[] = [];
  const visit = (list: readonly NavigationItem[], groups: string[]) => {
    for (const item of list) {
      if (item.kind === 'page') pages.push({ ref: item.ref, groups });
      else if (item.kind === 'group') {
        const inner = [...groups, item.label];
        if (item.ref !== undefined) pages.push({ ref: item.ref, groups: inner });
        visit(item.items, inner);
      }
    }
  };
  visit(items, []);
  return pages;
}

/** Folders (page-key form) whose pages a generated entry lists. */
function generatedFolders(items: readonly NavigationItem[]): string[] {
  return items.flatMap((item) =>
    item.kind === 'generated' ? [item.folder] : item.kind === 'group' ? generatedFolders(item.items) : [],
  );
}

/** Whether a generated entry of the navigation already lists the page with this key. */
export function listedByGenerated(items: readonly NavigationItem[], key: string): boolean {
  return generatedFolders(items).some(
    (folder) => folder === '' || key === folder || key.startsWith(`${folder}/`),
  );
}
