import path from 'node:path';
import type { MovePageCommand } from '../commands.js';
import type { DocsSite } from '../docs-site.js';
import { bulletList, plural, refused } from '../edit-outcome.js';
import type { EditOutcome } from '../edit-outcome.js';
import { findPage } from '../find-page.js';
import {
  applyNavigationEdit,
  invalidNavigationNote,
  loadNavigation,
  navigationRef,
  computedNote,
  type NavigationLoad,
} from '../navigation-config.js';
import { newPagePath, pageKey, samePageFile, urlPath } from '../page-paths.js';
import { describeCounts, repointSiteLinks } from '../site-links.js';

/**
 * Moves (renames) a page: the file, its navigation entries, and every internal link to it, in all
 * pages, keeping anchors and the link style (absolute or relative). Relative links inside the moved
 * page are rewritten too when it changes folder, so they keep their targets.
 */
export async function movePage(site: DocsSite, command: MovePageCommand): Promise<EditOutcome> {
  const lookup = await findPage(site, command.from);
  if ('problem' in lookup) return refused(`Nothing changed: ${lookup.problem}`);
  const from = lookup.found;
  const destination = newPagePath(site, destinationPath(command.to, from), path.posix.extname(from));
  if ('problem' in destination) return refused(`Nothing changed: ${destination.problem}.`);
  const to = destination.repoPath;
  if (to === from) return refused(`Nothing changed: \`${site.docsPath(from) ?? from}\` is already there.`);
  const existing = samePageFile(site, to, from);
  if (existing !== undefined) {
    return refused(`Nothing changed: \`${site.docsPath(existing) ?? existing}\` already exists.`);
  }
  const [fromPage, toPage] = [site.slug(from), site.slug(to)];
  const load = await loadNavigation(site);
  await site.move(from, to);
  const sentences = [`Moved \`${site.docsPath(from) ?? from}\` to \`${site.docsPath(to) ?? to}\`.`];
  const navigationNote = await renameInNavigation(site, load, from, to);
  if (navigationNote) sentences.push(navigationNote);
  const oldKey = pageKey(fromPage);
  const repointed = await repointSiteLinks(site, {
    retarget: (key) => (key === oldKey ? toPage : undefined),
    moved: { file: to, from: fromPage, to: toPage },
  });
  let reply = sentences.join(' ');
  if (repointed.length > 0) {
    const total = repointed.reduce((sum, page) => sum + page.count, 0);
    reply += `\n\nUpdated ${plural(total, 'link')} in ${plural(repointed.length, 'page')}:\n\n${bulletList(describeCounts(repointed))}`;
  }
  if (urlPath(fromPage) !== urlPath(toPage)) {
    reply += `\n\nLinks from outside these docs to \`${urlPath(fromPage)}\` need a redirect to \`${urlPath(toPage)}\`.`;
  }
  return { changed: true, title: `Move page ${fromPage} to ${toPage}`, reply };
}

/** `guides/` (a folder) as the destination keeps the file name: `setup.mdx` -> `guides/setup.mdx`. */
function destinationPath(typed: string, from: string): string {
  const trimmed = typed.trim();
  return trimmed.endsWith('/') ? `${trimmed}${path.posix.basename(from)}` : trimmed;
}

/** Points the page's navigation entries at its new place (the navigation as read before the move). */
async function renameInNavigation(
  site: DocsSite,
  load: NavigationLoad,
  from: string,
  to: string,
): Promise<string | undefined> {
  if (load.kind !== 'loaded') return invalidNavigationNote(load);
  const { navigation } = load;
  const fromRef = navigationRef(site, navigation, from);
  const listed = navigation.site.siteNavigation.entries.some(
    (entry) => navigation.site.keyOfRef(entry.ref) === navigation.site.keyOfRef(fromRef),
  );
  if (!listed) return `It was not listed in \`${navigation.name}\`.${computedNote(navigation)}`;
  const result = await applyNavigationEdit(site, navigation, {
    op: 'rename',
    from: fromRef,
    to: navigationRef(site, navigation, to),
  });
  if (!result.changed)
    return `Its entry in \`${navigation.name}\` is left as it was: ${result.note ?? 'I could not edit it'}`;
  return `Renamed its entry in \`${navigation.name}\`.`;
}
