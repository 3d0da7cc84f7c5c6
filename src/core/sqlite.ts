import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { ConfigError } from './errors.js';
import { openNodeSqlite } from './node-sqlite.js';

const require = createRequire(import.meta.url);
const nodeMajor = Number(process.versions.node.split('.')[0]);

/**
 * better-sqlite3, loaded on first use: a program that never opens a database (the Action's bundle,
 * which carries no native module) must not fail for lack of it at start.
 *
 * Which major loads: the one that works on the running Node. Version 12 wraps its objects in
 * Node's raw ObjectWrap, whose destructor aborts the process on Node 24.19 and later when a garbage
 * collection finalises a statement outside a JavaScript context (WiseLibs/better-sqlite3#1515);
 * version 13 moved to Node-API 10, which Node 20 does not have. So Node 22 and later load 13 and
 * Node 20 loads 12, installed as the optional `better-sqlite3-node20` alias.
 */
export const SQLite: typeof BetterSqlite3 = new Proxy(
  function unloaded() {} as unknown as typeof BetterSqlite3,
  {
    construct: (_target, args: unknown[]) => Reflect.construct(loadedSqlite(), args) as object,
    get: (_target, property) => Reflect.get(loadedSqlite(), property) as unknown,
  },
);

let loaded: typeof BetterSqlite3 | undefined;

function loadedSqlite(): typeof BetterSqlite3 {
  loaded ??= loadSqlite();
  return loaded;
}

export type SqliteDatabase = BetterSqlite3.Database;

function loadSqlite(): typeof BetterSqlite3 {
  if (nodeMajor >= 22) return require('better-sqlite3') as typeof BetterSqlite3;
  try {
    return require('better-sqlite3-node20') as typeof BetterSqlite3;
  } catch (error) {
    throw new ConfigError(
      `docwright on Node ${process.versions.node} needs the optional package better-sqlite3-node20, which did not install (${error instanceof Error ? error.message : String(error)}). Use Node 22 or 24, or reinstall with a C++ toolchain available.`,
      { cause: error },
    );
  }
}

/**
 * A fresh in-memory database for an index derived from files (the docs search): better-sqlite3
 * where it loads, else Node's own `node:sqlite`. The Action's bundle carries no native module, and
 * on its node24 runtime this is how the agent's docs search and the impact of a code change still
 * have their full-text index there.
 */
export function openMemoryDatabase(): SqliteDatabase {
  try {
    return new SQLite(':memory:');
  } catch (error) {
    if (!isMissingModule(error)) throw error;
    const builtin = openNodeSqlite(':memory:');
    if (!builtin) throw error;
    return builtin as unknown as SqliteDatabase;
  }
}

/** Whether an error says SQLite's module is not there to load (not that a database failed). */
export function isMissingModule(error: unknown): boolean {
  const failure = error as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = failure?.code ?? failure?.cause?.code;
  return code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_DLOPEN_FAILED';
}
