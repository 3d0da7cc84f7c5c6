/**
 * Reading and editing Mintlify navigation: `docs.json` (current schema, where `navigation` nests
 * `languages`, `versions`, `tabs`, `anchors`, `dropdowns`, `products`, `menu` and `groups`, and a
 * group's `pages` mixes page names and nested `{ group, pages }` objects) and the legacy `mint.json`
 * (`navigation: [{ group, pages }]`). Pure functions over parsed JSON: they never throw on shapes
 * they do not understand, they skip them, because real configs carry many keys we have no use for.
 */

/** The navigation files Mintlify reads, in the order it prefers them; looked up at the docs root. */
export const NAVIGATION_FILES = ['docs.json', 'mint.json'];

/** One page reference in the navigation, with where it sits. */
export interface NavigationPage {
  /** The page as written in the config, e.g. `guides/setup` (no extension). */
  page: string;
  /** Names of the groups above the page, outermost first. */
  groups: string[];
  tab?: string;
  language?: string;
  version?: string;
}

type JsonObject = Record<string, unknown>;

interface Context {
  groups: string[];
  tab?: string;
  language?: string;
  version?: string;
}

/** One `pages` array of the config, with the context of the object that holds it. */
interface PagesList {
  pages: unknown[];
  owner: JsonObject;
  context: Context;
}

/** Keys whose arrays hold nested navigation objects (each may carry its own pages or groups). */
const NESTING_KEYS = ['languages', 'versions', 'tabs', 'anchors', 'dropdowns', 'products', 'menu', 'groups'];

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Page names compare without a leading slash or a Markdown extension: `/guides/a.mdx` is `guides/a`. */
function samePage(written: string, page: string): boolean {
  return normalizePage(written) === normalizePage(page);
}

function normalizePage(page: string): string {
  return page
    .trim()
    .replace(/^\/+/, '')
    .replace(/\.mdx?$/, '');
}

function folderOf(page: string): string {
  const normalized = normalizePage(page);
  const slash = normalized.lastIndexOf('/');
  return slash === -1 ? '' : normalized.slice(0, slash);
}

function childContext(node: JsonObject, parent: Context): Context {
  const context: Context = { ...parent, groups: [...parent.groups] };
  if (typeof node.group === 'string') context.groups.push(node.group);
  if (typeof node.tab === 'string') context.tab = node.tab;
  if (typeof node.language === 'string') context.language = node.language;
  if (typeof node.version === 'string') context.version = node.version;
  return context;
}

/**
 * Calls `visit` for every navigation object (the root, languages, tabs, groups, nested groups …)
 * with its context. Objects are visited before their children, in document order.
 */
function walk(node: JsonObject, parent: Context, visit: (node: JsonObject, context: Context) => void): void {
  const context = childContext(node, parent);
  visit(node, context);
  for (const key of [...NESTING_KEYS, 'pages']) {
    const children = node[key];
    if (!Array.isArray(children)) continue;
    for (const child of children) if (isObject(child)) walk(child, context, visit);
  }
}

/** The navigation root as an object: docs.json's `navigation`, or mint.json's array seen as groups. */
function navigationRoot(config: unknown): JsonObject | undefined {
  if (!isObject(config)) return undefined;
  const navigation = config.navigation;
  if (Array.isArray(navigation)) return { groups: navigation };
  return isObject(navigation) ? navigation : undefined;
}

function pagesLists(config: unknown): PagesList[] {
  const root = navigationRoot(config);
  if (!root) return [];
  const lists: PagesList[] = [];
  walk(root, { groups: [] }, (node, context) => {
    if (Array.isArray(node.pages)) lists.push({ pages: node.pages, owner: node, context });
  });
  return lists;
}

function toNavigationPage(page: string, context: Context): NavigationPage {
  const entry: NavigationPage = { page, groups: context.groups };
  if (context.tab !== undefined) entry.tab = context.tab;
  if (context.language !== undefined) entry.language = context.language;
  if (context.version !== undefined) entry.version = context.version;
  return entry;
}

/**
 * Every page reference of the navigation (pages and group `root` pages), in document order, with
 * the group names above it and its tab, language and version. `$ref`s to other files, external
 * links and unknown keys are skipped.
 */
export function listNavigationPages(config: unknown): NavigationPage[] {
  const root = navigationRoot(config);
  if (!root) return [];
  const result: NavigationPage[] = [];
  walk(root, { groups: [] }, (node, context) => {
    // A group's `root` is its landing page (docs.json): listed first, inside its own group.
    if (typeof node.root === 'string') result.push(toNavigationPage(node.root, context));
    if (!Array.isArray(node.pages)) return;
    for (const item of node.pages) if (typeof item === 'string') result.push(toNavigationPage(item, context));
  });
  return result;
}

/** Where to add a page: a group by name, and a page to put it after. */
export interface AddNavigationPageOptions {
  group?: string;
  after?: string;
}

/**
 * Adds `page` to the navigation (mutates `config`): to the named group when it exists (after
 * `after` or the last page of the same folder when either is in it, else at its end); else right
 * after `after`; else after the last page of the same folder, in the list holding most of them;
 * else at the end of the first group. Returns false when the page is already listed or the
 * navigation has no pages list to add to.
 */
