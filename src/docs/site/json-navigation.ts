import {
  addNavigationPage,
  listNavigationPages,
  removeNavigationPage,
  renameNavigationPage,
} from '../navigation.js';
import type { NavigationEdit, NavigationEditResult } from './navigation-tree.js';

/**
 * Mintlify's `docs.json` (or `mint.json`) edited as JSON: the navigation functions change the
 * parsed file, which is written back with the file's own indentation and final newline so the diff
 * shows the navigation change and not a reformatted file. Parts included with `$ref` are other
 * files and are not edited.
 */
export function editJsonNavigation(text: string, name: string, edit: NavigationEdit): NavigationEditResult {
  let config: unknown;
  try {
    config = JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { text, changed: false, note: `I left \`${name}\` alone: it is not valid JSON (${reason}).` };
  }
  let changed: boolean;
  let note: string | undefined;
  if (edit.op === 'add') {
    const page = edit.ref.replace(/^\/+/, '');
    if (listNavigationPages(config).some((item) => item.page.replace(/^\/+/, '') === page)) {
      return { text, changed: false, note: `\`${name}\` lists it already.` };
    }
    const options: { group?: string; after?: string } = {};
    if (edit.group !== undefined) options.group = edit.group;
    if (edit.after !== undefined) options.after = edit.after.replace(/^\/+/, '');
    changed = addNavigationPage(config, page, options);
    if (!changed) note = `the navigation in \`${name}\` has no group to add it to.${refNote(config)}`;
  } else if (edit.op === 'remove') {
    changed = removeNavigationPage(config, edit.ref);
  } else {
    changed = renameNavigationPage(config, edit.from, edit.to);
  }
  if (!changed) return { text, changed: false, ...(note === undefined ? {} : { note }) };
  return { text: formatLike(text, config), changed: true };
}

/** `config` as JSON laid out like `original`: its indentation, line ends and final newline. */
function formatLike(original: string, config: unknown): string {
  const indent = /^[ \t]+(?=")/m.exec(original)?.[0] ?? '  ';
  const newline = original.includes('\r\n') ? '\r\n' : '\n';
  let text = JSON.stringify(config, null, indent);
  if (newline !== '\n') text = text.replace(/\n/g, newline);
  if (/\r?\n$/.test(original)) text += newline;
  return text;
}

function refNote(config: unknown): string {
  const navigation = (config as { navigation?: unknown } | null)?.navigation;
  return JSON.stringify(navigation ?? null).includes('"$ref"')
    ? ' Parts of its navigation live in files included with `$ref`, which I do not edit.'
    : '';
}
