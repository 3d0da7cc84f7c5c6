import { addNavigationPage, listNavigationPages } from '../../../docs/navigation.js';
import type { AddPageCommand } from '../commands.js';
import type { DocsSite } from '../docs-site.js';
import { refused } from '../edit-outcome.js';
import type { EditOutcome } from '../edit-outcome.js';
import { invalidNavigationNote, loadNavigation, refNote, saveNavigation } from '../navigation-config.js';
import { newPagePath, samePageFile, titleFromPath } from '../page-paths.js';

// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/;

/**
 * Creates a page with a `title` (and `description`) frontmatter and the given body, and lists it in
 * `docs.json`/`mint.json` when the site has one: in the named group, else next to the pages of
 * the same folder. Refuses to overwrite a page.
 */
export async function addPage(site: DocsSite, command: AddPageCommand): Promise<EditOutcome> {
  const target = newPagePath(site, command.path);
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
  site.write(target.repoPath, pageText(title, command.description, command.body));
  const page = site.slug(target.repoPath);
  const navigationNote = await listInNavigation(site, page, command);
  const file = site.docsPath(target.repoPath) ?? target.repoPath;
  return {
    changed: true,
    title: `Add page ${page}`,
    reply: [`Added \`${file}\` titled "${title}".`, navigationNote].filter(Boolean).join(' '),
  };
}

/** The page text: YAML frontmatter (JSON strings are valid YAML scalars, so quoting is safe), then the body. */
function pageText(title: string, description: string | undefined, body: string | undefined): string {
  const frontmatter = [`title: ${JSON.stringify(title)}`];
  if (description !== undefined && description.trim() !== '') {
    frontmatter.push(`description: ${JSON.stringify(description.trim())}`);
  }
  const text = `---\n${frontmatter.join('\n')}\n---\n`;
  return body === undefined || body.trim() === '' ? text : `${text}\n${body.trim()}\n`;
}

/** Adds the page to the navigation file and says where it went (or why it did not). */
async function listInNavigation(
  site: DocsSite,
  page: string,
  command: AddPageCommand,
): Promise<string | undefined> {
  const load = await loadNavigation(site);
  if (load.kind !== 'loaded') return invalidNavigationNote(load);
  const { navigation } = load;
  const options: { group?: string; after?: string } = {};
  if (command.group !== undefined) options.group = command.group;
  if (command.after !== undefined) options.after = command.after.replace(/^\/+/, '');
  if (listNavigationPages(navigation.config).some((item) => item.page.replace(/^\/+/, '') === page)) {
    return `\`${navigation.name}\` already listed it (the entry pointed at a missing page until now).`;
  }
  if (!addNavigationPage(navigation.config, page, options)) {
    return `It is not in \`${navigation.name}\`: the navigation there has no group to add it to.${refNote(navigation)}`;
  }
  saveNavigation(site, navigation);
  const entry = listNavigationPages(navigation.config).find((item) => item.page === page);
  const groups = entry?.groups ?? [];
  const where = groups.length > 0 ? `under **${groups.join(' › ')}**` : 'at the top level';
  const missingGroup =
    command.group !== undefined &&
    !groups.some((group) => group.toLowerCase() === command.group?.trim().toLowerCase())
      ? ` (there is no group "${command.group}")`
      : '';
  return `Listed it in \`${navigation.name}\` ${where}${missingGroup}.`;
}
