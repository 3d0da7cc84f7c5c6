import type { ReplaceTextCommand } from '../commands.js';
import type { DocsSite, SkippedFile } from '../docs-site.js';
import { bulletList, plural, refused } from '../edit-outcome.js';
import type { EditOutcome } from '../edit-outcome.js';
import { describeRoot } from '../find-page.js';

/**
 * Replaces exact, case-sensitive text in every Markdown/MDX file under the docs root, frontmatter
 * included (a product name sits in titles and descriptions too).
 */
export async function replaceText(site: DocsSite, command: ReplaceTextCommand): Promise<EditOutcome> {
  const { from, to } = command;
  if (from === '') return refused('Nothing changed: the text to replace is empty.');
  if (from === to) return refused(`Nothing changed: "${from}" would be replaced with itself.`);
  const edited: string[] = [];
  let total = 0;
  for (const file of site.markdownFiles()) {
    const count = await site.replaceAll(file, from, to);
    if (count === 0) continue;
    total += count;
    edited.push(`\`${site.docsPath(file) ?? file}\` (${count})`);
  }
  const skipped = await skippedWithText(site, from);
  if (total === 0) return refused([await notFoundReason(site, from), skippedNote(skipped)].join(''));
  return {
    changed: true,
    title: `Replace "${from}" with "${to}"`,
    reply: `Replaced "${from}" with "${to}": ${plural(total, 'occurrence')} in ${plural(edited.length, 'file')}.\n\n${bulletList(edited)}${skippedNote(skipped)}`,
    skipped,
  };
}

/** The files the text occurs in that the write policy keeps out of reach, with its reasons. */
async function skippedWithText(site: DocsSite, text: string): Promise<SkippedFile[]> {
  const found: SkippedFile[] = [];
  for (const skipped of site.skippedFiles()) {
    if ((await site.read(skipped.file)).includes(text)) found.push(skipped);
  }
  return found;
}

function skippedNote(skipped: SkippedFile[]): string {
  if (skipped.length === 0) return '';
  const items = skipped.map(({ file, reason }) => `\`${file}\`: ${reason}`);
  return `\n\nSkipped ${plural(skipped.length, 'file')} that also ${skipped.length === 1 ? 'contains' : 'contain'} it:\n\n${bulletList(items)}`;
}

/** Says where we looked, and points out matches in another case (the search is exact on purpose). */
async function notFoundReason(site: DocsSite, text: string): Promise<string> {
  const files = site.markdownFiles();
  const lower = text.toLowerCase();
  let otherCase: string | undefined;
  for (const file of files) {
    const content = await site.read(file);
    const index = content.toLowerCase().indexOf(lower);
    if (index !== -1) {
      otherCase = content.slice(index, index + text.length);
      break;
    }
  }
  const where = `the ${plural(files.length, 'Markdown/MDX file')} under ${describeRoot(site)}`;
  const hint = otherCase === undefined ? '' : ` (the search is case-sensitive; "${otherCase}" does occur)`;
  return `Nothing changed: "${text}" does not occur in ${where}${hint}.`;
}
