import { posix } from 'node:path';
import { splitFrontmatter } from '../../../docs/page-syntax.js';
import { listedByGenerated } from '../../../docs/site/navigation-tree.js';
import type { AddPageCommand } from '../commands.js';
import type { DocsSite } from '../docs-site.js';
import { refused } from '../edit-outcome.js';
import type { EditOutcome } from '../edit-outcome.js';
import { findPage } from '../find-page.js';
import {
  applyNavigationEdit,
  invalidNavigationNote,
  loadNavigation,
  navigationRef,
  type EditableNavigation,
  type NavigationLoad,
} from '../navigation-config.js';
import { newPagePath, samePageFile, titleFromPath } from '../page-paths.js';

// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/;

/**
 * Creates a page with a `title` (and `description`) frontmatter and the given body, and lists it in
 * `docs.json`/`mint.json` when the site has one: in the named group, else next to the pages of
 * the same folder. Refuses to overwrite a page.
 */
export async function addPage(site: DocsSite, command: AddPageCommand): Promise<EditOutcome> {
  // The site as it was before the page: its framework, its navigation, its pages' order.
  const load = await loadNavigation(site);
  const target = newPagePath(site, command.path, pageExtension(site, load));
  if ('problem' in target) return refused(`Nothing changed: ${target.problem}.`);
  const existing = samePageFile(site, target.repoPath);
  if (existing !== undefined) {
    return refused(
      `Nothing changed: the page \`${site.docsPath(existing) ?? existing}\` already exists. ` +
        'To add to it, use `append a section "Heading" to <page> with "text"`.',
    );
  }
  const badText = [command.title, command.description].find(
    (text) => text !== undefined && CONTROL.test(text),
  );
  if (badText !== undefined) {
    return refused(
      'Nothing changed: the title or description holds a control character (such as a NUL byte), which a page and a commit cannot hold.',
    );
  }
  const title = command.title?.trim() || titleFromPath(target.repoPath);
  const order = orderInGeneratedNavigation(load, target.repoPath);
  site.write(target.repoPath, pageText(title, command.description, command.body, order));
  const page = site.slug(target.repoPath);
  const navigationNote = await listInNavigation(site, load, target.repoPath, title, command);
  const file = site.docsPath(target.repoPath) ?? target.repoPath;
  return {
    changed: true,
    title: `Add page ${page}`,
    reply: [`Added \`${file}\` titled "${title}".`, navigationNote].filter(Boolean).join(' '),
  };
}

/** The page text: YAML frontmatter (JSON strings are valid YAML scalars, so quoting is safe), then the body. */
function pageText(
  title: string,
  description: string | undefined,
  body: string | undefined,
  order: string[] = [],
): string {
  const frontmatter = [`title: ${JSON.stringify(title)}`];
  if (description !== undefined && description.trim() !== '') {
    frontmatter.push(`description: ${JSON.stringify(description.trim())}`);
  }
  frontmatter.push(...order);
  const text = `---\n${frontmatter.join('\n')}\n---\n`;
  return body === undefined || body.trim() === '' ? text : `${text}\n${body.trim()}\n`;
}

/**
 * The extension of a new page typed without one: what the site's framework builds (MkDocs and
 * VitePress build `.md` only), and of the two that Docusaurus and Starlight build, the one most of
 * the site's pages use.
 */
function pageExtension(site: DocsSite, load: NavigationLoad): string {
  const framework = load.kind === 'loaded' ? load.navigation.site.layout : undefined;
  const pages = site.markdownFiles();
  const mdx = pages.filter((file) => /\.mdx$/i.test(file)).length;
  if (framework?.framework === 'mkdocs' || framework?.framework === 'vitepress') return '.md';
  if (pages.length > 0) return mdx * 2 >= pages.length ? '.mdx' : '.md';
  return framework?.pageExtension ?? '.mdx';
}

