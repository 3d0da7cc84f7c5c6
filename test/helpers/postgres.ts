/**
 * A throwaway PostgreSQL cluster for the tests, from Debian's `postgresql` package (installed by
 * .ci/run when missing): `initdb` into a temp folder, `pg_ctl start` on a free loopback port with
 * trust auth and durability off, `pg_ctl stop -m immediate` and the folder removed at the end.
 *
 * initdb refuses to run as root, and CI runs as root: then the cluster's files belong to the
 * `postgres` user the package creates and its binaries run through `runuser -u postgres`.
 *
 * DOCWRIGHT_TEST_DATABASE_URL (a superuser URL) uses a server you run instead of a new cluster.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';

const run = promisify(execFile);

export interface TestPostgres {
  /** The server's URL with `database` in place of the default one. */
  url(database?: string): string;
  /** Creates an empty database with a fresh name; returns its URL. */
  createDatabase(): Promise<string>;
  /**
   * Stops the server as an operator's restart or a failover does (`pg_ctl stop -m fast`: sessions
   * are ended, the port closes), waits `downMs`, and starts it again on the same port.
   */
  interrupt(downMs: number): Promise<void>;
  stop(): Promise<void>;
}

/** The two dialects the store and engine suites run against (`describe.each(DIALECTS)`). */
export const DIALECTS = ['sqlite', 'postgres'] as const;
export type Dialect = (typeof DIALECTS)[number];

/** Where a test's store lives: a new data dir, and on PostgreSQL a new database. */
export interface TestLocation {
  dataDir: string;
  databaseUrl: string | undefined;
}

/**
 * Fresh, empty databases of either dialect for one test file: a SQLite file in a temp folder, or a
 * new database on a throwaway cluster started on first use (so a SQLite-only run starts none).
 * Call `close()` in afterAll.
 */
export function testDatabases() {
  let postgres: Promise<TestPostgres> | undefined;
  const folders: string[] = [];
  return {
    async create(dialect: Dialect): Promise<TestLocation> {
      const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'docwright-dialect-'));
      folders.push(dataDir);
      if (dialect === 'sqlite') return { dataDir, databaseUrl: undefined };
      postgres ??= startPostgres();
      return { dataDir, databaseUrl: await (await postgres).createDatabase() };
    },
    async close(): Promise<void> {
      await (await postgres)?.stop();
      await Promise.all(folders.map((folder) => fsp.rm(folder, { recursive: true, force: true })));
    },
  };
}

/** Starts a cluster (or connects to DOCWRIGHT_TEST_DATABASE_URL); stop it in afterAll. */
export async function startPostgres(): Promise<TestPostgres> {
  const external = process.env.DOCWRIGHT_TEST_DATABASE_URL;
  if (external)
    return server(new URL(external), {
      stop: () => Promise.resolve(),
      interrupt: () => Promise.reject(new Error('a server of your own is not interrupted by the tests')),
    });
  const bin = binDirectory();
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docwright-pg-'));
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const as = (binary: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, binary), ...args])
      : run(path.join(bin, binary), args);
  const data = path.join(dir, 'data');
  await as('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '--no-locale',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const { port, options } = await startCluster(as, data, dir);
  const stopSync = () => {
    try {
      const args = ['-D', data, '-m', 'immediate', 'stop'];
      if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, 'pg_ctl'), ...args]);
      else execFileSync(path.join(bin, 'pg_ctl'), args);
    } catch {
      // already stopped
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  // A test process that ends without afterAll (a crash, Ctrl-C) still takes its cluster along.
  process.once('exit', stopSync);
  return server(new URL(`postgres://postgres@127.0.0.1:${port}/postgres`), {
    stop() {
      process.off('exit', stopSync);
      stopSync();
      return Promise.resolve();
    },
    async interrupt(downMs) {
      await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await as('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
    },
  });
}

/** Starts the cluster on a free port; another process may take the port first, so it tries again. */
async function startCluster(
  as: (binary: string, args: string[]) => Promise<unknown>,
  data: string,
  dir: string,
): Promise<{ port: number; options: string }> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c max_connections=200',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
    ].join(' ');
    try {
      await as('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
      return { port, options };
    } catch (error) {
      if (attempt >= 3) {
        const log = fs.existsSync(path.join(dir, 'log'))
          ? fs.readFileSync(path.join(dir, 'log'), 'utf8')
          : '';
        throw new Error(`PostgreSQL did not start: ${String(error)}\n${log}`);
      }
    }
  }
}

function server(base: URL, control: Pick<TestPostgres, 'stop' | 'interrupt'>): TestPostgres {
  let counter = 0;
  const url = (database = base.pathname.slice(1)) => {
    const target = new URL(base);
    target.pathname = `/${database}`;
    return target.toString();
  };
  return {
    url,
    async createDatabase() {
      counter += 1;
      const name = `docwright_${process.pid}_${counter}_${Math.random().toString(36).slice(2, 8)}`;
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`create database ${name}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    ...control,
  };
}

/** Debian keeps each major version's binaries in /usr/lib/postgresql/<major>/bin; the newest wins. */
function binDirectory(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((name) => fs.existsSync(path.join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return path.join(root, versions[0], 'bin');
  throw new Error(
    'PostgreSQL is not installed: `apt-get install postgresql` (what .ci/run does), or set DOCWRIGHT_TEST_DATABASE_URL',
  );
}
