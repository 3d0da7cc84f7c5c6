import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

describe('the SQLite binding for the running Node', () => {
  it('loads better-sqlite3 13 on Node 22 and later, and 12 on Node 20', () => {
    const major = Number(process.versions.node.split('.')[0]);
    const name = major >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20';
    const { version } = require(`${name}/package.json`) as { version: string };
    expect(version.split('.')[0]).toBe(major >= 22 ? '13' : '12');
  });

  it('exits cleanly after many statements were prepared and dropped (no abort when they are finalised)', async () => {
    // Statements left for the garbage collector are finalised while the process tears down: with
    // better-sqlite3 12 on Node 24 that aborted the process with a failed assertion.
    const script = `
      import { SQLite } from './src/core/sqlite.ts';
      const database = new SQLite(':memory:');
      database.exec('CREATE TABLE t (a)');
      for (let i = 0; i < 20000; i += 1) database.prepare('SELECT count(*) FROM t WHERE a = ?').get(i);
      globalThis.gc?.();
      process.stdout.write('done');
    `;
    const { stdout } = await run(process.execPath, [
      '--expose-gc',
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      script,
    ]);
    expect(stdout).toBe('done');
  });
});
