import { slugify } from '../../../docs/slug.js';
import type { RepointLinksCommand } from '../commands.js';
import type { DocsSite } from '../docs-site.js';
import { bulletList, plural, refused } from '../edit-outcome.js';
import type { EditOutcome } from '../edit-outcome.js';
import { findPage, suggestPages } from '../find-page.js';
import { lastSegment, pageKey, urlPath } from '../page-paths.js';
import { describeCounts, pagesLinkingTo, repointSiteLinks } from '../site-links.js';

/**
 * Repoints internal links from one URL path to another page. Without a destination the old page
 * must be gone, and the one existing page it most plausibly became (same last path segment, or a
 * title that slugs to it) is used; when that is not a single page nothing changes.
 */
export async function repointLinks(site: DocsSite, command: RepointLinksCommand): Promise<EditOutcome> {
  if (/^[a-z][a-z0-9+.-]*:/i.test(command.from)) {
    return refused(
      `Nothing changed: \`${command.from}\` is not a docs path; I only repoint internal links (\`/path\`).`,
    );
  }
  const fromKey = pageKey(command.from);
  const destination =
    command.to === undefined ? await matchGonePage(site, fromKey) : await findPage(site, command.to);
  if ('problem' in destination) return refused(`Nothing changed: ${destination.problem}`);
  const toPage = site.slug(destination.found);
  if (pageKey(toPage) === fromKey) {
    return refused(
      `Nothing changed: \`${urlPath(fromKey)}\` already is \`${site.docsPath(destination.found)}\`.`,
    );
  }
  const repointed = await repointSiteLinks(site, {
    retarget: (key) => (key === fromKey ? toPage : undefined),
  });
  if (repointed.length === 0) return refused(`Nothing changed: no page links to \`${urlPath(fromKey)}\`.`);
  const total = repointed.reduce((sum, page) => sum + page.count, 0);
  return {
    changed: true,
    title: `Repoint links from ${urlPath(fromKey)} to ${urlPath(toPage)}`,
    reply:
      `Repointed ${plural(total, 'link')} from \`${urlPath(fromKey)}\` to \`${urlPath(toPage)}\` ` +
      `in ${plural(repointed.length, 'page')}:\n\n${bulletList(describeCounts(repointed))}`,
  };
}

/** The single page a gone link target became, or why there is none. */
async function matchGonePage(
  site: DocsSite,
  fromKey: string,
): Promise<{ found: string } | { problem: string }> {
  const still = site.markdownFiles().find((file) => pageKey(site.slug(file)) === fromKey);
  if (still !== undefined) {
    return {
      problem:
        `\`${urlPath(fromKey)}\` is still a page (\`${site.docsPath(still)}\`), so its links are not broken. ` +
        `To send them elsewhere, say \`repoint links from ${urlPath(fromKey)} to /<page>\`.`,
    };
  }
  if ((await pagesLinkingTo(site, fromKey)).length === 0) {
    return { problem: `no page links to \`${urlPath(fromKey)}\`.` };
  }
  const name = lastSegment(fromKey);
  const candidates: string[] = [];
  for (const file of site.markdownFiles()) {
    const title = await site.title(file);
    if (lastSegment(site.slug(file)) === name || (title !== undefined && slugify(title) === name))
      candidates.push(file);
  }
  if (candidates.length === 1) return { found: candidates[0] ?? '' };
  const hint = `Say which with \`repoint links from ${urlPath(fromKey)} to /<page>\`.`;
  if (candidates.length > 1) {
    const list = bulletList(
      candidates.map((file) => `\`${urlPath(site.slug(file))}\` (\`${site.docsPath(file)}\`)`),
    );
    return { problem: `several pages could replace \`${urlPath(fromKey)}\`:\n\n${list}\n\n${hint}` };
  }
  const similar = await suggestPages(site, name);
  const similarText =
    similar.length > 0 ? ` Pages with similar names: ${similar.map((p) => `\`${p}\``).join(', ')}.` : '';
  return { problem: `no existing page is called "${name}" (by path or title).${similarText} ${hint}` };
}
