import type { AppendSectionCommand } from '../commands.js';
import type { DocsSite } from '../docs-site.js';
import { refused } from '../edit-outcome.js';
import type { EditOutcome } from '../edit-outcome.js';
import { findPage } from '../find-page.js';
import { mapProse } from '../markdown-prose.js';

/** Adds `## heading` and the body at the end of a page found by path, URL path or title. */
export async function appendSection(site: DocsSite, command: AppendSectionCommand): Promise<EditOutcome> {
  // "## Rate limits" typed as the heading means the heading text, not a heading of "#"s.
  const heading = command.heading.replace(/^#+\s*/, '').trim();
  if (heading === '') return refused('Nothing changed: the section needs a heading.');
  const lookup = await findPage(site, command.page);
  if ('problem' in lookup) return refused(`Nothing changed: ${lookup.problem}`);
  const file = lookup.found;
  const content = await site.read(file);
  const body = command.body.replace(/\r\n/g, '\n').trim();
  const section = body === '' ? `## ${heading}\n` : `## ${heading}\n\n${body}\n`;
  const newline = content.includes('\r\n') ? '\r\n' : '\n';
  const separator = content.trim() === '' ? '' : `${newline}${newline}`;
  site.write(file, `${content.trimEnd()}${separator}${section.replace(/\n/g, newline)}`);
  const name = site.docsPath(file) ?? file;
  const duplicate = hasHeading(content, heading)
    ? ` Note: the page already had a "${heading}" heading; the new one gets a \`-1\` anchor.`
    : '';
  return {
    changed: true,
    title: `Add section "${heading}" to ${site.slug(file)}`,
    reply: `Appended the section "${heading}" to \`${name}\`.${duplicate}`,
  };
}

/** Whether a Markdown heading (outside code blocks) already has this text. */
function hasHeading(content: string, heading: string): boolean {
  let found = false;
  mapProse(content, (prose) => {
    for (const match of prose.matchAll(/^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
      if (match[1]?.trim().toLowerCase() === heading.toLowerCase()) found = true;
    }
    return prose;
  });
  return found;
}
