import type { JudgeModel } from './change-judge.js';

/**
 * The change judge's weights and listing, fitted by `npx tsx bench/docs-impact.ts --write` on
 * 124 docs-sync cases from 6 repositories (fastapi/fastapi, fastify/fastify, jestjs/jest, traefik/traefik, nodejs/undici, vuejs/vitepress). Written by that command; refit rather than edit.
 */
export const JUDGE_MODEL: JudgeModel = {
  bias: -3.229,
  weights: {
    top: 1.386,
    stale: 1.433,
    sibling: 0.403,
    family: 0.075,
    touched: 0.655,
    added: 0.345,
    'word-gone': 0.463,
    'file-name': 0.671,
    search: 0.003,
    declarations: 1.457,
    'new-public': 1.348,
    'gone-public': 0.998,
    defaults: 0.983,
    declared: 0.254,
    deprecations: 0.495,
    environment: 0.269,
    'code-files': 0.926,
    tests: 0.936,
    size: 0.027,
  },
  threshold: 0.4,
  most: 2,
  ratio: 0.5,
  wide: 3,
};
