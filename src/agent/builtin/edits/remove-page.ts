import type { RemovePageCommand } from '../commands.js';
import type { DocsSite } from '../docs-site.js';
import { bulletList, plural, refused } from '../edit-outcome.js';
import type { EditOutcome } from '../edit-outcome.js';
import { findPage } from '../find-page.js';
import {
  applyNavigationEdit,
  invalidNavigationNote,
  loadNavigation,
  navigationRef,
} from '../navigation-config.js';
import { pageKey, urlPath } from '../page-paths.js';
import { describeCounts, pagesLinkingTo, repointSiteLinks } from '../site-links.js';

/**
 * Deletes a page and its navigation entries. Links to it never stay behind pointing at nothing
 * (every framework's strict build fails on them, and readers hit a 404): with a page to send them
 * to (`remove page X and point its links to Y`) they are repointed there; without one, nothing
 * changes and the reply names the pages that link to it.
 */
export async function removePage(site: DocsSite, command: RemovePageCommand): Promise<EditOutcome> {
  const lookup = await findPage(site, command.page);
  if ('problem' in lookup) return refused(`Nothing changed: ${lookup.problem}`);
  const file = lookup.found;
  const page = site.slug(file);
  const key = pageKey(page);
  const linking = await pagesLinkingTo(site, key, file);
  let destination: string | undefined;
  if (command.linksTo !== undefined) {
    const target = await findPage(site, command.linksTo);
    if ('problem' in target) return refused(`Nothing changed: ${target.problem}`);
    if (target.found === file)
      return refused('Nothing changed: its links cannot point at the page being removed.');
    destination = target.found;
  } else if (linking.length > 0) {
    return refused(
      `Nothing changed: ${plural(linking.length, 'page')} ${linking.length === 1 ? 'links' : 'link'} to \`${urlPath(page)}\`, ` +
        `and removing it would leave ${linking.length === 1 ? 'that link' : 'those links'} pointing at nothing:\n\n` +
        `${bulletList(describeCounts(linking))}\n\n` +
        `Say where they should point: \`remove page ${page} and point its links to <page>\`.`,
    );
  }
  const load = await loadNavigation(site);
  site.delete(file);
  const sentences = [`Removed \`${site.docsPath(file) ?? file}\`.`];
  const navigationNote = await removeFromNavigation(site, load, file);
  if (navigationNote) sentences.push(navigationNote);
  let reply = sentences.join(' ');
  if (destination !== undefined) {
    const toPage = site.slug(destination);
    const repointed = await repointSiteLinks(site, {
      retarget: (target) => (target === key ? toPage : undefined),
    });
    if (repointed.length > 0) {
      const total = repointed.reduce((sum, entry) => sum + entry.count, 0);
      reply += `\n\nPointed ${plural(total, 'link')} to it at \`${urlPath(toPage)}\` instead, in ${plural(repointed.length, 'page')}:\n\n${bulletList(describeCounts(repointed))}`;
    }
  }
  return { changed: true, title: `Remove page ${page}`, reply };
}

async function removeFromNavigation(
  site: DocsSite,
  load: Awaited<ReturnType<typeof loadNavigation>>,
  file: string,
): Promise<string | undefined> {
  if (load.kind !== 'loaded') return invalidNavigationNote(load);
  const result = await applyNavigationEdit(site, load.navigation, {
    op: 'remove',
    ref: navigationRef(site, load.navigation, file),
  });
  if (!result.changed) return result.note;
  return `Removed its entry from \`${load.navigation.name}\`.`;
}
