import type { Overlay } from '../forge/overlay.js';
import {
  describeEvidence,
  planDocsSync,
  readImpactPages,
  type ImpactPage,
  type SyncPlan,
  type SyncRequest,
} from '../impact/index.js';
import type { WritePolicy } from '../write-policy/index.js';

/** Evidence lines shown per page: the strongest; the rest adds little for a reader. */
const EVIDENCE_SHOWN = 3;

/**
 * The docs sync plan of a request against the job's docs: the pages under the docs root (paths
 * relative to it) read from the overlay and analysed with the request's diff. Both agents start
 * a sync from it.
 */
export async function syncPlan(request: SyncRequest, files: Overlay, policy: WritePolicy): Promise<SyncPlan> {
  // The pages as their framework publishes them: no versioned copy or translation is planned for.
  return planDocsSync(request.diff, await readImpactPages(files, policy.root));
}

/** What the request is about, for the first line of a reply: the pull request's link or its title. */
export function syncSubject(request: SyncRequest): string {
  const title = request.title === '' ? 'this code change' : `"${request.title}"`;
  return request.htmlUrl ? `${title} (${request.htmlUrl})` : title;
}

/** The reply when the change makes no page stale: nothing is edited and no pull request opened. */
export function nothingAffectedReply(request: SyncRequest): string {
  return `Nothing changed: no docs page is affected by ${syncSubject(request)}. The analysis found no page that names what the change renames, removes or changes.`;
}

/** A Markdown list of pages with their score and strongest evidence. */
export function pagesWithEvidence(pages: readonly ImpactPage[]): string {
  return pages
    .map((page) => {
      const evidence = page.evidence
        .slice(0, EVIDENCE_SHOWN)
        .map((item) => `  - ${describeEvidence(item).replace(/`/g, "'")}`);
      return [`- \`${page.path}\` (${page.score.toFixed(2)})`, ...evidence].join('\n');
    })
    .join('\n');
}
