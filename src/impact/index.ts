/**
 * Docs impact: from a unified diff and a docs tree to the pages the change makes stale, ranked,
 * each with the evidence a person can check.
 */
export { analyzeImpact, type ImpactInput } from './analyze-impact.js';
export { parseUnifiedDiff, MAX_DIFF_LINES, type ParseDiffOptions } from './parse-unified-diff.js';
export type { DiffFile, DiffFileStatus, DiffHunk, DiffLine, ParsedDiff } from './diff-types.js';
export type { DiffLocation, NameChange } from './diff-names.js';
export type { ImpactEvidence, ImpactPage, ImpactResult, PageQuote } from './impact-types.js';
export type { PageInput } from './page-vocabulary.js';
export { AFFECTED_SCORE } from './page-scores.js';
export { readImpactInput } from './read-impact-input.js';
