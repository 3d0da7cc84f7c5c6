import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { openSqliteDatabase, type OpenSqliteDatabase } from '../../src/store/database.js';

export interface NotesDatabase {
  database: OpenSqliteDatabase;
  file: string;
  /** Closes the database now (a test of what happens after); the folder goes after the test. */
  close: () => Promise<void>;
}

/**
 * The store's SQLite database, opened as `serve` opens it, in a folder of its own, with a table
 * `notes (id, text unique)` of the test's own for the store's mechanisms to work on. Call once per
 * file: each database made is closed and its folder removed after its test.
 */
export function notesDatabases(): (rows?: string[]) => Promise<NotesDatabase> {
  const made: { dir: string; close: () => Promise<void> }[] = [];
  afterEach(async () => {
    for (const each of made.splice(0)) {
      await each.close();
      await fs.rm(each.dir, { recursive: true, force: true });
    }
  });
  return async (rows = []) => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwright-notes-'));
    const file = path.join(dir, 'docwright.db');
    const database = await openSqliteDatabase(file);
    database.sqlite.exec('create table notes (id integer primary key, text text not null unique)');
    for (const text of rows) database.sqlite.prepare('insert into notes (text) values (?)').run(text);
    let closed: Promise<void> | undefined;
    const close = () => (closed ??= database.close());
    made.push({ dir, close });
    return { database, file, close };
  };
}
