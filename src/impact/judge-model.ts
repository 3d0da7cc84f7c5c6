import type { JudgeModel } from './change-judge.js';

/**
 * The change judge's weights and listing, fitted by `npx tsx bench/docs-impact.ts --write` on
 * 124 docs-sync cases from 6 repositories (fastapi/fastapi, fastify/fastify, jestjs/jest, traefik/traefik, nodejs/undici, vuejs/vitepress). Written by that command; refit rather than edit.
 */
export const JUDGE_MODEL: JudgeModel = {
  bias: -2.893,
  weights: {
    top: 1.117,
    stale: 1.041,
    sibling: 0.49,
    family: 0.088,
    touched: 0.573,
    added: 0.334,
    'word-gone': 0.453,
    'file-name': 0.598,
    search: 0.004,
    declarations: 1.446,
    'new-public': 1.038,
    'gone-public': 0.931,
    defaults: 0.735,
    declared: 0.501,
    deprecations: 0.651,
    'code-files': 0.935,
    tests: 0.901,
    size: -0.017,
  },
  threshold: 0.4,
  most: 2,
  ratio: 0.4,
};
