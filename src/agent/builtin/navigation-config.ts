import { docsTreeOf } from '../../docs/docs-tree.js';
import { readNavigation } from '../../docs/site-files.js';
import type { DocsSite } from './docs-site.js';

/**
 * The site's navigation file as an edit needs it: the file as written (its `$ref` parts are other
 * files, left as they are), where it is in the repository, and the text it was read from, so
 * saving writes only when the new text differs and keeps the file's own layout.
 */
export interface EditableNavigation {
  /** Repository path, e.g. `docs/docs.json`. */
  path: string;
  /** File name shown in replies: `docs.json` or `mint.json`. */
  name: string;
  config: unknown;
  original: string;
}

/** No navigation file, or one that does not parse (then edits leave it alone and say so). */
export type NavigationLoad =
  | { kind: 'none' }
  | { kind: 'invalid'; name: string; reason: string }
  | { kind: 'loaded'; navigation: EditableNavigation };

/** Reads `docs.json` (else the legacy `mint.json`) at the docs root, as every reader of the site does. */
export async function loadNavigation(site: DocsSite): Promise<NavigationLoad> {
  const file = await readNavigation(docsTreeOf(site.files, site.root));
  if (file === undefined) return { kind: 'none' };
  if (file.error !== undefined) return { kind: 'invalid', name: file.file, reason: file.error };
  return {
    kind: 'loaded',
    navigation: { path: site.repoPath(file.file), name: file.file, config: file.config, original: file.text },
  };
}

/**
 * Writes the config back with the file's own indentation and final newline, so the diff shows
 * the navigation change and not a reformatted file.
 */
export function saveNavigation(site: DocsSite, navigation: EditableNavigation): void {
  const indent = /^[ \t]+(?=")/m.exec(navigation.original)?.[0] ?? '  ';
  const newline = navigation.original.includes('\r\n') ? '\r\n' : '\n';
  let text = JSON.stringify(navigation.config, null, indent);
  if (newline !== '\n') text = text.replace(/\n/g, newline);
  if (/\r?\n$/.test(navigation.original)) text += newline;
  if (text !== navigation.original) site.write(navigation.path, text);
}

/** A sentence for a reply when the navigation could not be edited because it does not parse. */
export function invalidNavigationNote(load: NavigationLoad): string | undefined {
  if (load.kind !== 'invalid') return undefined;
  return `I left \`${load.name}\` alone: it is not valid JSON (${load.reason}).`;
}

/** Mintlify lets `docs.json` pull navigation from other files with `$ref`; those are not edited here. */
export function refNote(navigation: EditableNavigation): string {
  const config = navigation.config as { navigation?: unknown } | null;
  const usesRefs = JSON.stringify(config?.navigation ?? null).includes('"$ref"');
  return usesRefs
    ? ` Parts of its navigation live in files included with \`$ref\`, which I do not edit.`
    : '';
}
