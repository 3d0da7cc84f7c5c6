/**
 * Shapes shared by the docs parser and the index. A page is one Markdown or
 * MDX file; a section is the text under one heading, which is what retrieval returns.
 */

/** A source file handed to the parser or the index: a POSIX path and its text. */
export interface DocsFile {
  /** Path relative to the repository root (or to the docs root when `docsRoot` is not given). */
  path: string;
  content: string;
}

/** The text under one heading (or before the first heading) of a page. */
export interface DocsSection {
  /** Slug of the heading, unique within the page (GitHub style); `''` for the text before the first heading. */
  anchor: string;
  /** Text of the section's own heading; `''` for the text before the first heading. */
  heading: string;
  /** Heading chain from the outermost heading down to this one (h1 > h2 > h3). */
  headings: string[];
  /** Heading level 1-6; 0 for the text before the first heading. */
  level: number;
  /** Readable text: MDX noise removed, links reduced to their text, code blocks kept inside fences. */
  body: string;
}

/** One parsed page: frontmatter fields that matter for search, its URL and its sections. */
export interface DocsPage {
  /** File path relative to the docs root, e.g. `guides/setup.mdx`. */
  path: string;
  /** URL path of the rendered page, e.g. `/guides/setup` (`/` for the root index). */
  urlPath: string;
  title: string;
  description?: string;
  /** Frontmatter `keywords`, which docs sites write precisely for search. */
  keywords: string[];
  /** Frontmatter `sidebarTitle`: the page's name in the navigation, when it differs from the title. */
  sidebarTitle?: string;
  /** Frontmatter `noindex: true` or `searchable: false`: kept out of the index. */
  noindex: boolean;
  /** Frontmatter `hidden: true`: kept out of the index unless the site indexes hidden pages. */
  hidden: boolean;
  sections: DocsSection[];
}

/** Where a page sits on the site: used by the search filter and the `currentPath` boost. */
export interface PageMetadata {
  language: string;
  version?: string;
  /** Navigation groups the page is listed under (outermost first); empty when it is not in navigation. */
  groups: string[];
  tab?: string;
}

/** Filter of an assistant request (`{version?, language?, groups?: string[]}`). */
export interface SearchFilter {
  version?: string;
  language?: string;
  /** A section matches when its page is in at least one of these navigation groups. */
  groups?: string[];
}

/** One retrieved section with what an answer needs to quote and cite it. */
export interface SearchHit {
  urlPath: string;
  anchor: string;
  /** `urlPath` plus `#anchor` when the section has one: the link a citation points at. */
  url: string;
  pageTitle: string;
  heading: string;
  headings: string[];
  /** A short extract of the body around the matched terms, for display. */
  snippet: string;
  body: string;
  language: string;
  version?: string;
  groups: string[];
  /** Relevance, higher is better (negated `bm25()` times any `currentPath` boost). */
  score: number;
  /**
   * `score` without the boosts of the reader's current page and of the pages a thread cited:
   * comparable between the hits of one search. Absent when sections near in meaning were fused in,
   * whose scores are reciprocal ranks.
   */
  lexicalScore?: number;
  /**
   * Share (0-1) of the question this section's page holds: the question's words it contains, each
   * weighted by how rare it is in the docs (a word no page has weighs most). Comparable across
   * questions, unlike `score`, so answerers can decline when it is low.
   */
  relevance: number;
  /**
   * The same share counted only in what the page says it is about: its title, headings and
   * summary. A page about the question names it there; a long page that holds the question's
   * words in passing, in its body (a quoted example, a list of languages), does not.
   */
  about: number;
}
