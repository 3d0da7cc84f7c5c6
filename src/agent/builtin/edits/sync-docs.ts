import { applyRenames, type SyncRequest } from '../../../impact/index.js';
import { nothingAffectedReply, pagesWithEvidence, syncPlan, syncSubject } from '../../sync-context.js';
import type { DocsSite } from '../docs-site.js';
import { bulletList, plural, type EditOutcome } from '../edit-outcome.js';

/**
 * Brings the docs up to date with a code change as far as it can prove: a name the diff renamed
 * is renamed on the pages the change makes stale. Every other affected page is listed with its
 * evidence for a person (or a model) to update; a change that affects no page changes nothing.
 */
export async function syncDocs(site: DocsSite, request: SyncRequest): Promise<EditOutcome> {
  const plan = await syncPlan(request, site.files, site.policy);
  if (plan.pages.length === 0) return { changed: false, reply: nothingAffectedReply(request) };
  const edited: string[] = [];
  const renamed = new Set<string>();
  for (const [page, renames] of plan.renames) {
    const file = site.repoPath(page);
    if (!site.isWritable(file)) continue;
    const before = await site.read(file);
    const { text, count } = applyRenames(before, renames);
    if (count === 0 || text === before) continue;
    site.write(file, text);
    renamed.add(page);
    const names = renames.map((rename) => `\`${rename.from}\` → \`${rename.to}\``).join(', ');
    edited.push(`\`${page}\`: ${names} (${plural(count, 'occurrence')})`);
  }
  const others = plan.pages.filter((page) => !renamed.has(page.path));
  const parts = [`Docs sync for ${syncSubject(request)}.`];
  if (edited.length > 0)
    parts.push(`Renamed, as the diff renames them (both names come from the diff):\n\n${bulletList(edited)}`);
  if (others.length > 0)
    parts.push(
      `${edited.length > 0 ? 'Other pages' : 'Pages'} the change may make stale, not edited (check them; the evidence is the diff line and the page line):\n\n${pagesWithEvidence(others)}`,
    );
  const outcome: EditOutcome = { changed: edited.length > 0, reply: parts.join('\n\n') };
  // The run puts the commit's and pull request's own prefix (`docs: `) before it.
  if (outcome.changed) outcome.title = shortTitle(`follow "${request.title || 'the code change'}"`);
  return outcome;
}

const TITLE_LIMIT = 72;

function shortTitle(title: string): string {
  return title.length <= TITLE_LIMIT ? title : `${title.slice(0, TITLE_LIMIT - 2)}…"`;
}
