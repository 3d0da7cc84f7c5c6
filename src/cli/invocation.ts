import fs from 'node:fs';
import path from 'node:path';

/**
 * How a person can run the command line again, for the commands we print (the banner, a timed-out
 * wait): `docwright` when a `docwright` on PATH is this program (installed globally, `npm link`),
 * otherwise `npx docwright`, which finds the project's own copy from its folder.
 */
export function commandName(environment: Readonly<Record<string, string | undefined>>): string {
  const folders = (environment['PATH'] ?? '').split(path.delimiter).filter(Boolean);
  return folders.some((folder) => isExecutable(path.join(folder, 'docwright')))
    ? 'docwright'
    : 'npx docwright';
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
