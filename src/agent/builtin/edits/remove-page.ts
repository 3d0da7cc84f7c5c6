import { removeNavigationPage } from '../../../docs/navigation.js';
import type { RemovePageCommand } from '../commands.js';
import type { DocsSite } from '../docs-site.js';
import { bulletList, plural, refused } from '../edit-outcome.js';
import type { EditOutcome } from '../edit-outcome.js';
import { findPage } from '../find-page.js';
import { invalidNavigationNote, loadNavigation, saveNavigation } from '../navigation-config.js';
import { pageKey, urlPath } from '../page-paths.js';
import { describeCounts, pagesLinkingTo } from '../site-links.js';

/**
 * Deletes a page and its navigation entries. Links to it are left as they are (where they should
 * point is a decision for a person) but listed in the reply, so they can be repointed next.
 */
export async function removePage(site: DocsSite, command: RemovePageCommand): Promise<EditOutcome> {
  const lookup = await findPage(site, command.page);
  if ('problem' in lookup) return refused(`Nothing changed: ${lookup.problem}`);
  const file = lookup.found;
  const page = site.slug(file);
  site.delete(file);
  const sentences = [`Removed \`${site.docsPath(file) ?? file}\`.`];
  const navigationNote = await removeFromNavigation(site, page);
  if (navigationNote) sentences.push(navigationNote);
  const linking = await pagesLinkingTo(site, pageKey(page));
  let reply = sentences.join(' ');
  if (linking.length > 0) {
    reply +=
      `\n\n**Warning:** ${plural(linking.length, 'page')} still ${linking.length === 1 ? 'links' : 'link'} to \`${urlPath(page)}\`:\n\n${bulletList(describeCounts(linking))}` +
      `\n\nRepoint them with \`repoint links from ${urlPath(page)} to /<page>\`.`;
  }
  return { changed: true, title: `Remove page ${page}`, reply };
}

async function removeFromNavigation(site: DocsSite, page: string): Promise<string | undefined> {
  const load = await loadNavigation(site);
  if (load.kind !== 'loaded') return invalidNavigationNote(load);
  if (!removeNavigationPage(load.navigation.config, page)) return undefined;
  saveNavigation(site, load.navigation);
  return `Removed its entry from \`${load.navigation.name}\`.`;
}
