import { NAVIGATION_FILES } from '../../docs/navigation.js';
import type { DocsSite } from './docs-site.js';

/** The site's navigation file at the docs root, parsed, with what is needed to write it back alike. */
export interface NavigationConfig {
  /** Repository path, e.g. `docs/docs.json`. */
  path: string;
  /** File name shown in replies: `docs.json` or `mint.json`. */
  name: string;
  config: unknown;
  /** The text it was read from: saving writes only when the new text differs. */
  original: string;
}

/** No navigation file, or one that does not parse (then edits leave it alone and say so). */
export type NavigationLoad =
  | { kind: 'none' }
  | { kind: 'invalid'; name: string; reason: string }
  | { kind: 'loaded'; navigation: NavigationConfig };

/** Reads `docs.json` (else the legacy `mint.json`) at the docs root. */
export async function loadNavigation(site: DocsSite): Promise<NavigationLoad> {
  for (const name of NAVIGATION_FILES) {
    const path = site.repoPath(name);
    if (!site.exists(path)) continue;
    const original = await site.read(path);
    try {
      return {
        kind: 'loaded',
        navigation: { path, name, config: JSON.parse(original) as unknown, original },
      };
    } catch (error) {
      return { kind: 'invalid', name, reason: error instanceof Error ? error.message : String(error) };
    }
  }
  return { kind: 'none' };
}

/**
 * Writes the config back with the file's own indentation and final newline, so the diff shows
 * the navigation change and not a reformatted file.
 */
export function saveNavigation(site: DocsSite, navigation: NavigationConfig): void {
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
export function refNote(navigation: NavigationConfig): string {
  const config = navigation.config as { navigation?: unknown } | null;
  const usesRefs = JSON.stringify(config?.navigation ?? null).includes('"$ref"');
  return usesRefs
    ? ` Parts of its navigation live in files included with \`$ref\`, which I do not edit.`
    : '';
}
