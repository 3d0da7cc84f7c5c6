/**
 * The docs index and retrieval of the assistant: parse Markdown/MDX pages into sections,
 * index them with SQLite FTS5, and search them for a conversation.
 */
export { DocsIndex } from './docs-index.js';
export { SectionVectors } from './section-vectors.js';
export { buildRetrievalQuery, isFollowUp, pointsBack, pointsOnlyBack } from './retrieval-query.js';
export { conceptWords, queryConcepts, queryTerms } from './fts-query.js';
export { isDocsPagePath, urlPathFromFile } from './url-path.js';
export { docsTreeOf, folderWithSurroundings } from './docs-tree.js';
export { openDocsSite, siteLayoutOf } from './site-files.js';
export type { DocsSiteFiles } from './site-files.js';
export { SITE_CONFIG_FILES } from './site/frameworks.js';
export { oldVersionFolders } from './site/versions.js';
export type { SearchFilter, SearchHit } from './types.js';
export { findReaderPage, readerPages } from './reader-pages.js';
export type { ReaderPage, ReaderSite } from './reader-pages.js';
