import { posix } from 'node:path';
import { frontmatterFault } from '../docs/frontmatter.js';
import { FRONTMATTER_LINK } from '../docs/page-syntax.js';
import { hasAnchor } from './page-anchors.js';
import { extractLinks, resolveLink, type PageLink } from './page-links.js';
import type { ScannedPage } from '../docs/page-scan.js';
import { mdxSyntaxError } from './mdx-syntax.js';
import { isMdx, type SiteMap } from './site-map.js';
import type { CheckProblem, CheckRule } from './types.js';

/**
 * The checks of one page (path relative to the docs root): its internal links and anchors
 * resolve, and, with `syntax`, its frontmatter is a YAML mapping, its code fences close and (for
 * `.mdx` only: Markdown is not MDX) the MDX parser accepts it.
 */
export async function checkPage(site: SiteMap, file: string, syntax = true): Promise<CheckProblem[]> {
  const scan = await site.scan(file);
  const problem = (rule: CheckRule, detail: string, message: string, line?: number, target?: string) => {
    const found: CheckProblem = { rule, file, message, key: `${rule}|${file}|${detail}` };
    if (line !== undefined) found.line = line;
    if (target !== undefined) found.target = target;
    return found;
  };
  const problems: CheckProblem[] = syntax ? await checkSyntax(site, file, scan, problem) : [];
  const ownAnchors = () => site.fileAnchors(file);
  for (const link of [...frontmatterLinks(scan), ...extractLinks(scan.prose)]) {
    const found = await checkLink(site, file, ownAnchors, link);
    if (!found) continue;
    const reported = problem(found.rule, link.href, found.message, link.line, found.target);
    // A link to a missing page fails the build of most frameworks: there it blocks a commit.
    if (found.rule === 'broken-link' && site.layout.brokenLinksFail) reported.blocking = true;
    problems.push(reported);
  }
  return problems;
}

async function checkSyntax(
  site: SiteMap,
  file: string,
  scan: ScannedPage,
  problem: ProblemOf,
): Promise<CheckProblem[]> {
  const problems = checkFrontmatter(scan, problem);
  if (scan.unclosedFence !== undefined) {
    problems.push(
      problem('code-fence', 'unclosed fence', 'a code fence is opened and never closed', scan.unclosedFence),
    );
  }
  if (isMdx(file, site.layout)) {
    const failure = mdxSyntaxError(await site.tree.read(file));
    if (failure) problems.push(problem('mdx-syntax', 'does not parse', failure.message, failure.line));
  }
  return problems;
}

type ProblemOf = (
  rule: CheckRule,
  detail: string,
  message: string,
  line?: number,
  target?: string,
) => CheckProblem;

function checkFrontmatter(scan: ScannedPage, problem: ProblemOf): CheckProblem[] {
  const block = scan.frontmatter;
  if (block === undefined) return [];
  if (!block.closed) {
    return [problem('frontmatter', 'unclosed', 'the frontmatter block has no closing "---" line', 1)];
  }
  const fault = frontmatterFault(block.yaml);
  if (fault === undefined) return [];
  if (fault.kind === 'not a mapping') {
    return [problem('frontmatter', 'not a mapping', 'the frontmatter must be "key: value" lines', 1)];
  }
  return [
    problem('frontmatter', 'invalid yaml', `the frontmatter is not valid YAML: ${fault.reason}`, fault.line),
  ];
}

/** What is wrong with one link, or undefined when it resolves (or is not checked). */
async function checkLink(
  site: SiteMap,
  file: string,
  ownAnchors: () => Promise<Set<string>>,
  link: PageLink,
): Promise<{ rule: CheckRule; message: string; target?: string } | undefined> {
  const { layout } = site;
  const target = resolveLink(link.href, file, {
    fileLinksOnly: layout.framework === 'mkdocs',
    ...(layout.framework === 'docusaurus'
      ? {
          sitePath: (path: string) =>
            posix.relative(layout.pagesRoot || '.', posix.join(layout.siteRoot, path)),
        }
      : {}),
  });
  if (target === undefined) return undefined;
  if (target.kind === 'outside') {
    return { rule: 'broken-link', message: `the link ${link.href} points outside the docs` };
  }
  if (target.kind === 'same-page') {
    return hasAnchor(await ownAnchors(), target.anchor)
      ? undefined
      : { rule: 'broken-anchor', message: `the link ${link.href} names no heading of this page` };
  }
  if (!site.serves(target.urlPath)) {
    return {
      rule: 'broken-link',
      message: `the link ${link.href} points to ${target.urlPath}, which is not a page`,
      target: target.urlPath,
    };
  }
  if (target.anchor === undefined || target.anchor === '') return undefined;
  const anchors = await site.anchors(target.urlPath);
  if (anchors === undefined || hasAnchor(anchors, target.anchor)) return undefined;
  return {
    rule: 'broken-anchor',
    message: `the link ${link.href} names no heading of ${site.pageAt(target.urlPath) ?? target.urlPath}`,
  };
}

/** The frontmatter's links to pages of the site, with their lines (the block starts on line 2). */
function frontmatterLinks(scan: ScannedPage): PageLink[] {
  if (scan.frontmatter === undefined) return [];
  return [...scan.frontmatter.yaml.matchAll(FRONTMATTER_LINK)].map((match) => ({
    href: match[3]!,
    // The block starts on the file's second line.
    line: scan.frontmatter!.yaml.slice(0, match.index).split('\n').length + 1,
  }));
}
