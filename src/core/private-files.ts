import fs from 'node:fs';

/**
 * docwright's data holds key hashes, readers' questions and paths to credentials: its folder is
 * the owner's alone (0700) and its files too (0600), whatever the umask. Folders and files made by
 * an earlier version with wider modes are narrowed when they are opened again.
 */
const PRIVATE_FOLDER_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

/** Creates `folder` (and its parents) if needed and makes it private. */
export function ensurePrivateFolder(folder: string): void {
  fs.mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  fs.chmodSync(folder, PRIVATE_FOLDER_MODE);
}

/**
 * Creates `file` empty if it does not exist and makes it private. SQLite creates a database's
 * `-wal` and `-shm` files with the database file's own mode, so they follow; those left from an
 * earlier run are narrowed here too.
 */
export function ensurePrivateFile(file: string, companions: readonly string[] = []): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  for (const each of [file, ...companions]) makePrivateIfPresent(each);
}

/** Narrows a file someone else wrote for us (Probot's `.env`) to the owner's alone, if it exists. */
export function makePrivateIfPresent(file: string): void {
  try {
    fs.chmodSync(file, PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
