import type { JudgeModel } from './change-judge.js';

/**
 * The change judge's weights and listing, fitted by `npx tsx bench/docs-impact.ts --write` on
 * 124 docs-sync cases from 6 repositories (fastapi/fastapi, fastify/fastify, jestjs/jest, traefik/traefik, nodejs/undici, vuejs/vitepress). Written by that command; refit rather than edit.
 */
export const JUDGE_MODEL: JudgeModel = {
  bias: -2.86,
  weights: {
    top: 1.062,
    stale: 1.007,
    sibling: 0.484,
    family: 0.115,
    touched: 0.767,
    added: 0.332,
    'word-gone': 0.457,
    'file-name': 0.223,
    search: 0.005,
    declarations: 1.449,
    'new-public': 1.033,
    'gone-public': 0.919,
    defaults: 0.716,
    'code-files': 1.041,
    tests: 0.85,
    size: 0.08,
  },
  threshold: 0.5,
  most: 2,
  ratio: 0.4,
};
