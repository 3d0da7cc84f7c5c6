/**
 * The docs index and retrieval of the assistant: parse Markdown/MDX pages into sections,
 * index them with SQLite FTS5, and search them for a conversation.
 */
export {
  DocsIndex,
  DEFAULT_WEIGHTS,
  type DocsIndexOptions,
  type DocsIndexStats,
  type IndexedPageInfo,
  type SearchOptions,
} from './docs-index.js';
export type { ColumnWeights } from './search-statements.js';
export { parsePage } from './parse-page.js';
export { SectionVectors } from './section-vectors.js';
export { isSnippetPath } from './snippet-imports.js';
export {
  buildRetrievalQuery,
  isFollowUp,
  pointsBack,
  pointsOnlyBack,
  type RetrievalMessage,
  type RetrievalQueryInput,
} from './retrieval-query.js';
export { conceptWords, matchExpression, queryConcepts, queryTerms, type QueryConcept } from './fts-query.js';
export { isDocsPagePath, normalizeUrlPath, relativeToDocsRoot, urlPathFromFile } from './url-path.js';
export { readDocsFolder } from './read-docs-folder.js';
export { docsTreeOf, folderDocsTree, type DocsTree, type RepositoryFiles } from './docs-tree.js';
export { readDocsSite, readNavigation, type DocsSiteFiles, type NavigationFile } from './site-files.js';
export { resolveConfigReferences, type JsonReader } from './config-references.js';
export { slugify } from './slug.js';
export type { DocsFile, DocsPage, DocsSection, PageMetadata, SearchFilter, SearchHit } from './types.js';
