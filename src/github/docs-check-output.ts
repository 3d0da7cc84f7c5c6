/**
 * A page as the docs analysis lists it (`ImpactPage` of src/impact), seen by its shape: this layer
 * may not import the analysis, so each caller hands in the sentence of one piece of evidence.
 */
export interface CheckedPage<Evidence> {
  /** Path relative to the docs root. */
  path: string;
  /** 0-1. */
  score: number;
  /** Strongest first. */
  evidence: readonly Evidence[];
}

/** One piece of evidence as a line a person can check (`describeEvidence` of src/impact). */
export type DescribeEvidence<Evidence> = (item: Evidence) => string;

/** The check run's name, which a branch protection rule would name to require it. */
export const DOCS_CHECK_NAME = 'docwright: docs follow code';

/**
 * GitHub refuses a check run whose summary passes 65,535 characters: the list of pages stops well
 * before, so the sentences around it always fit.
 */
const MAX_PAGE_LIST = 60_000;
/** Evidence lines shown per page: the strongest; the rest adds little for a reader. */
const EVIDENCE_SHOWN = 3;
/** A quoted page line is cut here: a long paragraph would push the other pages out. */
const MAX_EVIDENCE_LINE = 300;

/** What the check run says: success or a warning (never a failure, so it blocks no merge). */
export interface DocsCheckOutput {
  conclusion: 'success' | 'neutral';
  title: string;
  summary: string;
}

/** Where the pages were read: for their links and for the sentences about them. */
export interface DocsPlace {
  /** `owner/name` of the docs repository. */
  repository: string;
  /** The branch the pages were read at, which the links point to. */
  branch: string;
  /** The pages' folder in that repository; '' for its root. */
  docsRoot: string;
  /** The GitHub web root the links start with (github.com, or an Enterprise host). */
  webUrl: string;
  /** The docs are in the pull request's own repository, so the pull request can change them too. */
  ownRepository: boolean;
}

/**
 * The check run of an analysed pull request, written by the App's docs check and by the Action on a
 * pull request: `listed` are the pages the change affects, `stale` those of them it leaves as they
 * were (the rule of `docwright impact --check`). Success when no page is stale; else a warning
 * listing each stale page with its evidence, and how to get the docs pull request (`command` is the
 * repository's slash command).
 */
export function docsCheckOutput<Evidence>(
  listed: readonly CheckedPage<Evidence>[],
  stale: readonly CheckedPage<Evidence>[],
  place: DocsPlace,
  command: string,
  describe: DescribeEvidence<Evidence>,
): DocsCheckOutput {
  if (listed.length === 0) return nothingAffected(place);
  const changed = listed.filter((page) => !stale.includes(page));
  if (stale.length === 0) {
    return {
      conclusion: 'success',
      title: `${count(changed.length, 'affected docs page is', 'affected docs pages are')} changed too`,
      summary: `This pull request changes what these docs pages describe, and changes them too:\n\n${pageList(changed, place, describe)}`,
    };
  }
  const intro = place.ownRepository
    ? 'This pull request changes what these docs pages describe, and leaves them as they are:'
    : `This pull request changes what these pages of ${place.repository} describe:`;
  const alsoChanged =
    changed.length === 0
      ? ''
      : `\n\nChanged in this pull request too: ${changed.map((page) => `\`${page.path}\``).join(', ')}.`;
  return {
    conclusion: 'neutral',
    title: `${count(stale.length, 'docs page', 'docs pages')} may be stale`,
    summary: [
      intro,
      '',
      pageList(stale, place, describe) + alsoChanged,
      '',
      `Comment \`${command} sync\` on this pull request, and docwright brings ${stale.length === 1 ? 'it' : 'them'} up to date in a docs pull request.`,
    ].join('\n'),
  };
}

/** A pull request that changes no code: the docs are not read, since no page can be affected. */
export function noCodeChanged(): DocsCheckOutput {
  return {
    conclusion: 'success',
    title: 'No docs page is affected',
    summary: 'No docs page is affected by this change: it changes no code.',
  };
}

/** The check could not run: a warning, with the sentence that says why. */
export function uncheckedOutput(reason: string): DocsCheckOutput {
  return { conclusion: 'neutral', title: 'The docs could not be checked', summary: reason };
}

function nothingAffected(place: DocsPlace): DocsCheckOutput {
  const folder = place.docsRoot === '' ? 'the root' : `\`${place.docsRoot}/\``;
  return {
    conclusion: 'success',
    title: 'No docs page is affected',
    summary: `No docs page is affected by this change. The pages read: ${folder} of ${place.repository} at \`${place.branch}\`.`,
  };
}

/** The pages as a Markdown list, each linked, with its strongest evidence; cut to fit GitHub's bound. */
function pageList<Evidence>(
  pages: readonly CheckedPage<Evidence>[],
  place: DocsPlace,
  describe: DescribeEvidence<Evidence>,
): string {
  const entries: string[] = [];
  let length = 0;
  for (const [index, page] of pages.entries()) {
    const entry = pageEntry(page, place, describe);
    if (length + entry.length > MAX_PAGE_LIST) {
      entries.push(`- …and ${count(pages.length - index, 'more page', 'more pages')}`);
      break;
    }
    entries.push(entry);
    length += entry.length + 1;
  }
  return entries.join('\n');
}

function pageEntry<Evidence>(
  page: CheckedPage<Evidence>,
  place: DocsPlace,
  describe: DescribeEvidence<Evidence>,
): string {
  const evidence = evidenceLines(page, describe).map((line) => `  - ${escapeMarkdown(line)}`);
  return [`- [\`${page.path}\`](${pageLink(page.path, place)}) (${page.score.toFixed(2)})`, ...evidence].join(
    '\n',
  );
}

/** A page's strongest evidence, one plain line each, each cut to a readable length. */
export function evidenceLines<Evidence>(
  page: CheckedPage<Evidence>,
  describe: DescribeEvidence<Evidence>,
): string[] {
  return page.evidence.slice(0, EVIDENCE_SHOWN).map((item) => {
    const line = describe(item);
    return line.length > MAX_EVIDENCE_LINE ? `${line.slice(0, MAX_EVIDENCE_LINE)}…` : line;
  });
}

/** The page's file on the docs repository's branch. */
function pageLink(path: string, place: DocsPlace): string {
  const file = place.docsRoot === '' ? path : `${place.docsRoot}/${path}`;
  return `${place.webUrl}/${place.repository}/blob/${encodePath(place.branch)}/${encodePath(file)}`;
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** Evidence quotes code and page lines: shown as written, not as Markdown or HTML. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|]/g, '\\$&');
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