/** Adds the page to the navigation file and says where it went (or why it did not). */
async function listInNavigation(
  site: DocsSite,
  load: NavigationLoad,
  repoPath: string,
  title: string,
  command: AddPageCommand,
): Promise<string | undefined> {
  if (load.kind !== 'loaded') return invalidNavigationNote(load);
  const { navigation } = load;
  const ref = navigationRef(site, navigation, repoPath);
  const key = navigation.site.keyOfRef(ref);
  if (navigation.site.siteNavigation.entries.some((item) => navigation.site.keyOfRef(item.ref) === key)) {
    return `\`${navigation.name}\` already listed it (the entry pointed at a missing page until now).`;
  }
  const after = command.after === undefined ? undefined : await afterRef(site, navigation, command.after);
  const result = await applyNavigationEdit(site, navigation, {
    op: 'add',
    ref,
    label: title,
    ...(command.group === undefined ? {} : { group: command.group }),
    ...(after === undefined ? {} : { after }),
  });
  if (!result.changed) {
    return result.note === undefined
      ? undefined
      : `It is not added to \`${navigation.name}\`: ${lowerFirst(result.note)}`;
  }
  const listed = await loadNavigation(site);
  const entry =
    listed.kind === 'loaded'
      ? listed.navigation.site.siteNavigation.entries.find(
          (item) => listed.navigation.site.keyOfRef(item.ref) === key,
        )
      : undefined;
  const groups = entry?.groups ?? [];
  const where = groups.length > 0 ? `under **${groups.join(' › ')}**` : 'at the top level';
  const missingGroup =
    command.group !== undefined &&
    !groups.some((group) => group.toLowerCase() === command.group?.trim().toLowerCase())
      ? ` (there is no group "${command.group}")`
      : '';
  return `Listed it in \`${navigation.name}\` ${where}${missingGroup}.`;
}

/** The navigation reference of the page a request names to come after; as typed when no page has that name. */
async function afterRef(site: DocsSite, navigation: EditableNavigation, typed: string): Promise<string> {
  const lookup = await findPage(site, typed);
  return 'found' in lookup ? navigationRef(site, navigation, lookup.found) : typed.replace(/^\/+/, '');
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** How each framework that lists a folder by itself orders it from a page's frontmatter. */
const ORDER_KEYS: Partial<Record<string, { read: RegExp; write: (position: number) => string[] }>> = {
  docusaurus: {
    read: /^sidebar_position:\s*(-?\d+(?:\.\d+)?)\s*$/m,
    write: (n) => [`sidebar_position: ${n}`],
  },
  starlight: {
    read: /^sidebar:\s*\n(?:[ \t]+.*\n)*?[ \t]+order:\s*(-?\d+)\s*$/m,
    write: (n) => ['sidebar:', `  order: ${n}`],
  },
};

/**
 * Frontmatter lines that place a new page last in its folder, where the navigation lists the
 * folder by itself (a Docusaurus autogenerated sidebar, Starlight autogenerate) and orders it by
 * its pages' frontmatter: the siblings that give a position do, and the new page follows them.
 * Nothing where the navigation names pages, or where no sibling gives a position.
 */
function orderInGeneratedNavigation(load: NavigationLoad, repoPath: string): string[] {
  if (load.kind !== 'loaded') return [];
  const model = load.navigation.site;
  const order = ORDER_KEYS[model.layout.framework];
  const file = posix.relative(model.layout.pagesRoot || '.', repoPath);
  if (!order || !listedByGenerated(model.siteNavigation.items, model.keyOfRef(model.refOf(file)))) return [];
  const folder = posix.dirname(file);
  const positions = model.files.flatMap((page) => {
    if (posix.dirname(page.path) !== folder || !model.pages.has(page.path)) return [];
    const yaml = splitFrontmatter(page.content).yaml;
    const match = yaml === undefined ? null : order.read.exec(`${yaml}\n`);
    return match ? [Number(match[1])] : [];
  });
  return positions.length === 0 ? [] : order.write(Math.floor(Math.max(...positions)) + 1);
}
