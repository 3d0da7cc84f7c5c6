/**
 * Docs impact: from a unified diff and a docs tree to the pages the change makes stale, ranked,
 * each with the evidence a person can check.
 */
export { analyzeImpact, changesCode } from './analyze-impact.js';
export { describeEvidence } from './describe-evidence.js';
export { parseUnifiedDiff } from './parse-unified-diff.js';
export type { ImpactEvidence, ImpactPage, ImpactResult } from './impact-types.js';
export { readImpactInput, readImpactPages } from './read-impact-input.js';
export { pagesLeftStale } from './stale-pages.js';
export { applyRenames, planDocsSync, type SyncPlan } from './sync-plan.js';
export { formatSyncPrompt, parseSyncPrompt, type SyncRequest } from './sync-request.js';