export function addNavigationPage(
  config: unknown,
  page: string,
  options: AddNavigationPageOptions = {},
): boolean {
  if (listNavigationPages(config).some((entry) => samePage(entry.page, page))) return false;
  const lists = pagesLists(config);
  const target =
    namedGroup(lists, options.group) ??
    listContaining(lists, options.after) ??
    listWithMostSiblings(lists, page) ??
    lists.find((list) => typeof list.owner.group === 'string') ??
    lists[0];
  if (!target) return false;
  target.pages.splice(insertionIndex(target.pages, page, options.after), 0, page);
  return true;
}

function namedGroup(lists: PagesList[], name: string | undefined): PagesList | undefined {
  if (name === undefined) return undefined;
  const wanted = name.trim();
  return (
    lists.find((list) => list.owner.group === wanted) ??
    lists.find(
      (list) =>
        typeof list.owner.group === 'string' && list.owner.group.toLowerCase() === wanted.toLowerCase(),
    )
  );
}

function listContaining(lists: PagesList[], page: string | undefined): PagesList | undefined {
  if (page === undefined) return undefined;
  return lists.find((list) => list.pages.some((item) => typeof item === 'string' && samePage(item, page)));
}

function countSiblings(pages: unknown[], folder: string): number {
  return pages.filter((item) => typeof item === 'string' && folderOf(item) === folder).length;
}

function listWithMostSiblings(lists: PagesList[], page: string): PagesList | undefined {
  const folder = folderOf(page);
  let best: PagesList | undefined;
  let bestCount = 0;
  for (const list of lists) {
    const count = countSiblings(list.pages, folder);
    if (count > bestCount) [best, bestCount] = [list, count];
  }
  return best;
}

/** After `after` when it is in the list, else after the last page of the same folder, else at the end. */
function insertionIndex(pages: unknown[], page: string, after: string | undefined): number {
  if (after !== undefined) {
    const index = pages.findIndex((item) => typeof item === 'string' && samePage(item, after));
    if (index !== -1) return index + 1;
  }
  const folder = folderOf(page);
  for (let index = pages.length - 1; index >= 0; index--) {
    const item = pages[index];
    if (typeof item === 'string' && folderOf(item) === folder) return index + 1;
  }
  return pages.length;
}

/**
 * Removes every reference to `page` (mutates `config`): list entries and group `root`s. A nested
 * group left with no pages by the removal goes too, so the sidebar shows no empty heading.
 * Returns whether anything changed.
 */
export function removeNavigationPage(config: unknown, page: string): boolean {
  const root = navigationRoot(config);
  if (!root) return false;
  let changed = false;
  walk(root, { groups: [] }, (node) => {
    if (typeof node.root === 'string' && samePage(node.root, page)) {
      delete node.root;
      changed = true;
    }
    for (const key of ['pages', 'groups']) {
      const items = node[key];
      if (Array.isArray(items)) changed = removeFromList(items, page) || changed;
    }
  });
  return changed;
}

/** Removes `page` from one list, and the group objects in it that the removal emptied. */
function removeFromList(items: unknown[], page: string): boolean {
  let changed = false;
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index];
    if (typeof item === 'string' && samePage(item, page)) {
      items.splice(index, 1);
      changed = true;
    } else if (isObject(item) && emptiedBy(item, page)) {
      items.splice(index, 1);
      changed = true;
    }
  }
  return changed;
}

/** True for a group whose only content is `page` (so removing the page leaves it empty). */
function emptiedBy(group: JsonObject, page: string): boolean {
  if (typeof group.group !== 'string' || !Array.isArray(group.pages)) return false;
  const rootIsPage = typeof group.root === 'string' && samePage(group.root, page);
  if (group.root !== undefined && !rootIsPage) return false;
  if (group.pages.length === 0) return rootIsPage;
  return group.pages.every((item) => typeof item === 'string' && samePage(item, page));
}

/**
 * Renames every reference to `from` into `to` (mutates `config`), keeping its place. Where `to`
 * is already listed next to it, the old entry is dropped instead of doubling the page.
 * Returns whether anything changed.
 */
export function renameNavigationPage(config: unknown, from: string, to: string): boolean {
  const root = navigationRoot(config);
  if (!root || samePage(from, to)) return false;
  let changed = false;
  walk(root, { groups: [] }, (node) => {
    if (typeof node.root === 'string' && samePage(node.root, from)) {
      node.root = to;
      changed = true;
    }
    if (Array.isArray(node.pages)) changed = renameInList(node.pages, from, to) || changed;
  });
  return changed;
}

function renameInList(pages: unknown[], from: string, to: string): boolean {
  let changed = false;
  const hasTarget = pages.some((item) => typeof item === 'string' && samePage(item, to));
  for (let index = pages.length - 1; index >= 0; index--) {
    const item = pages[index];
    if (typeof item !== 'string' || !samePage(item, from)) continue;
    if (hasTarget) pages.splice(index, 1);
    else pages[index] = to;
    changed = true;
  }
  return changed;
}
