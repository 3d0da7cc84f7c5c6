/**
 * Old versions of the docs kept beside the current ones: Docusaurus's `versioned_docs/`, or folders
 * named for versions side by side (`1.x/` and `latest/`, `v1/` and `v2/`, `version-1.0/` and
 * `version-2.0/`). A change to the code is a change to the current version; the old copies say
 * what an old release did and stay as they are.
 */

/** Folders that hold nothing but old versions, wherever they are (Docusaurus). */
const VERSIONED_FOLDER = /^versioned_(?:docs|sidebars)$/i;
/** `1.x`, `v2`, `2.0`, `v1.4.2`, `version-2.0`: a folder named for a version. */
const NUMBERED = /^(?:v?\d+(?:\.\d+)*(?:\.x)?|version-[\w.-]+)$/i;
/**
 * A bare whole number (`1`, `2024`) names a version only beside a named version folder: alone it
 * is as likely a year of a blog or a step of a tutorial.
 */
const BARE_NUMBER = /^\d+$/;
/** Folders named for a version without a number: versions only beside a numbered one. */
const NAMED = new Set(['latest', 'current', 'next', 'main', 'stable', 'canary']);
/** Named folders that hold the docs of the code as it is now, when any of them is there. */
const CURRENT = new Set(['latest', 'current', 'next', 'main']);

/**
 * The folder a page path goes through that makes it an old-version copy, for each such path:
 * any path through `versioned_docs/` or `versioned_sidebars/`, and any path through a version
 * folder that is not its siblings' current one. Among sibling folders that are version names
 * (numbered ones, and the named ones when a numbered one is beside them), the current ones are
 * `latest`, `current`, `next` and `main` when any is there, else `stable`, else the highest
 * number; the others are old. A lone version folder is current: there is nothing newer.
 */
export function oldVersionFolders(paths: readonly string[]): Map<string, string> {
  const children = new Map<string, Set<string>>();
  for (const path of paths) {
    const segments = path.split('/');
    for (let index = 0; index < segments.length - 1; index += 1) {
      const parent = segments.slice(0, index).join('/');
      const set = children.get(parent) ?? new Set<string>();
      set.add(segments[index]!);
      children.set(parent, set);
    }
  }
  const old = new Set<string>();
  for (const [parent, names] of children)
    for (const folder of oldSiblings([...names])) old.add(parent === '' ? folder : `${parent}/${folder}`);
  const copies = new Map<string, string>();
  for (const path of paths) {
    const segments = path.split('/');
    for (let index = 0; index < segments.length - 1; index += 1) {
      const folder = segments.slice(0, index + 1).join('/');
      if (VERSIONED_FOLDER.test(segments[index]!) || old.has(folder)) {
        copies.set(path, folder);
        break;
      }
    }
  }
  return copies;
}

/** The old versions among the names of one folder's subfolders. */
function oldSiblings(names: readonly string[]): string[] {
  const named = names.filter((name) => NAMED.has(name.toLowerCase()));
  const numbered = names.filter(
    (name) => NUMBERED.test(name) && (named.length > 0 || !BARE_NUMBER.test(name)),
  );
  if (numbered.length === 0 || numbered.length + named.length < 2) return [];
  const current = named.filter((name) => CURRENT.has(name.toLowerCase()));
  if (current.length === 0) current.push(...named.filter((name) => name.toLowerCase() === 'stable'));
  if (current.length === 0) {
    const highest = numbered.reduce((best, name) => (compareVersions(name, best) > 0 ? name : best));
    current.push(...numbered.filter((name) => compareVersions(name, highest) === 0));
  }
  return [...numbered, ...named].filter((name) => !current.includes(name));
}

/** Orders version folder names by their numbers (`v1.10` after `v1.9`); names without one first. */
function compareVersions(left: string, right: string): number {
  const numbers = (name: string) => (name.match(/\d+/g) ?? []).map(Number);
  const [a, b] = [numbers(left), numbers(right)];
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const difference = (a[index] ?? -1) - (b[index] ?? -1);
    if (difference !== 0) return difference;
  }
  return 0;
}
