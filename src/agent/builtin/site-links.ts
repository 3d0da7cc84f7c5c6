/** Links across the whole docs site: who links to a page, and repointing them in every page. */
import type { DocsSite } from './docs-site.js';
import { linkTargets, rewriteLinks } from './links.js';

/** A page and how many of its links a change concerns. */
export interface PageLinkCount {
  /** Docs-relative path, e.g. `guides/setup.mdx`. */
  file: string;
  count: number;
}

/** Pages (other than the target itself) with links to the page key `targetKey`, and how many each. */
export async function pagesLinkingTo(
  site: DocsSite,
  targetKey: string,
  except?: string,
): Promise<PageLinkCount[]> {
  const result: PageLinkCount[] = [];
  for (const file of site.markdownFiles()) {
    if (file === except) continue;
    const count = linkTargets(await site.read(file), site.slug(file)).filter(
      (key) => key === targetKey,
    ).length;
    if (count > 0) result.push({ file: site.docsPath(file) ?? file, count });
  }
  return result;
}

/** What repointing does: new targets by page key, and the page that moved, if one did. */
export interface RepointPlan {
  retarget: (targetKey: string) => string | undefined;
  /** A page that just moved: its links are read as written at `from` and rewritten for `to`. */
  moved?: { file: string; from: string; to: string };
}

/** Rewrites links in every page of the site; returns the pages that changed and how many links each. */
export async function repointSiteLinks(site: DocsSite, plan: RepointPlan): Promise<PageLinkCount[]> {
  const changed: PageLinkCount[] = [];
  for (const file of site.markdownFiles()) {
    const moved = plan.moved?.file === file ? plan.moved : undefined;
    const content = await site.read(file);
    const result = rewriteLinks(content, {
      sourcePage: moved?.from ?? site.slug(file),
      ...(moved ? { movedTo: moved.to } : {}),
      retarget: plan.retarget,
    });
    if (result.count === 0) continue;
    site.write(file, result.content);
    changed.push({ file: site.docsPath(file) ?? file, count: result.count });
  }
  return changed;
}

/** `guides/setup.mdx` (2 links) lines for a reply. */
export function describeCounts(pages: PageLinkCount[]): string[] {
  return pages.map(({ file, count }) => `\`${file}\` (${count} ${count === 1 ? 'link' : 'links'})`);
}
